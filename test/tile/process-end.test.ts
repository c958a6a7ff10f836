/**
 * Every process a tile started ends with it: real ptys, real process groups, checked with pgrep.
 * Grace periods are shortened so the tests do not wait out the defaults; the order of the signals
 * and the waiting for an empty session are what is under test.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseSpec } from '../../src/agents/launch-spec.js';
import { listProcesses, markedOutside, sessionMembers } from '../../src/platform/processes.js';
import type { Tile } from '../../src/tile/tile.js';
import { installed, pgrep, testSet, until } from './helpers.js';
import type { TestSet } from './helpers.js';

const endTiming = { hupGraceMs: 300, termGraceMs: 300, killWaitMs: 3_000, exitSettleMs: 250 };
let current: TestSet | undefined;
afterEach(async () => {
  await current?.cleanup();
  current = undefined;
});

function start(): TestSet {
  current = testSet({ endTiming });
  return current;
}

const shows = (tile: Tile, text: string) => () => tile.session.screen.rowTexts().some((row) => row.includes(text));
const signalsSent = (log: string[]) => log.flatMap((line) => /ending session \d+: (SIG[A-Z]+)/.exec(line)?.[1] ?? []);

describe('ending a tile ends every process of its session', () => {
  it('a child that ignores SIGHUP behind sh -c, with a background job: SIGTERM ends both, then the tile is exited', async () => {
    const { set, log } = start();
    const tile = await set.add(parseSpec(`trap "" HUP; sleep 600 & echo ready; wait`));
    await until('the script to be ready', shows(tile, 'ready'));
    const pgid = tile.session.pid as number;
    expect(pgrep('-g', String(pgid))).toHaveLength(2); // sh and its sleep

    await tile.stop();
    expect(pgrep('-g', String(pgid))).toEqual([]);
    expect(signalsSent(log)).toEqual(['SIGHUP', 'SIGTERM']);
    expect(tile.verdict).toMatchObject({ state: 'exited', source: 'process', reason: 'closed (killed by SIGTERM)' });
    expect(tile.ended).toMatchObject({ closed: true, remaining: 0, signal: 'SIGTERM' });
  });

  it('processes that ignore SIGTERM too get SIGKILL after the grace period', async () => {
    const { set, log } = start();
    const tile = await set.add(parseSpec(`trap "" HUP TERM; sleep 600 & echo ready; wait`));
    await until('the script to be ready', shows(tile, 'ready'));
    const pgid = tile.session.pid as number;
    await tile.stop();
    expect(pgrep('-g', String(pgid))).toEqual([]);
    expect(signalsSent(log)).toEqual(['SIGHUP', 'SIGTERM', 'SIGKILL']);
    expect(tile.verdict.reason).toBe('closed (killed by SIGKILL)');
  });

  it('a leader that exits while its group still runs says so, and closing the tile ends the rest', async () => {
    const { set } = start();
    const tile = await set.add(parseSpec(`trap "" HUP; sleep 600 & echo started`));
    await until('the exit to be reported', () => tile.hasExited);
    const pgid = tile.session.pid as number;
    // The shell is gone; its HUP-proof sleep is not: the tile says so, and does not say it ended.
    expect(tile.verdict).toMatchObject({ state: 'done', reason: 'exited with code 0 · 1 process still running' });
    expect(pgrep('-g', String(pgid))).toHaveLength(1);
    // The screen of an exited tile stays readable until it is closed.
    expect(shows(tile, 'started')()).toBe(true);

    await tile.stop();
    expect(pgrep('-g', String(pgid))).toEqual([]);
    expect(tile.verdict.state).toBe('done'); // reported once: closing afterwards is no new verdict
  });

  it('a daemon that left the session (setsid) is not ended: the tile reports it, by the marker it carries', async () => {
    const { set, dir, log } = start();
    const pidFile = join(dir, 'daemon.pid');
    const tile = await set.add(parseSpec(`setsid sh -c 'echo $$ > ${pidFile}; exec sleep 600' & while [ ! -s ${pidFile} ]; do sleep 0.02; done; echo detached`));
    await until('the exit to be reported', () => tile.hasExited);
    const daemon = Number(readFileSync(pidFile, 'utf8'));
    try {
      expect(tile.verdict.reason).toBe('exited with code 0 · 1 process left the tile and runs on');
      expect(tile.ended).toMatchObject({ remaining: 0, detached: 1 });
      expect(log.some((line) => line.includes(`${daemon} sleep`))).toBe(true);
      await tile.stop();
      // belltower's promise: what left the session on purpose is not belltower's to end.
      expect(pgrep('-s', String(daemon))).toEqual([daemon]);
      const marked = markedOutside(listProcesses() ?? [], `BELLTOWER_TILE=tile-${process.pid}-${tile.id}`, tile.session.pid as number);
      expect(marked.map((p) => p.pid)).toContain(daemon);
    } finally {
      process.kill(daemon, 'SIGKILL');
    }
  });

  it.skipIf(!installed('bash'))('an interactive shell: jobs in their own process groups (nohup, stopped) end with it', async () => {
    current = testSet({ endTiming, env: { ...process.env, HOME: undefined, SHELL: '/bin/bash' } });
    const { set } = current;
    const tile = await set.add(parseSpec('shell', { SHELL: 'bash' }));
    await until('the prompt', () => tile.verdict.state === 'idle');
    // nohup: the shell's own SIGHUP to its jobs does not end this one; only belltower's SIGTERM to
    // the job's process group does.
    tile.send('nohup sleep 600 >/dev/null 2>&1 &', true);
    await until('the background job', () => pgrep('-s', String(tile.session.pid)).length >= 2);
    tile.send('sleep 601', true);
    await until('the foreground job', () => tile.verdict.state === 'working');
    // The prompt mark says working before bash runs the command: a Ctrl-Z sent in between reaches
    // bash itself (which ignores it), not the job. Wait for the job to exist.
    await until('sleep 601 to run', () => pgrep('-s', String(tile.session.pid)).length >= 3);
    tile.session.write('\x1a'); // Ctrl-Z: a stopped job
    await until('the stopped job', () => tile.verdict.state === 'idle');
    const sid = tile.session.pid as number;
    const members = sessionMembers(listProcesses() ?? [], sid);
    expect(new Set(members.map((p) => p.pgid)).size).toBe(3); // the shell, and one group per job

    await tile.stop();
    expect(pgrep('-s', String(sid))).toEqual([]);
    expect(tile.verdict).toMatchObject({ state: 'exited' });
    expect(tile.verdict.reason).toMatch(/^closed/);
  });
});
