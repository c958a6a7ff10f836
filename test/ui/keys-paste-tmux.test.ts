/**
 * Keys and pastes reach a tile's program byte for byte as they reach a program in a plain tmux
 * pane (issue 29): keypad keys in application keypad mode (DECKPAM, which vim sets) and outside
 * it, and a paste whose text holds the bracketed-paste end marker, for a program that did not ask
 * for bracketed paste. The same program records what it reads in both, and the records are
 * compared.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { closeAll, quitCleanly, start } from '../support/grid-session.js';
import { Tmux, tmuxMissing } from '../support/tmux.js';
import { shellQuote as q } from '../support/shell-quote.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
  closeAll();
  for (const cleanup of cleanups.splice(0)) cleanup();
});


/** Reads its terminal raw and appends each read, in hex, to the file it is given; `keypad` first
 * turns on the application keypad. A `z` ends the record with `.`. */
const DUMP = `
import { appendFileSync, writeFileSync } from 'node:fs';
const [mode, out] = process.argv.slice(2);
process.stdin.setRawMode(true);
if (mode === 'keypad') process.stdout.write('\\x1b=');
process.stdout.write('reading keys\\r\\n');
writeFileSync(out, '');
process.stdin.on('data', (data) => appendFileSync(out, data.toString('hex') + (data.includes(0x7a) ? '.' : ' ')));
`;

async function until(what: string, condition: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The bytes a record holds, reads joined (a pty may cut or join reads either way). */
const bytesOf = (record: string) => record.replace(/[ .]/g, '');

describe.skipIf(tmuxMissing() !== null)('keys and pastes as tmux gives them (tmux)', () => {
  it.each([
    ['keypad', '1b4f71' + '1b4f75' + '1b4f4d' + '1b4f6a'],
    ['numeric', '31' + '35' + '0a' + '2a'],
  ])('keypad keys in %s mode, and a paste holding ESC [ 201 ~, arrive in a tile exactly as in a plain pane', async (mode, keypadBytes) => {
    const dir = mkdtempSync(join(tmpdir(), 'belltower-keys-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const dump = join(dir, 'dump.mjs');
    writeFileSync(dump, DUMP);
    const command = (out: string) => `${q(process.execPath)} ${q(dump)} ${mode} ${q(join(dir, out))}`;

    const plain = new Tmux({ cols: 80, rows: 10, command: `${command('plain')}; exec sleep 600`, env: { ...process.env, TMUX: undefined } });
    cleanups.push(() => plain.close());
    const { tmux, dir: runDir } = start([`sh -c ${q(`${command('tile')}; exec sleep 600`)}`, '--session', `keys-${mode}`], { cols: 82, rows: 13 });
    await until('both programs reading', () => existsSync(join(dir, 'plain')) && existsSync(join(dir, 'tile')));
    await tmux.waitFor('the tile', (s) => s.includes('reading keys'));
    tmux.keys('Enter');
    await tmux.waitFor('focus mode', (s) => s.includes('FOCUS 1 sh'));

    const paste = 'x\x1b[201~y';
    for (const pane of [plain, tmux]) {
      pane.keys('KP1', 'KP5', 'KPEnter', 'KP*');
      pane.tmux('set-buffer', '-b', 'probe', paste);
      pane.tmux('paste-buffer', '-p', '-b', 'probe', '-t', 'main');
      pane.keys('z');
    }
    const record = (side: string) => readFileSync(join(dir, side), 'utf8');
    await until('both records', () => record('plain').endsWith('.') && record('tile').endsWith('.'));

    const pasted = Buffer.from(paste).toString('hex');
    // What tmux gives a plain pane (its input-keys.c table; the paste unwrapped, unchanged) …
    expect(bytesOf(record('plain'))).toBe(`${keypadBytes}${pasted}7a`);
    // … is what the tile's program reads.
    expect(bytesOf(record('tile'))).toBe(bytesOf(record('plain')));

    tmux.keys('C-\\');
    await tmux.waitFor('the grid', (s) => !s.includes('FOCUS 1 sh'));
    await quitCleanly(tmux, runDir);
    // The keypad of the terminal outside is given back numeric.
    expect(tmux.show('#{keypad_flag}')).toBe('0');
  }, 90_000);
});
