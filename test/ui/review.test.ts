/**
 * The review overlay's lines and keys (review.ts), from what the real git prints for a temporary
 * repository: the file list with git's own counts, then git's diff line for line with each line
 * toned for what it is; scrolling, files, and search.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { changesSince, diffText } from '../../src/worktree/worktree-changes.js';
import { findLine, newReview, reviewKey, reviewLines } from '../../src/ui/review.js';
import type { ReviewOverlay } from '../../src/ui/review.js';
import { overlayContent } from '../../src/ui/overlay.js';
import { GIT_ENV, gitIn, tempRepository } from '../support/git-repo.js';

const removals: (() => void)[] = [];
afterEach(() => {
  for (const remove of removals.splice(0)) remove();
});

async function changedRepository() {
  const made = tempRepository({ 'app.ts': 'export const a = 1;\nexport const b = 2;\n', 'README': 'hello\n' }, 'belltower-review-');
  removals.push(made.remove);
  writeFileSync(join(made.repo, 'app.ts'), 'export const a = 10;\nexport const b = 2;\n\tindented();\n');
  writeFileSync(join(made.repo, 'notes.md'), 'new file\n');
  const files = (await changesSince(made.repo, 'HEAD', { env: GIT_ENV })).files;
  const diff = await diffText(made.repo, 'HEAD', { env: GIT_ENV });
  return { ...made, files, diff };
}

const open = (lines: ReturnType<typeof reviewLines>): ReviewOverlay => ({ ...newReview(3), lines });

describe('the review of a tile\'s changes', () => {
  it("lists the files with git's counts, then git's diff line for line, each line toned", async () => {
    const { repo, files, diff } = await changedRepository();
    const lines = reviewLines(files, diff, 'belltower diff 3');
    // git's own numstat for the same change, untracked file included (as intent-to-add).
    gitIn(repo, 'add', '--intent-to-add', 'notes.md');
    const numstat = gitIn(repo, 'diff', '--numstat', 'HEAD').trim().split('\n').map((l) => l.split('\t'));
    expect(lines[0]).toEqual({ text: `2 files · +${numstat.reduce((n, [a]) => n + Number(a), 0)} −${numstat.reduce((n, [, r]) => n + Number(r), 0)}`, tone: 'title' });
    expect(lines.slice(1, 3).map((l) => l.text.trim().split(/\s+/))).toEqual(numstat.map(([a, r, p]) => [`+${a}`, `−${r}`, p]));
    // Then exactly the lines git diff prints (tabs shown as the pager shows them).
    const body = lines.slice(4).map((l) => l.text);
    expect(body).toEqual(gitIn(repo, 'diff', '--no-color', 'HEAD').replace(/\n$/, '').split('\n').map((l) => l.replace('\t', ' '.repeat(8 - (l.indexOf('\t') % 8)))));
    const toneOf = (start: string) => lines.find((l) => l.text.startsWith(start))?.tone;
    expect(toneOf('diff --git a/app.ts')).toBe('file');
    expect(toneOf('--- a/app.ts')).toBe('dim');
    expect(toneOf('@@')).toBe('hunk');
    expect(toneOf('+export const a = 10;')).toBe('add');
    expect(toneOf('-export const a = 1;')).toBe('remove');
    expect(toneOf(' export const b = 2;')).toBeUndefined();
  });

  it('says there is nothing to review when nothing changed', () => {
    expect(reviewLines([], '', 'belltower diff 1')).toEqual([{ text: 'no changes: the folder is as its base', tone: 'title' }]);
  });

  it('is cut at its bound, and says which command prints it all', () => {
    const diff = Array.from({ length: 100 }, (_, i) => `+line ${i}`).join('\n');
    const lines = reviewLines([{ path: 'big', added: 100, removed: 0 }], diff, 'belltower diff 7', 50);
    expect(lines).toHaveLength(51);
    // A summary, the file, a blank, then 47 of the diff's lines: the other 53 are not held.
    expect(lines.at(-2)).toEqual({ text: '+line 46', tone: 'add' });
    expect(lines.at(-1)).toEqual({ text: '… 53 more lines: belltower diff 7 prints them all', tone: 'dim' });
  });

  it('scrolls by line and page, never past its ends, and jumps from file to file', async () => {
    const { files, diff } = await changedRepository();
    const review = open(reviewLines(files, diff, 'd'));
    const fit = 5;
    const press = (r: ReviewOverlay, ...keys: string[]) => keys.reduce((at, key) => {
      const step = reviewKey(at, key, fit);
      if ('close' in step) throw new Error('closed');
      return step.review;
    }, r);
    const last = review.lines!.length - fit;
    expect(press(review, 'j', 'j').offset).toBe(2);
    expect(press(review, 'k').offset).toBe(0);
    expect(press(review, ' ').offset).toBe(fit - 1);
    expect(press(review, 'G').offset).toBe(last);
    expect(press(review, 'G', 'j', ' ').offset).toBe(last);
    expect(press(review, 'G', 'g').offset).toBe(0);
    const fileStarts = review.lines!.flatMap((l, i) => (l.tone === 'file' ? [i] : []));
    expect(fileStarts).toHaveLength(2);
    expect(press(review, ']').offset).toBe(Math.min(last, fileStarts[0]!));
    expect(press(review, ']', ']').offset).toBe(Math.min(last, fileStarts[1]!));
    for (const key of ['escape', 'q', 'D']) expect(reviewKey(review, key, fit)).toEqual({ close: true });
  });

  it('/ searches forward from the top line, n and N go on, Esc while typing only stops the search', async () => {
    const { files, diff } = await changedRepository();
    const review = open(reviewLines(files, diff, 'd'));
    const fit = 3;
    const press = (r: ReviewOverlay, ...keys: string[]) => keys.reduce((at, key) => {
      const step = reviewKey(at, key, fit);
      if ('close' in step) throw new Error('closed');
      return step.review;
    }, r);
    const lines = review.lines!;
    const typed = press(review, '/', 'c', 'o', 'n', 's', 't');
    expect(typed.search).toEqual({ text: 'const', typing: true });
    const found = press(typed, 'enter');
    const first = lines.findIndex((l, i) => i > 0 && l.text.includes('const'));
    expect(found.found).toBe(first);
    const next = press(found, 'n');
    expect(next.found).toBe(lines.findIndex((l, i) => i > first && l.text.includes('const')));
    expect(press(next, 'N').found).toBe(first);
    // A capital makes case matter; lower case does not.
    expect(findLine(lines, 'EXPORT', 0)).toBeNull();
    expect(findLine(lines, 'export', 0)).not.toBeNull();
    expect(press(review, '/', 'z', 'z', 'q', 'enter').found).toBe('none');
    const cancelled = press(typed, 'escape');
    expect(cancelled.search).toBeNull();
    expect(reviewKey(cancelled, 'escape', fit)).toEqual({ close: true });
  });

  it('shows the lines that fit from its offset, the line a search stopped on marked, and where it is', async () => {
    const { files, diff } = await changedRepository();
    const review = { ...open(reviewLines(files, diff, 'd')), offset: 2, found: 3 };
    const tiles = [{ id: 3, name: 'api', state: 'done' as const, changes: { branch: 'main', added: 3, removed: 1, files: 2 } }];
    const content = overlayContent(review, { escapeKey: 'ctrl-\\', why: null, tiles, fit: 4 }, 100);
    expect(content.title).toBe('review 3 api · main +3 −1 · 2 files · against HEAD');
    expect(content.lines.map((l) => l.text)).toEqual(review.lines!.slice(2, 6).map((l) => l.text));
    expect(content.lines.map((l) => l.mark === true)).toEqual([false, true, false, false]);
    expect(content.footer).toMatch(new RegExp(`^lines 3–6 of ${review.lines!.length} · `));
    expect(content.full).toBe(true);
    expect(overlayContent({ ...newReview(3), error: "tile 3's folder /x is not in a git repository: there is nothing to diff" }, { escapeKey: 'ctrl-\\', why: null, tiles }, 100).lines).toEqual([
      { text: "tile 3's folder /x is not in a git repository: there is nothing to diff", tone: 'warn' },
    ]);
  });
});
