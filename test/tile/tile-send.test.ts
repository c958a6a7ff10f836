/**
 * A line sent into a tile (the grid's `i`, `belltower send`, a deny's message) reaches the program
 * as it asked for input: to an agent's prompt box that turned bracketed paste on, a line of text
 * goes as one paste; a single key, control keys, and anything sent to a shell's programs go as
 * keys. Real ptys; the program records the bytes it reads.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseSpec } from '../../src/agents/launch-spec.js';
import type { LaunchSpec } from '../../src/agents/launch-spec.js';
import { asPaste, isLineOfText } from '../../src/tile/tile-input.js';
import { testSet, until } from './helpers.js';
import type { TestSet } from './helpers.js';

let current: TestSet | undefined;
afterEach(async () => {
  await current?.cleanup();
  current = undefined;
});

/** A program that (with `paste`) asks for bracketed paste, then writes every byte it reads, as JSON,
 * to `out`: a script file, as a tile's agent would run one, that ignores the arguments belltower
 * gives an agent. `agent` runs it with the Claude profile (a prompt box), else as a plain command. */
function launch(dir: string, out: string, paste: boolean, agent: boolean): LaunchSpec {
  const script = `${paste ? "process.stdout.write('\\x1b[?2004h');" : ''}process.stdin.setRawMode(true);let got='';process.stdin.on('data',(d)=>{got+=d.toString('latin1');require('fs').writeFileSync(${JSON.stringify(out)},JSON.stringify(got))});process.stdout.write('ready\\n');`;
  const file = join(dir, 'recorder');
  writeFileSync(file, `#!${process.execPath}\n${script}\n`, { mode: 0o755 });
  return agent ? { agent: 'claude', name: 'claude', file, args: [], spec: file } : parseSpec(file);
}

async function bytesRead(paste: boolean, agent: boolean, text: string, enter: boolean, expected: string): Promise<void> {
  current = testSet();
  const out = join(current.dir, 'got.json');
  const tile = await current.set.add(launch(current.dir, out, paste, agent));
  await until('the program ready', () => tile.session.screen.rowTexts().some((row) => row.includes('ready')));
  expect(tile.session.screen.inputModes.bracketedPaste).toBe(paste);
  tile.send(text, enter);
  await until(`the bytes ${JSON.stringify(expected)} read`, () => existsSync(out) && (JSON.parse(readFileSync(out, 'utf8')) as string) === expected, 10_000);
}

describe('a line sent into a tile', () => {
  it('to an agent that asked for bracketed paste: one paste, then Enter', async () => {
    await bytesRead(true, true, '? explain\nthis', true, '\x1b[200~? explain\nthis\x1b[201~\r');
  });

  it('to an agent that did not ask: plain keys, then Enter', async () => {
    await bytesRead(false, true, '? explain this', true, '? explain this\r');
  });

  it.each([
    ['y', 'a single key (a dialog\'s answer)'],
    ['\x1b', 'Esc'],
    ['\x1b[A', 'an arrow key'],
  ])('to an agent that asked for paste, %j goes as keys: %s', async (text) => {
    await bytesRead(true, true, text, false, text);
  });

  it("to a shell's program that asked for paste (vim): keys, so `:q` quits it", async () => {
    await bytesRead(true, false, ':q', true, ':q\r');
  });

  it('a line of text is more than one character with no control keys but tab and newline', () => {
    expect(isLineOfText('run the tests\nagain\t!')).toBe(true);
    expect(isLineOfText('é')).toBe(false);
    expect(isLineOfText('ok\x1b')).toBe(false);
    expect(isLineOfText('a\x7f')).toBe(false);
    expect(isLineOfText('a\r')).toBe(false);
  });

  it('a paste cannot be ended early by the text it carries', () => {
    expect(asPaste('a\x1b[201~b')).toBe('\x1b[200~ab\x1b[201~');
  });

  it('a slash command waits for the menu under the box to offer it first: Enter runs the menu\'s first entry', async () => {
    current = testSet();
    const out = join(current.dir, 'got.json');
    // The box echoes the command with the menu of `/` still under it (as Gemini drew it under load),
    // and offers the command first 600 ms later; it records whether that came before the Enter.
    const script = `process.stdin.setRawMode(true);let got='',updated=false;const box='\\x1b[2J\\x1b[H > /quit\\r\\n';process.stdin.on('data',(d)=>{got+=d.toString('latin1');if(got.includes('\\r')){require('fs').writeFileSync(${JSON.stringify(out)},JSON.stringify({got,updated}));return}process.stdout.write(box+' clear    Clear the screen\\r\\n quit     Exit the cli\\x1b[1;9H');setTimeout(()=>{updated=true;process.stdout.write(box+' quit     Exit the cli\\x1b[1;9H')},600)});process.stdout.write('ready\\n');`;
    const file = join(current.dir, 'menu');
    writeFileSync(file, `#!${process.execPath}\n${script}\n`, { mode: 0o755 });
    const tile = await current.set.add({ agent: 'claude', name: 'claude', file, args: [], spec: file });
    await until('the program ready', () => tile.session.screen.rowTexts().some((row) => row.includes('ready')));
    tile.send('/quit', true);
    await until('the Enter read', () => existsSync(out), 10_000);
    expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual({ got: '/quit\r', updated: true });
  });
});
