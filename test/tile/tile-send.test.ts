/**
 * A line sent into a tile (the grid's `i`, `belltower send`, a deny's message) reaches the program
 * as it asked for input: as a bracketed paste where it turned that mode on, as plain keys where
 * not. Real ptys; the program records the bytes it reads.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseSpec } from '../../src/agents/launch-spec.js';
import { asPaste } from '../../src/tile/tile-input.js';
import { testSet, until } from './helpers.js';
import type { TestSet } from './helpers.js';

let current: TestSet | undefined;
afterEach(async () => {
  await current?.cleanup();
  current = undefined;
});

/** A program that (with `paste`) asks for bracketed paste, then writes every byte it reads, as JSON, to `out`. */
function recorder(out: string, paste: boolean): string {
  const script = `${paste ? "process.stdout.write('\\x1b[?2004h');" : ''}process.stdin.setRawMode(true);let got='';process.stdin.on('data',(d)=>{got+=d.toString('latin1');require('fs').writeFileSync(${JSON.stringify(out)},JSON.stringify(got))});process.stdout.write('ready\\n');`;
  return `${JSON.stringify(process.execPath)} -e ${JSON.stringify(script)}`;
}

describe('a line sent into a tile', () => {
  it.each([
    [true, 'as one bracketed paste, then Enter'],
    [false, 'as plain keys, then Enter'],
  ])('bracketed paste asked: %s — the text goes %s', async (paste) => {
    current = testSet();
    const out = join(current.dir, 'got.json');
    const tile = await current.set.add(parseSpec(recorder(out, paste)));
    await until('the program ready', () => tile.session.screen.rowTexts().some((row) => row.includes('ready')));
    expect(tile.session.screen.inputModes.bracketedPaste).toBe(paste);
    tile.send('? explain\x1b[201~ this', true);
    const expected = `${paste ? '\x1b[200~? explain this\x1b[201~' : '? explain\x1b[201~ this'}\r`;
    await until('the line and its Enter read', () => existsSync(out) && (JSON.parse(readFileSync(out, 'utf8')) as string) === expected, 10_000);
  });

  it('a paste cannot be ended early by the text it carries', () => {
    expect(asPaste('a\x1b[201~b')).toBe('\x1b[200~ab\x1b[201~');
  });
});
