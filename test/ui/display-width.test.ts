import fc from 'fast-check';
import stringWidth from 'string-width';
import inkWidestLine from 'widest-line';
import { describe, expect, it } from 'vitest';
import { displayWidth, MAX_REMEMBERED, widestLine, widthCounts } from '../../src/ui/display-width.js';

// What the chrome's texts are made of: ASCII, its own frame lines and glyphs, CJK, emoji (with
// joiners, skin tones and variation selectors), combining marks, escapes, newlines.
const pieces = ['a', 'Z', ' ', '~', '·', '…', '─', '╭', '═', '●', '✓', '▸', '−', '⏎', '↑', '→', '⏎\ufe0f', '\x1b[38;2;1;2;3m', '\x1b[1;4:3m', '\x1b[', '\x1b]0;t\x07', '\x1b[2K', 'é', 'e\u0301', '漢', 'ｱ', '한', '👍', '👍🏽', '❤️', '👩‍💻', '\u200b', '\t', '\x1b[31m', '\x1b[0m', '\n', '\u00ad'];
const texts = fc.array(fc.constantFrom(...pieces), { maxLength: 40 }).map((parts) => parts.join(''));

describe('the chrome\'s text widths', () => {
  it('are string-width\'s, for any text', () => {
    fc.assert(
      fc.property(texts, (text) => {
        const line = text.replaceAll('\n', '');
        expect(displayWidth(line)).toBe(stringWidth(line));
        expect(displayWidth(line)).toBe(stringWidth(line)); // remembered, still the same
      }),
      { numRuns: 500 },
    );
  });

  it('widestLine answers as the widest-line package Ink ships with, for any text', () => {
    fc.assert(
      fc.property(texts, (text) => {
        expect(widestLine(text)).toBe(inkWidestLine(text));
        expect(widestLine(text)).toBe(inkWidestLine(text));
      }),
      { numRuns: 500 },
    );
  });

  it('measures a text once while it is remembered, and remembers a bounded number', () => {
    const wide = (i: number) => `漢${i}`;
    const before = widthCounts().measured;
    widestLine(wide(0));
    widestLine(wide(0));
    widestLine(`${wide(0)}\n${wide(0)}`);
    expect(widthCounts().measured - before).toBe(1);
    // Past the bound the memory starts again: the first text is measured anew.
    for (let i = 1; i <= MAX_REMEMBERED; i++) widestLine(wide(i));
    const after = widthCounts().measured;
    widestLine(wide(0));
    expect(widthCounts().measured - after).toBe(1);
  });
});
