import { describe, expect, it } from 'vitest';
import { EMPTY_LINES, feedLines, type LineState } from '../../src/sources/transcript/line-buffer.js';

function feedAll(chunks: (string | Buffer)[], max = 1024): { lines: string[]; state: LineState; oversized: number } {
  let state = EMPTY_LINES;
  const lines: string[] = [];
  let oversized = 0;
  for (const chunk of chunks) {
    const fed = feedLines(state, Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk), max);
    state = fed.state;
    lines.push(...fed.lines);
    oversized += fed.oversized;
  }
  return { lines, state, oversized };
}

describe('feedLines', () => {
  it('keeps the unfinished last line until its newline arrives', () => {
    const { lines, state } = feedAll(['{"a":1}\n{"b":', '2}\n{"c"']);
    expect(lines).toEqual(['{"a":1}', '{"b":2}']);
    expect(state.pendingBytes).toBe(4);
  });

  it('never splits a UTF-8 character across reads', () => {
    const bytes = Buffer.from('{"t":"日本"}\n');
    const cut = 8; // inside 日
    expect(feedAll([bytes.subarray(0, cut), bytes.subarray(cut)]).lines).toEqual(['{"t":"日本"}']);
  });

  it('strips CR of CRLF files and passes blank lines through for the caller to skip', () => {
    expect(feedAll(['a\r\n\nb\n']).lines).toEqual(['a', '', 'b']);
  });

  it('drops a line past the cap up to its newline, and goes on', () => {
    const long = 'x'.repeat(40);
    const { lines, oversized } = feedAll([`${long.slice(0, 20)}`, `${long.slice(20)}\nok\n`], 30);
    expect(lines).toEqual(['ok']);
    expect(oversized).toBe(1);
  });
});
