/**
 * A row's words (session/row-words.ts) on a real headless xterm: equal exactly when the row paints
 * the same, and withheld wherever the words do not say everything.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { keptWords, sameWords } from '../../src/session/row-words.js';
import { Owned, feed } from './helpers.js';

const owned = new Owned();
afterEach(() => owned.disposeAll());

/** Row 0's words, as a painter keeps them, after drawing `text` there. */
async function wordsOf(text: string): Promise<Uint32Array | undefined> {
  const screen = owned.screen({ cols: 20, rows: 2 });
  await feed(screen, `\x1b[H\x1b[2K${text}`);
  return keptWords(screen.rowWords(0));
}

describe('rowWords', () => {
  it('are equal for a row drawn again the same, however it was drawn', async () => {
    const screen = owned.screen({ cols: 20, rows: 2 });
    await feed(screen, '\x1b[31mred\x1b[0m plain 日本');
    const first = screen.rowWords(0)!.slice();
    // Redrawn as Ink does: cursor back, line erased, every cell written again.
    await feed(screen, '\r\x1b[2K\x1b[31mred\x1b[0m plain 日本');
    expect(sameWords(screen.rowWords(0)!, first)).toBe(true);
  });

  it('differ for a changed character, colour, background or attribute', async () => {
    const base = (await wordsOf('\x1b[31mred\x1b[0m text'))!;
    for (const changed of ['\x1b[31mrod\x1b[0m text', '\x1b[32mred\x1b[0m text', '\x1b[31;44mred\x1b[0m text', '\x1b[31;1mred\x1b[0m text', '\x1b[31mred\x1b[0m text ', '\x1b[38;2;1;2;3mred\x1b[0m text']) {
      const words = await wordsOf(changed);
      expect(words, JSON.stringify(changed)).toBeDefined();
      expect(sameWords(words!, base), JSON.stringify(changed)).toBe(false);
    }
  });

  it('are not kept for a row with a cluster of code points or an extended style, which live outside the words', async () => {
    for (const text of ['cafe\u0301', '👨‍👩‍👧 family', '\x1b[4:3mcurly\x1b[0m', '\x1b[4;58;5;196munderline colour\x1b[0m', '\x1b]8;;https://example.com\x1b\\link\x1b]8;;\x1b\\']) {
      expect(await wordsOf(text), JSON.stringify(text)).toBeUndefined();
    }
    // xterm keeps even a plain underline's shape in the extended part; the other attributes and
    // every colour are in the words.
    expect(await wordsOf('\x1b[4munderline\x1b[0m')).toBeUndefined();
    expect(await wordsOf('\x1b[1mbold\x1b[2;3mdim italic\x1b[7;9minverse strike\x1b[0m 日本 🚀')).toBeDefined();
  });
});
