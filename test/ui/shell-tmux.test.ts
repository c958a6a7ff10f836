/**
 * Shells and commands in the grid, in a real terminal (tmux): a bash tile rests at its prompt,
 * works while a command runs, rings once when a long one ends (done, or failed with its status) and
 * never for a short one; a command tile works until it exits; SIGHUP to belltower leaves no process
 * of any tile behind.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { closeAll, exited, expectRestored, keepFolder, start } from '../support/grid-session.js';
import { stateOf, tmuxMissing } from '../support/tmux.js';

afterEach(() => closeAll());

const hasBash = (() => {
  try {
    execFileSync('bash', ['--version']);
    return true;
  } catch {
    return false;
  }
})();

/** Processes of a session (by its leader's pid), zombies left out (nothing reaps them here). */
function alive(sid: number): number[] {
  try {
    const out = execFileSync('ps', ['-e', '-o', 'pid=,sid=,stat='], { encoding: 'utf8' });
    return out
      .trim()
      .split('\n')
      .map((line) => line.trim().split(/\s+/))
      .filter(([, s, stat]) => Number(s) === sid && !stat?.startsWith('Z'))
      .map(([pid]) => Number(pid));
  } catch {
    return [];
  }
}

describe.skipIf(tmuxMissing() !== null || !hasBash)('shells and commands in the grid (tmux)', () => {
  it('a bash tile: at rest → working → done with one bell; a failing long command → failed with its code; a short one → no bell', async () => {
    // A throwaway HOME: no rc file of whoever runs the tests. Long commands are those over 1 s here.
    const home = keepFolder(mkdtempSync(join(tmpdir(), 'belltower-shell-home-')));
    // One process (--no-server): its tiles end with the terminal's SIGHUP, as checked below.
    const { tmux, dir } = start(['--no-server', 'bash', 'sh -c "sleep 1; exit 3"', '--timing', 'longCommandMs=1000', '--quiet-period', '0', '--session', 'shells'], { cols: 140, rows: 40 }, [], {
      env: { HOME: home, SHELL: '/bin/bash', PS1: '$ ' },
    });
    // The command tile works from its start, then fails with its code, and rings.
    await tmux.waitFor('the command failed', (s) => stateOf(s, 2, 'sh') === 'failed');
    await tmux.until('its bell', () => tmux.bells() >= 1);
    expect(tmux.screen()).toMatch(/✗ failed · exit/);

    await tmux.waitFor('bash at its prompt', (s) => stateOf(s, 1, 'bash') === 'idle');
    tmux.keys('1', 'Enter');
    await tmux.waitFor('focus', (s) => s.includes('FOCUS 1 bash'));
    tmux.type('sleep 1.5');
    tmux.keys('Enter');
    await tmux.waitFor('working', (s) => stateOf(s, 1, 'bash') === 'working' && s.includes('sleep 1.5'));
    // Back in the grid so the done is not seen at once.
    tmux.keys('C-\\');
    await tmux.waitFor('done', (s) => stateOf(s, 1, 'bash') === 'done');
    await tmux.until('the second bell', () => tmux.bells() >= 2);

    tmux.keys('Enter');
    tmux.type('sleep 1.5; false');
    tmux.keys('Enter');
    tmux.keys('C-\\');
    await tmux.waitFor('failed with code 1', (s) => stateOf(s, 1, 'bash') === 'failed');
    await tmux.until('the third bell', () => tmux.bells() >= 3);

    tmux.keys('Enter');
    tmux.type('ls');
    tmux.keys('Enter');
    await tmux.waitFor('back at the prompt', (s) => stateOf(s, 1, 'bash') === 'idle');
    tmux.keys('C-\\');
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(tmux.bells()).toBe(3);

    // SIGHUP to belltower: every process of every tile ends, a job left running in bash too.
    tmux.keys('Enter');
    tmux.type('sleep 600 &');
    tmux.keys('Enter');
    tmux.keys('C-\\');
    await tmux.waitFor('the job started', (s) => s.includes('[1]'));
    const pid = Number(tmux.show('#{pane_pid}'));
    const belltower = Number(readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/)[0]);
    const tiles = readFileSync(`/proc/${belltower}/task/${belltower}/children`, 'utf8').trim().split(/\s+/).map(Number);
    // bash and its job are alive in the tile's session before the signal.
    expect(tiles.some((leader) => alive(leader).length >= 2)).toBe(true);
    process.kill(belltower, 'SIGHUP');
    expect(await exited(tmux, dir)).toBe(129);
    for (const leader of tiles) expect(alive(leader), `session ${leader}`).toEqual([]);
    expectRestored(tmux, dir);
  }, 90_000);
});
