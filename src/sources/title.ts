/**
 * Title source: what a window title (OSC 0/2) says about an agent, read by its leading glyph.
 *
 * The title is fallback evidence. It can say working, at rest, or "I don't know", and never done
 * (a glyph cannot tell a finished turn from /clear's redraw). Blocked only where the agent's own
 * title says so and shows at no other moment (Codex's "Action Required", set by its TUI only while
 * a view that waits on the user is open): a glyph does not (Claude shows its idle glyph during a
 * permission prompt; Gemini's ✋ also shows for a quiet shell).
 */
import type { GlyphRange, TitleGlyphs, TitleMeaning } from './title-rules.js';
import type { SourceSignal } from '../verdict/signals.js';

/** Titles arrive with OSC 0 (icon name and title) and OSC 2 (title). */
export const TITLE_OSC_CODES: readonly number[] = [0, 2];

const DETAIL_MAX = 80;

function inRanges(cp: number, ranges: readonly GlyphRange[]): boolean {
  return ranges.some((range) => cp >= range.from && cp <= range.to);
}

/** A glyph is a leading symbol: not a letter or digit, and not ASCII (a path's `~`, a `[`). */
function isGlyph(cp: number): boolean {
  return cp >= 0x80 && !/[\p{L}\p{N}]/u.test(String.fromCodePoint(cp));
}

function signalFor(meaning: TitleMeaning, detail: string): SourceSignal[] {
  switch (meaning) {
    case 'working':
      return [{ type: 'working', source: 'title', detail }];
    case 'at-rest':
      return [{ type: 'at-rest', source: 'title', detail }];
    case 'unknown':
      return [{ type: 'unknown', source: 'title', detail }];
    case 'no-evidence':
      return [];
  }
}

/** What `title` says under `glyphs`: one signal, or none when the title is no evidence. */
export function classifyTitle(glyphs: TitleGlyphs, title: string): SourceSignal[] {
  // Gemini pads its titles with spaces to 80 columns.
  const text = title.trim();
  if (text === '') return []; // Codex and Gemini blank the title at exit: the exit says more.
  const detail = `title "${text.length > DETAIL_MAX ? `${text.slice(0, DETAIL_MAX - 1)}…` : text}"`;

  for (const rule of glyphs.asks ?? []) {
    if (rule.pattern.test(text)) return [{ type: 'blocked', kind: rule.kind, source: 'title', detail: rule.detail }];
  }
  for (const rule of glyphs.unreliable) {
    if (rule.pattern.test(text)) return [{ type: 'unknown', source: 'title', detail: rule.detail }];
  }
  const cp = text.codePointAt(0) as number;
  if (!isGlyph(cp)) return signalFor(glyphs.glyphless, detail);
  if (inRanges(cp, glyphs.working)) return signalFor('working', detail);
  if (inRanges(cp, glyphs.atRest)) return signalFor('at-rest', detail);
  return signalFor(glyphs.otherGlyph, detail);
}

/**
 * A title as a recording keeps it: a title can be free text (Codex shows the first prompt in it,
 * Gemini the folder), and all the classifier reads is its leading glyph, or the known title it
 * matches. So: empty stays empty, a known misleading title becomes its sample, a title that
 * starts with a glyph keeps the glyph, and any other becomes `...`. Each classifies as the title
 * did.
 */
export function titleForRecording(glyphs: TitleGlyphs, title: string): string {
  const text = title.trim();
  if (text === '') return '';
  const rule = (glyphs.asks ?? []).find((r) => r.pattern.test(text)) ?? glyphs.unreliable.find((r) => r.pattern.test(text));
  if (rule) return rule.sample;
  const cp = text.codePointAt(0) as number;
  if (!isGlyph(cp)) return '...';
  const glyph = String.fromCodePoint(cp);
  const selector = text.slice(glyph.length).startsWith('\ufe0f') ? '\ufe0f' : '';
  return `${glyph}${selector} ...`;
}
