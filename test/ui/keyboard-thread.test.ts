/**
 * The keyboard's thread (ui/keyboard-thread.ts, keyboard-worker.ts), built, on a real terminal:
 * a pty stands for the user's terminal, a second pty for the focused tile. Plain typing reaches
 * the tile from the worker and still reaches the main thread, marked as written; anything else
 * goes to the main thread alone and ends the target; a target named before the main thread saw
 * every chunk is refused; and a tile's descriptor closed and handed out again never receives a key.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pty from 'node-pty';
import { afterEach, describe, expect, it } from 'vitest';

const repo = resolve(import.meta.dirname, '..', '..');
const dist = join(repo, 'dist');
const HARNESS = join(repo, 'test', 'support', 'keyboard-harness.mjs');
/** The tile's program: reports each read it makes, as JSON. */
const TILE = `
process.stdin.setRawMode(true);
process.stdout.write('tile ready\\r\\n');
process.stdin.on('data', (data) => process.stdout.write('read ' + JSON.stringify(data.toString('latin1')) + '\\r\\n'));
`;

type Report = Record<string, unknown>;

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

async function harness() {
  const dir = mkdtempSync(join(tmpdir(), 'belltower-keyboard-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const tileProgram = join(dir, 'tile.mjs');
  writeFileSync(tileProgram, TILE);
  const socketPath = join(dir, 'harness.sock');
  const terminal = pty.spawn(process.execPath, [HARNESS, dist, socketPath, tileProgram], { cols: 80, rows: 24, env: process.env });
  cleanups.push(() => terminal.kill('SIGKILL'));
  let early = '';
  terminal.onData((text) => (early += text));
  const reports: Report[] = [];
  let tileText = '';
  const deadline = Date.now() + 20_000;
  while (!existsSync(socketPath)) {
    if (Date.now() > deadline) throw new Error(`the harness did not start: ${early}`);
    await new Promise((r) => setTimeout(r, 25));
  }
  const socket = net.connect(socketPath);
  cleanups.push(() => socket.destroy());
  let buffered = '';
  socket.on('data', (chunk) => {
    buffered += chunk.toString();
    let newline;
    while ((newline = buffered.indexOf('\n')) >= 0) {
      const report = JSON.parse(buffered.slice(0, newline)) as Report;
      buffered = buffered.slice(newline + 1);
      if (typeof report.tile === 'string') tileText += report.tile;
      else reports.push(report);
    }
  });
  const until = async (what: string, condition: () => boolean) => {
    const end = Date.now() + 20_000;
    while (!condition()) {
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}; reports ${JSON.stringify(reports)}; tile ${JSON.stringify(tileText)}; terminal ${JSON.stringify(early)}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  const order = (message: Report) => socket.write(JSON.stringify(message) + '\n');
  const inputs = () => reports.filter((r) => 'input' in r) as { input: string; direct: { tileId: number; chars: number } | null }[];
  /** Type `keys` and wait for the main thread to have them. */
  const type = async (keys: string) => {
    const before = inputs().map((r) => r.input).join('');
    terminal.write(keys);
    await until(`the main thread to get ${JSON.stringify(keys)}`, () => inputs().map((r) => r.input).join('') === before + keys);
  };
  await until('the harness to be ready', () => reports.some((r) => r.ready) && tileText.includes('tile ready'));
  return { order, type, until, inputs, reports, tile: () => tileText, dir };
}

describe('the keyboard thread', () => {
  it('writes plain typing to the named tile and tells the main thread; anything else it leaves to the main thread and lets go', async () => {
    const h = await harness();
    h.order({ arm: true });
    await new Promise((r) => setTimeout(r, 100)); // the order reaches the worker
    await h.type('abc');
    await h.until('the tile to read abc', () => h.tile().includes('read "abc"'));
    expect(h.inputs().at(-1)).toEqual({ input: 'abc', direct: { tileId: 1, chars: 3 } });

    await h.type('\x1b[A');
    expect(h.inputs().at(-1)).toEqual({ input: '\x1b[A', direct: null });
    await h.type('x'); // the target ended with the cursor key: the main thread decides again
    expect(h.inputs().at(-1)).toEqual({ input: 'x', direct: null });

    h.order({ arm: true });
    await new Promise((r) => setTimeout(r, 100));
    await h.type('\x1c'); // the key that leaves the tile: never written by the worker
    expect(h.inputs().at(-1)).toEqual({ input: '\x1c', direct: null });
    await new Promise((r) => setTimeout(r, 300));
    expect(h.tile()).not.toContain('\\u001b[A');
    expect(h.tile()).not.toContain('"x"');
    expect(h.tile()).not.toContain('\\u001c');
  });

  it('refuses a tile named before the main thread saw every chunk it read', async () => {
    const h = await harness();
    h.order({ busyThenArm: 1500 });
    await new Promise((r) => setTimeout(r, 300)); // the main thread is busy now
    await h.type('k'); // read by the worker while the main thread cannot see it
    await h.until('the late target', () => h.reports.some((r) => r.armedAfterBusy));
    await h.type('m');
    expect(h.inputs().slice(-2)).toEqual([
      { input: 'k', direct: null },
      { input: 'm', direct: null },
    ]);
    h.order({ arm: true }); // named again once it has caught up: taken
    await new Promise((r) => setTimeout(r, 100));
    await h.type('n');
    expect(h.inputs().at(-1)).toEqual({ input: 'n', direct: { tileId: 1, chars: 1 } });
    await h.until('the tile to read n', () => h.tile().includes('read "n"'));
    expect(h.tile()).not.toContain('"m"');
  });

  it('never writes a key into whatever gets the closed tile descriptor\'s number next', async () => {
    const h = await harness();
    h.order({ arm: true });
    await new Promise((r) => setTimeout(r, 100));
    h.order({ killTile: true });
    await h.until('the tile to close', () => h.reports.some((r) => r.tileClosed));
    const tileFd = h.reports.find((r) => r.tileClosed)!.fd as number;
    const file = join(h.dir, 'reused');
    h.order({ open: file });
    await h.until('the file to open', () => h.reports.some((r) => r.opened));
    // The kernel hands out the lowest free number: the tile's, closed a moment ago.
    expect(h.reports.find((r) => r.opened)!.fd).toBe(tileFd);
    await h.type('secret');
    await new Promise((r) => setTimeout(r, 200));
    expect(readFileSync(file, 'utf8')).toBe('');
  });
});
