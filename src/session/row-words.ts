/**
 * A visible row as xterm stores it — three 32-bit words a cell: code point and width, the
 * foreground word, the background word — so a painter can tell cheaply that a row reads exactly
 * as it did: equal words paint the same, and reading the row again (every cell through xterm's
 * getters, a style object per run) can be skipped. A program that redraws its whole frame to
 * change one line (Ink's way) leaves most rows equal.
 *
 * Only where the words say everything: a cell holding several code points (a cluster, which xterm
 * keeps beside the words) or an extended part (underline shape or colour, a link) is not in them,
 * so words with such a cell are never kept to compare with (`wordsSayAll`). Words equal to kept
 * ones have no such cell either: the comparison alone decides. Written against @xterm/headless
 * 6.0.0's BufferLine (`_data`; loadCell's masks); without those internals there are no words
 * (test/session/row-words.test.ts).
 */
import type { IBufferLine } from '@xterm/headless';

const CELL_SIZE = 3;
/** Content.IS_COMBINED_MASK in xterm's content word. */
const IS_COMBINED = 0x200000;
/** BgFlags.HAS_EXTENDED in xterm's background word. */
const HAS_EXTENDED = 0x10000000;

interface LineInternals {
  readonly _line?: { readonly _data?: unknown };
}

/** The words of the first `cols` cells of `line` (a view into the buffer, not a copy), or
 * undefined when this xterm does not show them or the line is short (mid-resize). */
export function lineWords(line: IBufferLine | undefined, cols: number): Uint32Array | undefined {
  const data = (line as unknown as LineInternals | undefined)?._line?._data;
  const size = cols * CELL_SIZE;
  if (!(data instanceof Uint32Array) || data.length < size) return undefined;
  return data.subarray(0, size);
}

/** No cell of `words` keeps part of itself outside them: equal words would paint the same. */
export function wordsSayAll(words: Uint32Array): boolean {
  for (let i = 0; i < words.length; i += CELL_SIZE) {
    if ((words[i]! & IS_COMBINED) !== 0 || (words[i + 2]! & HAS_EXTENDED) !== 0) return false;
  }
  return true;
}

/** What to keep of a row's words to compare the next time: a copy, or nothing when they do not
 * say everything. */
export function keptWords(words: Uint32Array | undefined): Uint32Array | undefined {
  return words && wordsSayAll(words) ? words.slice() : undefined;
}

export function sameWords(a: Uint32Array, b: Uint32Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
