import xterm from '@xterm/headless';
import { describe, expect, it } from 'vitest';
import { PspQueryScanner, ST } from '../../src/session/psp-query-scanner.js';

const { Terminal } = xterm;
const ESC = '\x1b';
const BEL = '\x07';

/** How many times xterm itself calls the 7501 handler with "?" for the same stream. */
async function xtermQueries(stream: string): Promise<number> {
  const term = new Terminal({ allowProposedApi: true });
  let count = 0;
  term.parser.registerOscHandler(7501, (data) => {
    if (data === '?') count++;
    return true;
  });
  await new Promise<void>((resolve) => term.write(stream, resolve));
  term.dispose();
  return count;
}

describe('PspQueryScanner', () => {
  it('queues BEL and ST terminators in stream order', () => {
    const scanner = new PspQueryScanner();
    scanner.feed(`a${ESC}]7501;?${BEL}b${ESC}]7501;?${ST}c${ESC}]7501;?${BEL}`);
    expect([scanner.take(), scanner.take(), scanner.take()]).toEqual([BEL, ST, BEL]);
  });

  it('follows a query across chunk boundaries', () => {
    const scanner = new PspQueryScanner();
    for (const chunk of [ESC, ']7', '501', ';', '?', ESC, '\\']) scanner.feed(chunk);
    expect(scanner.take()).toBe(ST);
  });

  it('ignores status records, other OSCs, and queries aborted by CAN', async () => {
    const stream = `${ESC}]7501;state=idle${BEL}${ESC}]0;7501;?${BEL}${ESC}]7501;?x${BEL}${ESC}]7501;?\x18${ESC}]7501;?${ST}`;
    const scanner = new PspQueryScanner();
    scanner.feed(stream);
    expect(scanner.take()).toBe(ST);
    // xterm agrees there is exactly one query in that stream.
    expect(await xtermQueries(stream)).toBe(1);
  });

  it('falls back to BEL when asked for more queries than it saw', () => {
    expect(new PspQueryScanner().take()).toBe(BEL);
  });
});
