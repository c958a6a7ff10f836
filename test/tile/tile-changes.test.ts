/**
 * A tile's folder's changes, kept for its header (tile-changes.ts), counted by the real git in
 * temporary repositories, on a clock and timers passed in: counted at the start, again after a
 * verdict change and while the tile works, never twice at once, and a folder that is no
 * repository asked only once. Then in a real TileSet: a command tile's info carries its changes.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CHANGES_EVERY_MS, CHANGES_GAP_MS } from '../../src/tile/changes-refresh.js';
import { changesTarget, countingQueue, SHARED_FOR_MS, TileChanges } from '../../src/tile/tile-changes.js';
import type { ChangesCounter, ChangesTarget } from '../../src/tile/tile-changes.js';
import { branchInHead, countChanges, countChangesIn } from '../../src/worktree/worktree-changes.js';
import { createWorktree } from '../../src/worktree/worktree-create.js';
import { GIT_ENV, gitIn, tempRepository } from '../support/git-repo.js';
import { parseSpec } from '../../src/agents/launch-spec.js';
import { testSet, until } from './helpers.js';

const cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function repo(): string {
  const made = tempRepository({ 'app.ts': 'export const a = 1;\nexport const b = 2;\n' }, 'belltower-changes-');
  cleanups.push(made.remove);
  return made.repo;
}

/** A clock and timers the test moves by hand. */
function manualTime() {
  let now = 0;
  const timers: { at: number; run: () => void }[] = [];
  return {
    now: () => now,
    setTimer: (run: () => void, ms: number) => {
      const timer = { at: now + ms, run };
      timers.push(timer);
      return () => void timers.splice(timers.indexOf(timer) >>> 0, timers.includes(timer) ? 1 : 0);
    },
    pending: () => timers.map((t) => t.at),
    advance(ms: number) {
      now += ms;
      for (const timer of timers.filter((t) => t.at <= now)) {
        timers.splice(timers.indexOf(timer), 1);
        timer.run();
      }
    },
  };
}

/** A counter that counts with git and says how many counts ran, and how many at once. */
function countingWithGit() {
  const stats = { runs: 0, inFlight: 0, most: 0 };
  const count: ChangesCounter = async (target: ChangesTarget) => {
    stats.runs++;
    stats.inFlight++;
    stats.most = Math.max(stats.most, stats.inFlight);
    try {
      return await countChanges(target.cwd, target.base, target.branch, { env: GIT_ENV });
    } finally {
      stats.inFlight--;
    }
  };
  return { count, stats };
}

const settled = () => new Promise((resolve) => setTimeout(resolve, 0));
async function untilTrue(what: string, predicate: () => boolean): Promise<void> {
  await until(what, predicate, 30_000);
}

describe("a tile's changes", () => {
  it('are counted as the tile starts, and again after a verdict change: the branch and what changed against HEAD', async () => {
    const folder = repo();
    const time = manualTime();
    const { count, stats } = countingWithGit();
    let told = 0;
    const changes = new TileChanges({ target: changesTarget({ cwd: folder, remote: false }), count, now: time.now, setTimer: time.setTimer, changed: () => told++, problem: () => {} });
    cleanups.push(() => changes.dispose());
    await untilTrue('the first count', () => changes.summary !== undefined);
    expect(changes.summary).toEqual({ branch: 'main', added: 0, removed: 0, files: 0 });
    expect(told).toBe(1);

    writeFileSync(join(folder, 'app.ts'), 'export const a = 10;\nexport const b = 2;\nexport const c = 3;\n');
    writeFileSync(join(folder, 'new.ts'), 'one\ntwo\n');
    time.advance(CHANGES_GAP_MS);
    changes.verdict('done');
    await untilTrue('the count after the verdict', () => changes.summary?.files === 2);
    // git's own numbers for the same change (the untracked file counted as added).
    expect(changes.summary).toEqual({ branch: 'main', added: 4, removed: 1, files: 2 });
    expect(told).toBe(2);
    expect(stats.runs).toBe(2);
    // At rest nothing more is counted: no timer is left.
    expect(time.pending()).toEqual([]);
  });

  it('while the tile works, are counted every few seconds — never two counts at once', async () => {
    const folder = repo();
    const time = manualTime();
    const { count, stats } = countingWithGit();
    const changes = new TileChanges({ target: changesTarget({ cwd: folder, remote: false }), count, now: time.now, setTimer: time.setTimer, changed: () => {}, problem: () => {} });
    cleanups.push(() => changes.dispose());
    // A verdict change while the first count runs waits for it.
    changes.verdict('working');
    changes.verdict('working');
    await untilTrue('the first count', () => changes.summary !== undefined && stats.inFlight === 0);
    expect(stats.most).toBe(1);
    // The change asked during the first count is counted after the gap.
    expect(time.pending()).toEqual([CHANGES_GAP_MS]);
    time.advance(CHANGES_GAP_MS);
    await untilTrue('the second count', () => stats.runs === 2 && stats.inFlight === 0);
    await settled();
    expect(time.pending()).toEqual([CHANGES_GAP_MS + CHANGES_EVERY_MS]);
    writeFileSync(join(folder, 'app.ts'), 'changed\n');
    time.advance(CHANGES_EVERY_MS);
    await untilTrue('the periodic count', () => changes.summary?.files === 1);
    expect(stats.runs).toBe(3);
    expect(stats.most).toBe(1);
    changes.verdict('done');
    await untilTrue('the count after the turn', () => stats.runs === 4 || time.pending().length > 0);
  });

  it('of a folder that is no repository are asked once, then never again', async () => {
    const made = tempRepository();
    cleanups.push(made.remove);
    const plain = join(made.root, 'plain');
    mkdirSync(plain);
    const time = manualTime();
    const { count, stats } = countingWithGit();
    const changes = new TileChanges({ target: changesTarget({ cwd: plain, remote: false }), count, now: time.now, setTimer: time.setTimer, changed: () => {}, problem: () => {} });
    cleanups.push(() => changes.dispose());
    await untilTrue('the one count', () => stats.runs === 1 && stats.inFlight === 0);
    await settled();
    changes.verdict('working');
    time.advance(CHANGES_EVERY_MS * 3);
    await settled();
    expect(stats.runs).toBe(1);
    expect(changes.summary).toBeUndefined();
    expect(time.pending()).toEqual([]);
  });

  it("of a worktree tile are its branch's against the commit it branched from: its own commits count", async () => {
    const folder = repo();
    const made = tempRepository();
    cleanups.push(made.remove);
    const worktree = await createWorktree({ cwd: folder, branch: 'feat-login', stateDir: join(made.root, 'state'), env: GIT_ENV });
    writeFileSync(join(worktree.path, 'login.ts'), 'a\nb\nc\n');
    gitIn(worktree.path, 'add', '.');
    gitIn(worktree.path, 'commit', '-q', '-m', 'login');
    writeFileSync(join(worktree.path, 'app.ts'), 'export const a = 1;\n');
    const time = manualTime();
    const changes = new TileChanges({ target: changesTarget({ cwd: folder, worktree, remote: false }), count: countingWithGit().count, now: time.now, setTimer: time.setTimer, changed: () => {}, problem: () => {} });
    cleanups.push(() => changes.dispose());
    await untilTrue('the count', () => changes.summary !== undefined);
    expect(changes.summary).toEqual({ branch: 'feat-login', added: 3, removed: 1, files: 2 });
    // The main checkout is untouched.
    expect(gitIn(folder, 'status', '--porcelain')).toBe('');
  });

  it('of a remote tile are never counted', () => {
    expect(changesTarget({ cwd: '/x', remote: true })).toBeNull();
  });

  it('a failing count is said once, not at every try', async () => {
    const time = manualTime();
    const problems: string[] = [];
    let runs = 0;
    const changes = new TileChanges({
      target: { cwd: '/gone', base: 'HEAD', branch: 'x' },
      count: async () => {
        runs++;
        throw new Error('git diff failed');
      },
      now: time.now,
      setTimer: time.setTimer,
      changed: () => {},
      problem: (text) => problems.push(text),
    });
    cleanups.push(() => changes.dispose());
    changes.verdict('working');
    for (let i = 0; i < 3; i++) {
      await untilTrue(`try ${i + 1}`, () => runs === i + 1 && time.pending().length > 0);
      time.advance(CHANGES_EVERY_MS);
    }
    expect(problems).toEqual(['its changes could not be counted: git diff failed']);
  });
});

describe('the counting queue a set shares', () => {
  it('runs no count before the first frame: one asked earlier starts once it is painted', async () => {
    const folder = repo();
    let painted = (): void => undefined;
    const count = countingQueue(GIT_ENV, 2, Date.now, new Promise<void>((resolve) => (painted = resolve)));
    const early = count({ cwd: folder, base: 'HEAD', branch: null });
    let settled = false;
    void early.then(() => (settled = true));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(settled).toBe(false);
    // Written before the frame and after the ask: a count that ran at once would not show it.
    writeFileSync(join(folder, 'late.ts'), 'x\n');
    painted();
    expect(await early).toEqual({ branch: 'main', added: 1, removed: 0, files: 1 });
  });

  it('tiles of one folder share a count still waiting; one asked after a count started gets its own, which sees the change', async () => {
    const folder = repo();
    const other = repo();
    // One count at a time: the other folder's holds the place while this folder's wait.
    let now = 0;
    const count = countingQueue(GIT_ENV, 1, () => now);
    const target = { cwd: folder, base: 'HEAD', branch: null };
    const first = count({ cwd: other, base: 'HEAD', branch: null });
    const a = count(target);
    const b = count(target);
    // Both wait behind the other folder's: one count for the two.
    expect(b).toBe(a);
    expect(await a).toEqual({ branch: 'main', added: 0, removed: 0, files: 0 });
    await first;
    // The agent writes, then its done asks: a count that started before the write is not shared
    // (before, a count finished within 2 s was, and the header stayed at "no changes").
    const before = count(target);
    writeFileSync(join(folder, 'new.ts'), 'x\n');
    const after = count(target);
    expect(after).not.toBe(before);
    expect(await after).toEqual({ branch: 'main', added: 1, removed: 0, files: 1 });
    await before;
    // A tile refreshing while it works takes a count of the last two seconds, finished or not…
    now = 1500;
    expect(count(target, now - 2000)).toBe(after);
    // …and not an older one.
    now = 2500;
    const again = count(target, now - 2000);
    expect(again).not.toBe(after);
    expect(await again).toEqual({ branch: 'main', added: 1, removed: 0, files: 1 });
  });
});

describe('a tile set counts its tiles\' changes', () => {
  it('not before the first frame: a tile started earlier is counted once it is painted', async () => {
    const folder = repo();
    writeFileSync(join(folder, 'made.txt'), 'x\n');
    let painted = (): void => undefined;
    const t = testSet({ cwd: folder, env: GIT_ENV, changesAfter: new Promise<void>((resolve) => (painted = resolve)) });
    cleanups.push(() => t.cleanup());
    const tile = await t.set.add(parseSpec('exec cat', GIT_ENV));
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(tile.info().changes).toBeUndefined();
    painted();
    await untilTrue('the count once painted', () => tile.info().changes?.files === 1);
  });

  it("a command tile's info carries its folder's changes once its turn ends, and ls would show them", async () => {
    const folder = repo();
    const t = testSet({ cwd: folder, env: GIT_ENV });
    cleanups.push(() => t.cleanup());
    const tile = await t.set.add(parseSpec(`printf 'x\\ny\\n' > made.txt; echo written`, GIT_ENV));
    await untilTrue('the file counted', () => tile.info().changes?.files === 1);
    expect(tile.info().changes).toEqual({ branch: 'main', added: 2, removed: 0, files: 1 });
  });
});

/** git on a PATH of its own that notes each run's subcommand (belltower runs `git -C DIR SUBCOMMAND …`), then runs the real git. */
function loggedGit(root: string): { env: Record<string, string>; runs: () => string[] } {
  const bin = join(root, 'logged-bin');
  mkdirSync(bin);
  const real = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8', env: GIT_ENV }).trim();
  const log = join(root, 'git-runs.log');
  writeFileSync(join(bin, 'git'), `#!/bin/sh\nprintf '%s\\n' "$3" >> '${log}'\nexec '${real}' "$@"\n`);
  chmodSync(join(bin, 'git'), 0o755);
  return {
    env: { ...GIT_ENV, PATH: `${bin}:${GIT_ENV.PATH ?? ''}` },
    runs: () => (existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter((line) => line !== '') : []),
  };
}

describe('a folder counted again', () => {
  it('asks git where its index and HEAD are only the first time: later counts run git twice, not three times, and read the branch from HEAD', async () => {
    const folder = repo();
    const made = tempRepository();
    cleanups.push(made.remove);
    const git = loggedGit(made.root);
    const first = await countChangesIn(folder, 'HEAD', null, { env: git.env });
    expect(first?.summary).toEqual({ branch: 'main', added: 0, removed: 0, files: 0 });
    expect(git.runs()).toEqual(['rev-parse', 'add', 'diff']);
    // The agent edits and switches branch: the known files still give git's own answer.
    writeFileSync(join(folder, 'app.ts'), 'changed\n');
    gitIn(folder, 'checkout', '-q', '-b', 'feat');
    const again = await countChangesIn(folder, 'HEAD', null, { env: git.env }, first!.repository);
    expect(again?.summary).toEqual(await countChanges(folder, 'HEAD', null, { env: GIT_ENV }));
    expect(again?.summary.branch).toBe('feat');
    expect(git.runs().slice(3)).toEqual(['add', 'diff']);
    gitIn(folder, 'checkout', '-q', '--detach');
    const detached = await countChangesIn(folder, 'HEAD', null, { env: git.env }, first!.repository);
    expect(detached?.summary.branch).toBeNull();
    expect(git.runs().slice(5)).toEqual(['add', 'diff']);
    // An index no longer where it was is asked of git again: without it every tracked file would
    // count as new.
    const moved = await countChangesIn(folder, 'HEAD', null, { env: git.env }, { ...first!.repository, index: join(made.root, 'gone', 'index') });
    expect(moved?.summary).toEqual(detached?.summary);
    expect(git.runs().slice(7)).toEqual(['rev-parse', 'add', 'diff']);
  });

  it('reads HEAD only as a small plain file naming a branch or a commit; anything else is asked of git', async () => {
    const made = tempRepository();
    cleanups.push(made.remove);
    const at = (name: string, text: string) => {
      const file = join(made.root, name);
      writeFileSync(file, text);
      return file;
    };
    expect(await branchInHead(at('branch', 'ref: refs/heads/feat-login\n'))).toBe('feat-login');
    expect(await branchInHead(at('sha1', `${'a'.repeat(40)}\n`))).toBeNull();
    expect(await branchInHead(at('sha256', `${'b'.repeat(64)}\n`))).toBeNull();
    expect(await branchInHead(at('remote', 'ref: refs/remotes/origin/main\n'))).toBeUndefined();
    expect(await branchInHead(at('garbage', 'hello\n'))).toBeUndefined();
    expect(await branchInHead(at('huge', `ref: refs/heads/${'x'.repeat(1 << 20)}\n`))).toBeUndefined();
    expect(await branchInHead(join(made.root, 'missing'))).toBeUndefined();
    symlinkSync(at('target', 'ref: refs/heads/main\n'), join(made.root, 'link'));
    expect(await branchInHead(join(made.root, 'link'))).toBeUndefined();
    // A FIFO nobody writes to: not waited on.
    execFileSync('mkfifo', [join(made.root, 'fifo')]);
    expect(await branchInHead(join(made.root, 'fifo'))).toBeUndefined();
  });

  it('through the queue: the second count of a folder runs git twice; one whose git folder moved is asked again once; one whose repository went is none', async () => {
    const folder = repo();
    const made = tempRepository();
    cleanups.push(made.remove);
    const git = loggedGit(made.root);
    const count = countingQueue(git.env, 2, Date.now);
    const target = { cwd: folder, base: 'HEAD', branch: null };
    expect(await count(target)).toEqual({ branch: 'main', added: 0, removed: 0, files: 0 });
    expect(await count(target)).toEqual({ branch: 'main', added: 0, removed: 0, files: 0 });
    expect(git.runs()).toEqual(['rev-parse', 'add', 'diff', 'add', 'diff']);
    // Its git folder moved (a `.git` file now points at it): the kept index is not there, git is
    // asked again, and what it says is kept for the next count.
    gitIn(folder, 'init', '-q', `--separate-git-dir=${join(made.root, 'moved.git')}`);
    expect(await count(target)).toEqual({ branch: 'main', added: 0, removed: 0, files: 0 });
    expect(await count(target)).toEqual({ branch: 'main', added: 0, removed: 0, files: 0 });
    expect(git.runs().slice(5)).toEqual(['rev-parse', 'add', 'diff', 'add', 'diff']);
    // Its HEAD gone with it: git is asked again, and says it is no repository.
    rmSync(join(folder, '.git'), { recursive: true, force: true });
    rmSync(join(made.root, 'moved.git'), { recursive: true, force: true });
    expect(await count(target)).toBeNull();
    expect(git.runs().slice(10)).toEqual(['rev-parse']);
  });
});

describe('a working tile refreshing its changes', () => {
  it('takes any count of its folder started since its own last one (another tile of the folder may have started it); a verdict change asks for one from now', async () => {
    const time = manualTime();
    const asked: number[] = [];
    const count: ChangesCounter = async (_target, since = Infinity) => {
      asked.push(since);
      return { branch: 'main', added: 0, removed: 0, files: 0 };
    };
    const changes = new TileChanges({ target: { cwd: '/x', base: 'HEAD', branch: null }, count, now: time.now, setTimer: time.setTimer, changed: () => {}, problem: () => {} });
    cleanups.push(() => changes.dispose());
    await untilTrue('the first count', () => asked.length === 1);
    expect(asked[0]).toBe(0);
    await settled();
    time.advance(CHANGES_GAP_MS);
    changes.verdict('working');
    await untilTrue('the count after the verdict', () => asked.length === 2);
    expect(asked[1]).toBe(CHANGES_GAP_MS);
    await settled();
    time.advance(CHANGES_EVERY_MS);
    await untilTrue('the refresh', () => asked.length === 3);
    // Its last count was asked at CHANGES_GAP_MS: one started since is as good as its own.
    expect(asked[2]).toBe(CHANGES_GAP_MS);
    expect(time.now() - SHARED_FOR_MS).toBe(CHANGES_GAP_MS);
  });
});
