/**
 * A cloned repository's workspace file, as an attacker would write it, in a real terminal (tmux):
 * `belltower` in that folder shows what the file would start and starts nothing on "no" (or
 * Enter); a "yes" starts it and is remembered across restarts; an edit makes it ask again.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { closeAll, exited, expectRestored, keepFolder, start } from '../support/grid-session.js';
import { tmuxMissing } from '../support/tmux.js';

afterEach(() => closeAll());

function hostileClone(): { folder: string; state: string; planted: string[] } {
  const folder = keepFolder(mkdtempSync(join(tmpdir(), 'belltower-clone-')));
  const state = keepFolder(mkdtempSync(join(tmpdir(), 'belltower-state-')));
  execFileSync('git', ['init', '-q', folder]);
  const planted = ['PWNED-command', 'PWNED-prompt', 'PWNED-proxy'].map((name) => join(folder, name));
  const workspace = {
    tiles: [
      { name: 'build', command: `id > ${planted[0]}` },
      { name: 'sh', agent: 'shell', env: { PROMPT_COMMAND: `touch ${planted[1]}` } },
      { name: 'box', command: `ssh -oProxyCommand='touch ${planted[2]}' -oBatchMode=yes nohost.invalid true` },
    ],
  };
  writeFileSync(join(folder, 'belltower.json'), JSON.stringify(workspace, null, 2));
  return { folder, state, planted };
}

describe.skipIf(tmuxMissing() !== null)('a workspace file you have not approved (tmux)', () => {
  it('shows what it would start and starts nothing on Enter (no is the default)', async () => {
    const { folder, state, planted } = hostileClone();
    const { tmux, dir } = start([], { cols: 160, rows: 30 }, [], { cwd: folder, env: { BELLTOWER_STATE_DIR: state, SHELL: '/bin/bash' } });
    const screen = await tmux.waitFor('the question', (s) => s.includes('Start these tiles?'));
    expect(screen).toContain('has not started this workspace file before');
    expect(screen).toContain(`1 build: id > ${planted[0]}\n      a shell command line, run by /bin/sh -c`);
    expect(screen).toContain(`sets PROMPT_COMMAND='touch ${planted[1]}'   ! can make the program run other code`);
    expect(screen).toContain('! ssh option ProxyCommand runs a command on this machine');
    tmux.keys('Enter');
    expect(await exited(tmux, dir)).toBe(2);
    for (const file of planted) expect(existsSync(file), file).toBe(false);
    expect(existsSync(join(state, 'trusted-workspaces.json'))).toBe(false);
  });

  it('a yes starts it and is remembered across restarts; an edit asks again', async () => {
    const { folder, state, planted } = hostileClone();
    const env = { BELLTOWER_STATE_DIR: state, SHELL: '/bin/bash' };
    const first = start([], { cols: 160, rows: 30 }, [], { cwd: folder, env });
    await first.tmux.waitFor('the question', (s) => s.includes('Start these tiles?'));
    first.tmux.type('y');
    first.tmux.keys('Enter');
    await first.tmux.waitFor('the grid', (s) => /belltower · 3 tiles/.test(s));
    await first.tmux.until('the command tile ran', () => existsSync(planted[0]!), 15_000);
    await quit(first.tmux, first.dir);

    // Started again: no question, straight to the grid.
    const second = start([], { cols: 160, rows: 30 }, [], { cwd: folder, env });
    const screen = await second.tmux.waitFor('the grid or a question', (s) => /belltower · 3 tiles/.test(s) || s.includes('Start these tiles?'));
    expect(screen).not.toContain('Start these tiles?');
    await quit(second.tmux, second.dir);

    // One byte more: asked again, saying it changed.
    execFileSync('sh', ['-c', `printf '\\n' >> ${join(folder, 'belltower.json')}`]);
    const third = start([], { cols: 160, rows: 30 }, [], { cwd: folder, env });
    const asked = await third.tmux.waitFor('the question again', (s) => s.includes('Start these tiles?'));
    expect(asked).toContain('belltower.json changed since you trusted it');
    third.tmux.type('n');
    third.tmux.keys('Enter');
    expect(await exited(third.tmux, third.dir)).toBe(2);
    expect(readFileSync(join(third.dir, 'stderr'), 'utf8')).toContain('belltower: nothing started. To trust belltower.json later without this question: belltower trust belltower.json');
  }, 90_000);
});

/** q (and y to its question): the ssh tile failed to connect, so the status is 1 (README table). */
async function quit(tmux: Parameters<typeof expectRestored>[0], dir: string): Promise<void> {
  tmux.keys('q');
  const asked = await tmux.waitFor('quit', (s) => s.includes('quit belltower?') || s.includes('AFTER-BELLTOWER'));
  if (asked.includes('quit belltower?')) tmux.keys('y');
  expect(await exited(tmux, dir)).toBe(1);
  expectRestored(tmux, dir);
}
