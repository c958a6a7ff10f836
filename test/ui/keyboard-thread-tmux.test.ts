/**
 * The grid reads keys on a thread of its own, which writes plain typing straight to the focused
 * tile (ui/keyboard-thread.ts): the one-process grid its terminal, a session server its clients'
 * keys connections. Through tmux, in both, typing mixed with keys only the main thread may write
 * (cursor keys the program wants as SS3) reaches the tile's program in the order typed; the key
 * that leaves the tile, and what is typed after it, do not reach it; and the log says how many
 * chunks the thread wrote itself (else this test could pass with the main thread writing
 * everything).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { closeAll, quitCleanly, start } from '../support/grid-session.js';
import { tmuxMissing } from '../support/tmux.js';
import { shellQuote as q } from '../support/shell-quote.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
  closeAll();
  for (const cleanup of cleanups.splice(0)) cleanup();
});

/** Reads its terminal raw, cursor keys asked for as SS3, and appends each read, in hex. */
const DUMP = `
import { appendFileSync, writeFileSync } from 'node:fs';
const out = process.argv[2];
process.stdin.setRawMode(true);
process.stdout.write('\\x1b[?1hreading keys\\r\\n');
writeFileSync(out, '');
process.stdin.on('data', (data) => appendFileSync(out, data.toString('hex')));
`;

const hex = (text: string) => Buffer.from(text, 'latin1').toString('hex');

async function until(what: string, condition: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.skipIf(tmuxMissing() !== null)('the keyboard thread (tmux)', () => {
  it.each([
    ['the one-process grid', ['--no-server']],
    ['a session server and its client', []],
  ])('in %s: gets typing to the focused tile in the order typed, with the main thread\'s keys between, and nothing after leaving it', async (_name, mode) => {
    const dir = mkdtempSync(join(tmpdir(), 'belltower-keyboard-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const dump = join(dir, 'dump.mjs');
    const record = join(dir, 'record');
    writeFileSync(dump, DUMP);
    const { tmux, dir: runDir } = start([...mode, `${q(process.execPath)} ${q(dump)} ${q(record)}`, '--session', 'keyboard'], { cols: 100, rows: 20 });
    await tmux.waitFor('the tile', (s) => s.includes('reading keys'));
    tmux.keys('Enter');
    await tmux.waitFor('focus mode', (s) => s.includes('FOCUS 1'));

    // Each piece its own send-keys, as a typist's keys come: plain ones between cursor keys.
    const typed: [string, string][] = [
      ['ab', 'ab'], ['Up', '\x1bOA'], ['c', 'c'], ['d', 'd'], ['Left', '\x1bOD'], ['e', 'e'],
      ['C-a', '\x01'], ['f', 'f'], ['g', 'g'], ['Down', '\x1bOB'], ['h', 'h'], ['BSpace', '\x7f'], ['Enter', '\r'],
    ];
    for (const [key] of typed) {
      if (/^[a-z]+$/.test(key)) tmux.type(key);
      else tmux.keys(key);
    }
    const expected = hex(typed.map(([, bytes]) => bytes).join(''));
    const read = () => readFileSync(record, 'utf8');
    await until('every key in the record', () => read().length >= expected.length);
    expect(read()).toBe(expected);

    tmux.keys('C-\\');
    await tmux.waitFor('the grid', (s) => !s.includes('FOCUS 1'));
    tmux.type('j');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(read()).toBe(expected);

    await quitCleanly(tmux, runDir);
    const log = readFileSync(join(runDir, 'state', 'log', 'belltower.log'), 'utf8');
    const stopped = log.split('\n').filter((line) => line.includes('the keyboard thread stopped')).map((line) => JSON.parse(line) as { data: { chunks: number; direct: number } });
    expect(stopped).toHaveLength(1);
    expect(stopped[0]!.data.direct).toBeGreaterThan(0);
    expect(stopped[0]!.data.chunks).toBeGreaterThan(stopped[0]!.data.direct);
  }, 90_000);
});
