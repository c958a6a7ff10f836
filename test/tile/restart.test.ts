/** Restarting and closing one tile of a TileSet: real ptys, real commands. */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseSpec } from '../../src/agents/launch-spec.js';
import type { Tile } from '../../src/tile/tile.js';
import { pgrep, testSet, until } from './helpers.js';
import type { TestSet } from './helpers.js';

let current: TestSet | undefined;
afterEach(async () => {
  await current?.cleanup();
  current = undefined;
});

const shows = (tile: Tile, text: string) => tile.session.screen.rowTexts().some((row) => row.includes(text));

describe('restart and close', () => {
  it('a finished command keeps its last screen; restart runs it again in the same place, as a new run', async () => {
    current = testSet();
    const { set, changes } = current;
    const restarts: [Tile, Tile][] = [];
    set.onRestart((tile, previous) => restarts.push([tile, previous]));
    await set.add(parseSpec('sleep 600'), { name: 'other' });
    const first = await set.add(parseSpec(`echo "run $$"; exit 3`), { name: 'build' });
    await until('the command to end', () => first.hasExited);
    expect(first.verdict).toMatchObject({ state: 'failed', reason: 'exited with code 3' });
    expect(shows(first, 'run ')).toBe(true); // still readable after the exit
    // `ls` says the process ended, and how: a finished command is failed, and exited too.
    expect(first.info()).toMatchObject({ state: 'failed', exit: { code: 3, signal: null, closed: false } });

    const second = await set.restart(first.id);
    expect(second).not.toBe(first);
    expect(second).toMatchObject({ id: 2, name: 'build', run: 2, cwd: first.cwd });
    expect(set.tiles.map((t) => t.id)).toEqual([1, 2]);
    expect(set.tiles[1]).toBe(second);
    expect(restarts).toEqual([[second, first]]);
    await until('the second run to end', () => second.hasExited);
    expect(second.verdict.state).toBe('failed');
    // Each run's verdicts reach the set's listeners: the first run's, then the second's.
    expect(changes.filter((c) => c.tile.id === 2).map((c) => `${c.tile.run}:${c.verdict.state}`)).toEqual(['1:working', '1:failed', '2:working', '2:failed']);
  });

  it('restarting a tile that still runs ends every process of its run first (closed, no bell)', async () => {
    current = testSet({ endTiming: { hupGraceMs: 300, termGraceMs: 300, killWaitMs: 2_000, exitSettleMs: 100 } });
    const { set } = current;
    const rings: string[] = [];
    set.onRing((_t, state) => rings.push(state));
    const first = await set.add(parseSpec('trap "" HUP; sleep 600 & wait'));
    await until('its sleep', () => pgrep('-g', String(first.session.pid)).length === 2);
    const pgid = first.session.pid as number;
    const second = await set.restart(first.id);
    expect(pgrep('-g', String(pgid))).toEqual([]);
    expect(first.verdict).toMatchObject({ state: 'exited', reason: 'closed (killed by SIGTERM)' });
    expect(second.verdict.state).toBe('working');
    expect(rings).toEqual([]);
  });

  it('recordings of each run are kept apart', async () => {
    current = testSet();
    const recordDir = join(current.dir, 'recordings');
    const { TileSet } = await import('../../src/tile/tile-set.js');
    const { resolveTiming } = await import('../../src/verdict/timing.js');
    const set = new TileSet({ cwd: current.dir, env: process.env, cols: 80, rows: 24, timing: resolveTiming(), runtimeDir: join(current.dir, 'run'), hooks: false, logger: () => {}, recordDir });
    try {
      const tile = await set.add(parseSpec('true'), { name: 'quick' });
      await until('exit', () => tile.hasExited);
      const again = await set.restart(tile.id);
      await until('exit again', () => again.hasExited);
    } finally {
      await set.stop();
    }
    expect(readdirSync(recordDir).sort().map((name) => name.replace(/^.*?-1-/, ''))).toEqual(['quick-run2.jsonl', 'quick.jsonl']);
  });

  it('closing a tile ends it and drops it; a tile added later gets a new number', async () => {
    current = testSet();
    const { set } = current;
    const a = await set.add(parseSpec('sleep 600'));
    await set.add(parseSpec('sleep 601'));
    await set.close(a.id);
    expect(a.verdict).toMatchObject({ state: 'exited' });
    expect(a.ended?.closed).toBe(true);
    const c = await set.add(parseSpec('sleep 602'));
    expect(set.tiles.map((t) => t.id)).toEqual([2, 3]);
    expect(c.id).toBe(3);
  });
});
