import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ORPHAN_AGE_MS, createSessionFolder, sessionsRoot, sweepOrphans } from '../../src/agents/session-folder.js';

describe('session folders and the orphan sweep', () => {
  let state: string;
  beforeEach(() => {
    state = fs.mkdtempSync(path.join(os.tmpdir(), 'bt-sweep-'));
  });
  afterEach(() => fs.rmSync(state, { recursive: true, force: true }));

  /** A folder as a belltower process `pid` left it, last touched `ageMs` ago. */
  function leftBy(pid: number | 'none', ageMs: number, name: string): string {
    const dir = path.join(sessionsRoot(state), name);
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    if (pid !== 'none') fs.writeFileSync(path.join(dir, 'owner.pid'), `${pid}\n`);
    fs.writeFileSync(path.join(dir, 'settings.json'), '{}');
    const then = (Date.now() - ageMs) / 1000;
    fs.utimesSync(dir, then, then);
    return dir;
  }

  it('creates 0700 folders owned by this process and removes them on dispose', () => {
    const folder = createSessionFolder(state, 'tile-1');
    expect(fs.statSync(folder.dir).mode & 0o777).toBe(0o700);
    expect(fs.readFileSync(path.join(folder.dir, 'owner.pid'), 'utf8').trim()).toBe(String(process.pid));
    const file = folder.write('x.json', '{}');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    folder.dispose();
    folder.dispose();
    expect(fs.existsSync(folder.dir)).toBe(false);
  });

  it('removes folders older than a day whose owner is gone; keeps fresh ones and live owners', async () => {
    const dead = spawnSync('true').pid as number; // a real process that has exited
    const live = spawn('sleep', ['30'], { stdio: 'ignore' });
    try {
      const old = ORPHAN_AGE_MS + 60_000;
      const orphan = leftBy(dead, old, 'a-orphan');
      const ownerless = leftBy('none', old, 'b-ownerless');
      const fresh = leftBy(dead, 60_000, 'c-fresh');
      const running = leftBy(live.pid as number, old, 'd-running');
      const mine = leftBy(process.pid, old, 'e-mine');
      const removed = sweepOrphans(state, Date.now());
      expect(removed.sort()).toEqual([orphan, ownerless].sort());
      for (const kept of [fresh, running, mine]) expect(fs.existsSync(kept)).toBe(true);
    } finally {
      live.kill();
    }
  });

  it('does nothing when there is no sessions folder yet', () => {
    expect(sweepOrphans(path.join(state, 'nothing-here'), Date.now())).toEqual([]);
  });
});
