/**
 * What a tile's folder changed, kept current for its header (`feat-login +120 −8 · 4 files`): a
 * worktree's against the commit it branched from, any other local folder's against HEAD. git runs
 * in the background, one count of a tile at a time, when changes-refresh.ts says; a folder that is
 * no repository is asked once and then left alone. Owns the timer and the count in flight.
 */
import type { TileStateName } from '../verdict/state.js';
import { RunQueue } from '../platform/run-queue.js';
import { countChangesIn } from '../worktree/worktree-changes.js';
import type { ChangesSummary, RepositoryFiles } from '../worktree/worktree-changes.js';
import type { Worktree } from '../worktree/worktree-create.js';
import { CHANGES_EVERY_MS, nextRefresh } from './changes-refresh.js';
import type { RefreshState } from './changes-refresh.js';
import type { Logger } from '../platform/logger.js';

export type { ChangesSummary } from '../worktree/worktree-changes.js';

/** Where a tile's changes are counted: its folder, against what, on which branch (null: ask git). */
export interface ChangesTarget {
  cwd: string;
  base: string;
  branch: string | null;
}

/** Counts a target's changes (null: not a repository); shared by a set's tiles (it queues them).
 * A count that started at `since` or later (or still waits) may be shared; by default, only one
 * that still waits. */
export type ChangesCounter = (target: ChangesTarget, since?: number) => Promise<ChangesSummary | null>;

/** A tile's target: none on another machine, its worktree's, else its folder against HEAD. */
export function changesTarget(tile: { cwd: string; worktree?: Worktree | undefined; remote: boolean }): ChangesTarget | null {
  if (tile.remote) return null;
  if (tile.worktree) return { cwd: tile.worktree.path, base: tile.worktree.base, branch: tile.worktree.branch };
  return { cwd: tile.cwd, base: 'HEAD', branch: null };
}

/**
 * Git runs two counts at a time for all the tiles of a set, the others waiting their turn, and
 * none before `after` (the grid's first frame: git's processes would take the cores it starts on). Tiles of
 * one folder share a count that still waits (ten tiles in one checkout that ask together cost one
 * count, not ten), and one that started late enough for the asker: a tile whose verdict just
 * changed needs a count that starts after its agent's last write (its done), one that refreshes
 * while it works takes any count of its refresh period (SHARED_FOR_MS).
 */
export function countingQueue(env: Record<string, string | undefined>, limit = 2, now: () => number = Date.now, after?: Promise<unknown>): ChangesCounter {
  const queue = new RunQueue(limit, 256);
  // Once open, a count starts the moment it has a place (as it is asked, when one is free).
  let open = after === undefined;
  void after?.then(() => (open = true));
  const gitEnv = env as NodeJS.ProcessEnv;
  const latest = new Map<string, { result: Promise<ChangesSummary | null>; startedAt: number | null }>();
  // Where each folder's repository keeps its index and HEAD, from its first count: the next ones
  // need not ask git (one process fewer a count). Forgotten when a count fails.
  const repositories = new Map<string, RepositoryFiles>();
  return (target, since = Infinity) => {
    const key = JSON.stringify([target.cwd, target.base, target.branch]);
    const shared = latest.get(key);
    if (shared && (shared.startedAt === null || shared.startedAt >= since)) return shared.result;
    const entry = { result: Promise.resolve<ChangesSummary | null>(null), startedAt: null as number | null };
    entry.result = queue.run(async () => {
      if (!open) await after;
      entry.startedAt = now();
      const counted = await countChangesIn(target.cwd, target.base, target.branch, { env: gitEnv }, repositories.get(target.cwd));
      if (counted === null) repositories.delete(target.cwd);
      else {
        // Kept as the count found them (asked again when the index had gone).
        if (!repositories.has(target.cwd) && repositories.size >= 256) repositories.delete(repositories.keys().next().value!);
        repositories.set(target.cwd, counted.repository);
      }
      return counted?.summary ?? null;
    });
    // A failed or refused count is not shared once it has failed: the next asks again.
    entry.result.catch(() => {
      repositories.delete(target.cwd);
      if (latest.get(key) === entry) latest.delete(key);
    });
    if (latest.size >= 256 && !latest.has(key)) latest.delete(latest.keys().next().value!);
    latest.set(key, entry);
    return entry.result;
  };
}

/** A tile refreshing while it works takes a count of its folder this recent: any from its own
 * refresh period, so tiles working in one checkout, each on its own phase, cost one count a
 * period between them, not one each (a count is three git processes, and starting one blocks the
 * grid's thread for milliseconds). A verdict change still waits for a count of its own. */
export const SHARED_FOR_MS = CHANGES_EVERY_MS;

/** The changes of the tile `setup` starts (none counted for a finished one: it runs nothing). */
export function tileChanges(
  setup: { id: number; cwd: string; worktree?: Worktree | undefined; spec: { readonly remote?: unknown }; changes?: ChangesCounter | undefined; logger: Logger; now?: (() => number) | undefined },
  finished: boolean,
  changed: () => void,
): TileChanges {
  return new TileChanges({
    target: changesTarget({ cwd: setup.cwd, worktree: setup.worktree, remote: setup.spec.remote !== undefined }),
    count: finished ? undefined : setup.changes,
    now: setup.now ?? Date.now,
    changed,
    problem: (text) => setup.logger('warn', `tile ${setup.id}: ${text}`),
  });
}

export interface TileChangesOptions {
  target: ChangesTarget | null;
  count: ChangesCounter | undefined;
  now: () => number;
  /** The summary changed: the tile's info (its header) is new. */
  changed: () => void;
  problem: (text: string) => void;
  setTimer?: (run: () => void, ms: number) => () => void;
}

const realTimer = (run: () => void, ms: number): (() => void) => {
  const timer = setTimeout(run, ms);
  timer.unref();
  return () => clearTimeout(timer);
};

export class TileChanges {
  private refresh: RefreshState = { running: false, wanted: true, lastStart: null };
  private working = false;
  private cancelTimer: (() => void) | null = null;
  private current: ChangesSummary | undefined;
  /** No repository there, or belltower stopped: nothing is counted any more. */
  private off: boolean;
  /** The last count failed: a run of failures is said once. */
  private failing = false;
  private readonly setTimer: NonNullable<TileChangesOptions['setTimer']>;

  constructor(private readonly options: TileChangesOptions) {
    this.off = options.target === null || options.count === undefined;
    this.setTimer = options.setTimer ?? realTimer;
    this.step();
  }

  get summary(): ChangesSummary | undefined {
    return this.current;
  }

  /** The tile's verdict changed to `state`. */
  verdict(state: TileStateName): void {
    this.working = state === 'working';
    this.refresh = { ...this.refresh, wanted: true };
    this.step();
  }

  dispose(): void {
    this.off = true;
    this.cancelTimer?.();
    this.cancelTimer = null;
  }

  private step(): void {
    if (this.off) return;
    this.cancelTimer?.();
    this.cancelTimer = null;
    const now = this.options.now();
    const next = nextRefresh(this.refresh, this.working, now);
    if (next.run) {
      // A verdict change (or the start) wants a count from now on; a refresh while working takes a
      // recent one of the same folder (another tile's).
      const since = this.refresh.wanted ? now : now - SHARED_FOR_MS;
      this.refresh = { running: true, wanted: false, lastStart: now };
      void this.countOnce(since);
    } else if (next.at !== null) {
      this.cancelTimer = this.setTimer(() => this.step(), next.at - now);
    }
  }

  private async countOnce(since: number): Promise<void> {
    const { target, count } = this.options;
    try {
      const summary = await count!(target!, since);
      if (this.off) return;
      if (summary === null) {
        // Not a repository (or no git): the header shows nothing, and git is not asked again.
        this.off = true;
        if (this.current !== undefined) this.set(undefined);
        return;
      }
      this.failing = false;
      this.set(summary);
    } catch (error) {
      if (this.off) return;
      if (!this.failing) this.options.problem(`its changes could not be counted: ${(error as Error).message}`);
      this.failing = true;
      this.set(undefined);
    } finally {
      this.refresh = { ...this.refresh, running: false };
      this.step();
    }
  }

  private set(summary: ChangesSummary | undefined): void {
    const same = summary === this.current || (summary && this.current && summary.branch === this.current.branch && summary.added === this.current.added && summary.removed === this.current.removed && summary.files === this.current.files);
    this.current = summary;
    if (!same) this.options.changed();
  }
}
