/**
 * The review of a tile's changes (`D`): its diff against its base as a scrollable overlay — the
 * file list with counts, then git's hunks line for line, each line toned for what it is — with
 * search. Pure: the lines from what git printed, and the overlay's state after each key.
 */
import type { FileChange } from '../worktree/worktree-changes.js';
import { editText } from './tile-forms.js';

export type ReviewTone = 'title' | 'file' | 'hunk' | 'add' | 'remove' | 'dim';

export interface ReviewLine {
  readonly text: string;
  readonly tone?: ReviewTone;
}

/** The most lines a review holds: a diff beyond it is cut there, and says where it is whole. */
export const REVIEW_MAX_LINES = 50_000;
/** A line's most characters kept (a minified file's one line must not be a megabyte of overlay). */
const LINE_MAX = 1000;

export interface ReviewOverlay {
  readonly type: 'review';
  readonly tileId: number;
  /** null until git has answered. */
  readonly lines: readonly ReviewLine[] | null;
  /** Why there is nothing to review (not a repository, git failed). */
  readonly error: string | null;
  /** The first line shown. */
  readonly offset: number;
  /** `/`: what is searched for; `typing` while it is being typed. */
  readonly search: { readonly text: string; readonly typing: boolean } | null;
  /** The line the last search stopped on, or that nothing matched. */
  readonly found: number | 'none' | null;
}

export function newReview(tileId: number): ReviewOverlay {
  return { type: 'review', tileId, lines: null, error: null, offset: 0, search: null, found: null };
}

/** Columns of a tab: git's pager shows them at 8. */
function expandTabs(line: string): string {
  if (!line.includes('\t')) return line;
  let out = '';
  for (const ch of line) out += ch === '\t' ? ' '.repeat(8 - (out.length % 8)) : ch;
  return out;
}

function toneOf(line: string, inHunk: boolean): ReviewTone | undefined {
  if (line.startsWith('diff --git ')) return 'file';
  if (!inHunk && /^(index |--- |\+\+\+ |new file mode|deleted file mode|old mode|new mode|Binary files )/.test(line)) return 'dim';
  if (line.startsWith('@@')) return 'hunk';
  if (line.startsWith('+')) return 'add';
  if (line.startsWith('-')) return 'remove';
  return undefined;
}

/** The review's lines: a summary, one line per file with its counts, then `diff` (git's plain
 * `git diff BASE`) line for line. `command`: what prints the whole diff, named if it is cut. */
export function reviewLines(files: readonly FileChange[], diff: string, command: string, max = REVIEW_MAX_LINES): ReviewLine[] {
  const added = files.reduce((n, f) => n + (f.added ?? 0), 0);
  const removed = files.reduce((n, f) => n + (f.removed ?? 0), 0);
  if (files.length === 0) return [{ text: 'no changes: the folder is as its base', tone: 'title' }];
  const counts = files.map((f) => (f.added === null ? 'binary' : `+${f.added} −${f.removed}`));
  const width = Math.max(...counts.map((c) => c.length));
  const lines: ReviewLine[] = [
    { text: `${files.length} ${files.length === 1 ? 'file' : 'files'} · +${added} −${removed}`, tone: 'title' },
    ...files.map((f, i) => ({ text: `  ${counts[i]!.padEnd(width)}  ${f.path}` })),
    { text: '' },
  ];
  const body = diff.replace(/\n$/, '').split('\n');
  let inHunk = false;
  for (const [i, raw] of body.entries()) {
    if (lines.length >= max) {
      lines.push({ text: `… ${body.length - i} more lines: ${command} prints them all`, tone: 'dim' });
      break;
    }
    if (raw.startsWith('diff --git ')) inHunk = false;
    else if (raw.startsWith('@@')) inHunk = true;
    const tone = toneOf(raw, inHunk);
    const text = expandTabs(raw.length > LINE_MAX ? `${raw.slice(0, LINE_MAX)}…` : raw);
    lines.push(tone ? { text, tone } : { text });
  }
  return lines;
}

export type ReviewStep = { readonly close: true } | { readonly review: ReviewOverlay };

/** The line at or after `from` (before, `back`) holding `text`, wrapping round; case matters only
 * when the text has a capital (as in less and vim's smartcase). */
export function findLine(lines: readonly ReviewLine[], text: string, from: number, back = false): number | null {
  if (text === '' || lines.length === 0) return null;
  const caseless = text === text.toLowerCase();
  const needle = caseless ? text.toLowerCase() : text;
  for (let step = 0; step < lines.length; step++) {
    const i = (((back ? from - step : from + step) % lines.length) + lines.length) % lines.length;
    const line = lines[i]!.text;
    if ((caseless ? line.toLowerCase() : line).includes(needle)) return i;
  }
  return null;
}

/** The review after `key`; `fit`: how many of its lines show at once. */
export function reviewKey(review: ReviewOverlay, key: string, fit: number): ReviewStep {
  const lines = review.lines ?? [];
  const last = Math.max(0, lines.length - fit);
  const at = (offset: number): ReviewOverlay => ({ ...review, offset: Math.max(0, Math.min(last, offset)) });
  if (review.search?.typing) {
    if (key === 'escape') return { review: { ...review, search: null, found: null } };
    if (key === 'enter') return { review: searched({ ...review, search: { text: review.search.text, typing: false } }, review.offset, false, last) };
    const text = editText(review.search.text, key);
    return { review: text === null ? review : { ...review, search: { text, typing: true } } };
  }
  const page = Math.max(1, fit - 1);
  switch (key) {
    case 'escape':
    case 'q':
    case 'D':
      return { close: true };
    case 'down':
    case 'j':
    case 'enter':
      return { review: at(review.offset + 1) };
    case 'up':
    case 'k':
      return { review: at(review.offset - 1) };
    case ' ':
    case 'pagedown':
    case 'ctrl-f':
      return { review: at(review.offset + page) };
    case 'pageup':
    case 'b':
    case 'ctrl-b':
      return { review: at(review.offset - page) };
    case 'g':
    case 'home':
      return { review: at(0) };
    case 'G':
    case 'end':
      return { review: at(last) };
    case ']':
    case '[': {
      // The next (previous) file's first line.
      const starts = lines.flatMap((line, i) => (line.tone === 'file' ? [i] : []));
      const to = key === ']' ? starts.find((i) => i > review.offset) : starts.filter((i) => i < review.offset).at(-1);
      return { review: to === undefined ? review : at(to) };
    }
    case '/':
      return { review: { ...review, search: { text: '', typing: true }, found: null } };
    case 'n':
    case 'N':
      // From the line the last search stopped on (it may show below the top at the end).
      return { review: review.search ? searched(review, (typeof review.found === 'number' ? review.found : review.offset) + (key === 'n' ? 1 : -1), key === 'N', last) : review };
    default:
      return { review };
  }
}

function searched(review: ReviewOverlay, from: number, back: boolean, last: number): ReviewOverlay {
  const line = findLine(review.lines ?? [], review.search?.text ?? '', from, back);
  if (line === null) return { ...review, found: 'none' };
  return { ...review, found: line, offset: Math.max(0, Math.min(last, line)) };
}
