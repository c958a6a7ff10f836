/**
 * A child that floods terminal queries (DA1, cursor report, DECRQSS, the OSC 7501 query) and never
 * reads its input: belltower's answers must not pile up without bound (2M queries held 415 MB),
 * and nothing may reach the user's terminal when the tile stops (node-pty printed EBADF).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_PENDING_REPLIES } from '../../src/session/session.js';
import { PtySession } from '../../src/session/pty-session.js';
import { Owned, waitFor } from './helpers.js';

const owned = new Owned();
let dir = '';
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'bt-replies-'));
});
afterEach(() => {
  owned.disposeAll();
  rmSync(dir, { recursive: true, force: true });
});

/** Asks `count` questions of each kind, says FLOODED (and writes `marker`), and never reads. */
function flooder(count: number, marker = join(dir, 'flooded')): string {
  const path = join(dir, 'flood.js');
  writeFileSync(
    path,
    `const q = '\\x1b[c\\x1b[6n\\x1bP$qm\\x1b\\\\\\x1b]7501;?\\x07';
let n = 0;
const more = () => {
  while (n < ${count}) { n += 1000; if (!process.stdout.write(q.repeat(1000))) return process.stdout.once('drain', more); }
  process.stdout.write('\\r\\nFLOODED\\r\\n', () => require('node:fs').writeFileSync(${JSON.stringify(marker)}, ''));
};
more();
setInterval(() => {}, 1000);
`,
  );
  return path;
}

describe('terminal replies to a child that never reads', () => {
  it('node-pty still keeps its input queue where pty-input-queue.ts looks for it', async () => {
    const pty = PtySession.spawn('sleep', ['30'], { cols: 80, rows: 24 });
    try {
      pty.write('x'.repeat(512 * 1024)); // far more than the kernel's pty buffer
      expect(pty.inputBacklog).toBeGreaterThan(256 * 1024);
    } finally {
      pty.kill('SIGKILL');
    }
  });

  it('are bounded per tile, the drops counted in the log', { timeout: 60_000 }, async () => {
    const logs: string[] = [];
    const session = owned.session({ file: process.execPath, args: [flooder(100_000)], cols: 80, rows: 24, logger: (_level, message) => logs.push(message) });
    await waitFor(() => session.screen.rowTexts().some((row) => row.includes('FLOODED')), 'the flood to be parsed', 50_000);
    // At most MAX_PENDING_REPLIES answers wait for the child, a few bytes each.
    expect(session.inputBacklog).toBeLessThanOrEqual(MAX_PENDING_REPLIES * 16);
    expect(session.replyStats.dropped).toBeGreaterThan(100_000);
    expect(logs.some((line) => /terminal replies dropped: the program asks more than it reads/.test(line))).toBe(true);
  });

  it('stopping the tile prints nothing on stderr', { timeout: 60_000 }, async () => {
    const state = join(dir, 'state');
    const bin = join(import.meta.dirname, '..', '..', 'bin', 'belltower.js');
    const child = spawn(process.execPath, [bin, 'run', '--headless', `node ${flooder(200_000)}`], { env: { ...process.env, BELLTOWER_STATE_DIR: state, CI: '' } });
    let err = '';
    let out = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    // The flooder says nothing belltower reads as status: wait until it has asked everything.
    await waitFor(() => existsSync(join(dir, 'flooded')), 'the flood to be written', 50_000);
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
    expect(err).toBe('');
    expect(out).toMatch(/"to":"exited"/);
  });
});
