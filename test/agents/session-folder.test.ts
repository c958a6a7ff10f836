import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ORPHAN_AGE_MS, createSessionFolder, sessionsRoot, sweepOrphans } from '../../src/agents/session-folder.js';
import { NOT_ROOT_REASON, OTHER_GID, OTHER_UID, isRoot, plantDir } from '../support/other-user.js';

describe('session folders and the orphan sweep', () => {
  let state: string;
  beforeEach(() => {
    state = fs.mkdtempSync(path.join(os.tmpdir(), 'bt-sweep-'));
  });
  afterEach(() => fs.rmSync(state, { recursive: true, force: true }));

  /** A folder as a belltower process `pid` left it, last touched `ageMs` ago. */
  function leftBy(pid: number | 'none', ageMs: number, name: string, root = sessionsRoot(state)): string {
    fs.mkdirSync(root, { recursive: true, mode: 0o700 });
    const dir = path.join(root, name);
    fs.mkdirSync(dir, { mode: 0o700 });
    if (pid !== 'none') fs.writeFileSync(path.join(dir, 'owner.pid'), `${pid}\n`, { mode: 0o600 });
    fs.writeFileSync(path.join(dir, 'settings.json'), '{}');
    age(dir, ageMs);
    return dir;
  }
  function age(p: string, ageMs: number): void {
    const then = (Date.now() - ageMs) / 1000;
    fs.lutimesSync(p, then, then);
  }
  const old = ORPHAN_AGE_MS + 60_000;
  const deadPid = () => spawnSync('true').pid as number; // a real process that has exited

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

  it('removes folders older than a day whose owner is gone; keeps fresh ones, live owners, and what it cannot prove it wrote', async () => {
    const dead = deadPid();
    const live = spawn('sleep', ['30'], { stdio: 'ignore' });
    try {
      const orphan = leftBy(dead, old, 'a-orphan');
      const ownerless = leftBy('none', old, 'b-ownerless');
      const fresh = leftBy(dead, 60_000, 'c-fresh');
      const running = leftBy(live.pid as number, old, 'd-running');
      const mine = leftBy(process.pid, old, 'e-mine');
      const loose = leftBy(dead, old, 'f-not-0700');
      fs.chmodSync(loose, 0o755);
      age(loose, old);
      const removed = sweepOrphans(state, Date.now());
      expect(removed).toEqual([orphan]);
      for (const kept of [ownerless, fresh, running, mine, loose]) expect(fs.existsSync(kept)).toBe(true);
    } finally {
      live.kill();
    }
  });

  it('never follows a symlink: a link in the sessions folder, or inside an orphan, is removed as a link', () => {
    const victim = fs.mkdtempSync(path.join(os.tmpdir(), 'bt-victim-'));
    try {
      fs.writeFileSync(path.join(victim, 'precious'), 'keep me');
      fs.mkdirSync(sessionsRoot(state), { recursive: true, mode: 0o700 });
      const link = path.join(sessionsRoot(state), 'g-link');
      fs.symlinkSync(victim, link);
      age(link, old);
      const orphan = leftBy(deadPid(), old, 'h-orphan');
      fs.symlinkSync(victim, path.join(orphan, 'inner-link'));
      age(orphan, old);
      expect(sweepOrphans(state, Date.now())).toEqual([orphan]);
      expect(fs.readFileSync(path.join(victim, 'precious'), 'utf8')).toBe('keep me');
      expect(fs.lstatSync(link).isSymbolicLink()).toBe(true);
    } finally {
      fs.rmSync(victim, { recursive: true, force: true });
    }
  });

  it.skipIf(!isRoot)(`never deletes a folder another user owns, even one that looks like an orphan (${NOT_ROOT_REASON})`, () => {
    const theirs = leftBy(deadPid(), old, 'i-theirs');
    fs.chownSync(theirs, OTHER_UID, OTHER_GID);
    fs.chownSync(path.join(theirs, 'owner.pid'), OTHER_UID, OTHER_GID);
    age(theirs, old);
    const forged = leftBy(deadPid(), old, 'j-forged-marker');
    fs.chownSync(path.join(forged, 'owner.pid'), OTHER_UID, OTHER_GID);
    age(forged, old);
    expect(sweepOrphans(state, Date.now())).toEqual([]);
    expect(fs.existsSync(path.join(theirs, 'settings.json'))).toBe(true);
    expect(fs.existsSync(path.join(forged, 'settings.json'))).toBe(true);
  });

  it.skipIf(!isRoot)(`sweeps nothing when another user controls a folder above the sessions folder (${NOT_ROOT_REASON})`, () => {
    // /tmp/<user> created first by another user: everything below it is theirs to swap.
    const shared = fs.mkdtempSync(path.join(os.tmpdir(), 'bt-shared-'));
    try {
      fs.chmodSync(shared, 0o1777);
      const planted = plantDir(path.join(shared, 'victim'), 0o777);
      const runtime = path.join(planted, 'belltower');
      const orphan = leftBy(deadPid(), old, 'k-orphan', sessionsRoot(runtime));
      const logs: string[] = [];
      expect(sweepOrphans(runtime, Date.now(), { logger: (_l, message, data) => logs.push(`${message} ${JSON.stringify(data)}`) })).toEqual([]);
      expect(fs.existsSync(orphan)).toBe(true);
      expect(logs.join('\n')).toMatch(/belongs to uid 4242/);
    } finally {
      fs.rmSync(shared, { recursive: true, force: true });
    }
  });

  it('does nothing when there is no sessions folder yet', () => {
    expect(sweepOrphans(path.join(state, 'nothing-here'), Date.now())).toEqual([]);
  });
});
