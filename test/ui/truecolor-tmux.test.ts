/**
 * Truecolor inside tmux: tmux 3.3 does not set COLORTERM, so belltower took a truecolor terminal for
 * 256 colours and drew every agent's RGB colour as its nearest palette entry. With a client whose
 * terminal tmux knows has RGB, a tile's 24-bit colour reaches the pane as 24-bit, and the tile's
 * program is told COLORTERM=truecolor.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { Tmux, tmuxMissing } from '../support/tmux.js';
import { awaitEnded, endServers } from '../support/session-servers.js';
import { shellQuote as q } from '../support/shell-quote.js';

const repo = join(import.meta.dirname, '..', '..');
const opened: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (const close of opened.splice(0).reverse()) await close();
});

describe.skipIf(tmuxMissing() !== null)('colour depth inside tmux (tmux)', () => {
  it("a tile's RGB colour reaches a truecolor terminal as RGB, and the tile hears COLORTERM=truecolor", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'belltower-truecolor-'));
    // Last: the session server (it outlives the window by design), then the folder.
    opened.push(() => rmSync(dir, { recursive: true, force: true }));
    opened.push(() => awaitEnded(endServers([join(dir, 'state')])));
    const tile = `sh -c 'printf "CT=%s \\033[38;2;1;2;3mRGB\\033[0m\\n" "$COLORTERM"; exec sleep 600'`;
    // belltower starts once the client is attached, as when a user runs it in their tmux.
    const command = [
      'while [ -z "$(tmux list-clients)" ]; do sleep 0.1; done',
      `exec ${q(process.execPath)} ${q(join(repo, 'bin', 'belltower.js'))} ${q(tile)} --session truecolor`,
    ].join('\n');
    const env: Record<string, string | undefined> = { ...process.env, CI: undefined, COLORTERM: undefined, BELLTOWER_STATE_DIR: join(dir, 'state'), NO_COLOR: undefined };
    for (const name of Object.keys(env)) if (name.startsWith('VITEST') || name === 'NODE_OPTIONS') env[name] = undefined;
    const tmux = new Tmux({ cols: 100, rows: 30, command, env, cwd: repo });
    opened.push(() => tmux.close());
    // The terminal outside: an xterm-256color that tmux is told has RGB, as users configure it.
    tmux.tmux('set-option', '-as', 'terminal-features', ',xterm-256color:RGB');
    const client = tmux.attach(100, 30);
    opened.push(() => client.close());
    await tmux.waitFor('the tile', (s) => s.includes('RGB') && s.includes('CT='), 20_000);
    const styled = tmux.screen(true);
    expect(tmux.screen()).toContain("CT=truecolor");
    expect(styled).toMatch(/\x1b\[[0-9;]*38;2;1;2;3m/);
  }, 60_000);
});
