/**
 * Ending everything a tile started. node-pty starts each child with setsid, so the child leads its
 * own session and process group; an interactive shell then puts every job in a group of its own,
 * inside that same session. So belltower signals every process group of the session — SIGHUP (what
 * a closing terminal sends), then SIGTERM, then SIGKILL, each after a grace period — and waits
 * until no process of the session is left. A signal to the child alone left `sh -c` pipelines and
 * background jobs running for good, adopted by init.
 *
 * Where /proc cannot be read, the child's own process group is signalled instead (jobs of an
 * interactive shell in other groups are then only reached through the shell's own SIGHUP), and
 * only while the child runs: after that its number cannot be told from a stranger's.
 *
 * Processes that leave the session on purpose (setsid, a daemon's double fork) are not the tile's
 * any more: belltower does not signal them; the tile reports them (see markedOutside).
 */
import { listProcesses, sessionMembers } from '../platform/processes.js';
import type { ProcessEntry } from '../platform/processes.js';

/** How long each step waits for the processes to go. */
export interface EndTiming {
  /** After SIGHUP, before SIGTERM. */
  hupGraceMs: number;
  /** After SIGTERM, before SIGKILL. */
  termGraceMs: number;
  /** After SIGKILL, before giving up on processes that cannot die (stuck in the kernel). */
  killWaitMs: number;
  /** After the child exits by itself, how long the rest of its session may take to follow (the
   * kernel hangs up the terminal of an exiting session leader) before they count as still running. */
  exitSettleMs: number;
}

export const DEFAULT_END_TIMING: Readonly<EndTiming> = Object.freeze({ hupGraceMs: 1_000, termGraceMs: 2_000, killWaitMs: 2_000, exitSettleMs: 250 });

const POLL_MS = 20;

export type EndSignal = 'SIGHUP' | 'SIGTERM' | 'SIGKILL';

export interface EndReport {
  /** The signals that were sent, in order (none when nothing was running). */
  sent: EndSignal[];
  /** Processes still there after SIGKILL and its wait (pids). */
  survivors: number[];
}

export interface EndOptions {
  timing?: EndTiming;
  /** The child (the session's leader) has exited and been reaped: its number may since have been
   * given to an unrelated process. */
  leaderGone?: boolean;
  /** The system's processes (tests and other platforms pass their own); null: cannot list. */
  list?: () => readonly ProcessEntry[] | null;
  kill?: (pid: number, signal: NodeJS.Signals | 0) => void;
  log?: (message: string) => void;
}

/** End every process of the session `sid` (the tile child's pid). Resolves once none is left. */
export async function endSession(sid: number, options: EndOptions = {}): Promise<EndReport> {
  const timing = options.timing ?? DEFAULT_END_TIMING;
  const list = options.list ?? (() => listProcesses());
  const kill = options.kill ?? ((pid: number, signal: NodeJS.Signals | 0) => process.kill(pid, signal));
  const sent: EndSignal[] = [];

  const live = (): ProcessEntry[] | null => {
    const all = list();
    return all === null ? null : sessionMembers(all, sid);
  };
  const groupAlive = (): boolean => {
    try {
      kill(-sid, 0);
      return true;
    } catch (error) {
      // EPERM: there is a process, one we may not signal (a setuid program).
      return (error as NodeJS.ErrnoException).code !== 'ESRCH';
    }
  };
  const remaining = (): number => {
    const members = live();
    if (members !== null) return members.length;
    return groupAlive() ? 1 : 0;
  };

  // Once the leader is gone its pid can be given to a new process only after every process of its
  // session has ended (the kernel keeps a session's id in use while it has members). A live
  // process holding that number is therefore someone else's session: nothing here is ours.
  if (options.leaderGone) {
    const all = list();
    if (all === null || all.some((p) => p.pid === sid && p.state !== 'Z')) {
      options.log?.(`session ${sid}: ${all === null ? 'cannot be listed' : 'its id now belongs to another process'} after its leader exited; nothing to end`);
      return { sent, survivors: [] };
    }
  }

  const steps: [EndSignal, number][] = [
    ['SIGHUP', timing.hupGraceMs],
    ['SIGTERM', timing.termGraceMs],
    ['SIGKILL', timing.killWaitMs],
  ];
  for (const [signal, graceMs] of steps) {
    const members = live();
    const groups = members === null ? [sid] : [...new Set(members.map((p) => p.pgid))];
    if (groups.length === 0 || (members === null && !groupAlive())) break;
    sent.push(signal);
    options.log?.(`ending session ${sid}: ${signal} to process group${groups.length === 1 ? '' : 's'} ${groups.join(', ')}`);
    for (const pgid of groups) {
      tryKill(kill, -pgid, signal);
      // A stopped job (Ctrl-Z) handles no signal but SIGKILL until it runs again: the kernel
      // sends SIGCONT after SIGHUP for the same reason.
      if (signal !== 'SIGKILL') tryKill(kill, -pgid, 'SIGCONT');
    }
    if (await waitUntil(() => remaining() === 0, graceMs)) return { sent, survivors: [] };
  }
  const survivors = live()?.map((p) => p.pid) ?? (groupAlive() ? [sid] : []);
  return { sent, survivors };
}

/** Signal, ignoring a target that is already gone (or one we may not signal). */
function tryKill(kill: NonNullable<EndOptions['kill']>, pid: number, signal: NodeJS.Signals): void {
  try {
    kill(pid, signal);
  } catch {
    // ESRCH: gone already; EPERM: not ours to end (it stays a survivor, and is reported)
  }
}

/** Poll `done` until it holds (true) or `timeoutMs` passes (false). */
export async function waitUntil(done: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (done()) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
