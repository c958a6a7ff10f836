/**
 * PtySession: owns one child process in a pseudo-terminal (node-pty).
 *
 * A command that cannot start is not an exception: it is an exit carrying an `error` a user can
 * act on ("command not found: foo"). node-pty reports such failures three ways — it throws
 * synchronously (forkpty), or the forked child prints a perror line and exits 1 (exec, chdir), or
 * that line is lost with the last bytes before the exit (upstream #72) — so the likely causes are
 * checked before spawning, and the perror line is only a second chance.
 */
import { closeSync } from 'node:fs';
import { constants } from 'node:os';
import { spawn as ptySpawn, type IPty } from 'node-pty';
import { CloseOnExecError, closeInheritedOnExec, closeOnExec, duplicateCloseOnExec } from '../platform/close-on-exec.js';
import { CHILD_TERM, childEnv } from './child-env.js';
import { helperFailure, launchProblem } from './launch-check.js';
import { subscribe, subscribeOnce, type Listener } from './listeners.js';
import { dropPendingInput, pendingInput, pendingWrites } from './pty-input-queue.js';

export interface PtySpawnOptions {
  cols: number;
  rows: number;
  /** Defaults to the current directory. */
  cwd?: string;
  /** Defaults to this process's environment. TMUX, TMUX_PANE, COLUMNS and LINES are removed and
   * TERM is set to xterm-256color either way. */
  env?: Readonly<Record<string, string | undefined>>;
}

/** How the child ended. `code` is null when a signal killed it or when it never started. */
export interface ExitInfo {
  code: number | null;
  /** The signal's name (`SIGTERM`), or null. */
  signal: string | null;
  /** Why the command never started, in words for the user. */
  error?: string;
}

/** The pty master's descriptor: node-pty's UnixTerminal has it as `fd` (not in its typings);
 * Windows' ConPTY has none. */
function masterFd(pty: IPty): number | undefined {
  const fd = (pty as IPty & { fd?: unknown }).fd;
  return typeof fd === 'number' ? fd : undefined;
}

function signalName(signal: number): string {
  const entry = Object.entries(constants.signals).find(([, n]) => n === signal);
  return entry ? entry[0] : `signal ${signal}`;
}

export class PtySession {
  private pty: IPty | undefined;
  private exitInfo: ExitInfo | undefined;
  private startFailure: string | undefined;
  private sawOutput = false;
  /** A duplicate of the master, made as the pty opens, closed with the exit or the kill. */
  private ownMaster: number | null = null;
  private readonly dataListeners = new Set<Listener<string>>();
  private readonly exitListeners = new Set<Listener<ExitInfo>>();

  private constructor(private readonly file: string) {}

  /** Start `file` with `args`. Never throws for a command that cannot start: see `onExit`. */
  static spawn(file: string, args: readonly string[], options: PtySpawnOptions): PtySession {
    const session = new PtySession(file);
    const cwd = options.cwd ?? process.cwd();
    const env = childEnv(options.env ?? process.env);
    const problem = launchProblem(file, cwd, env);
    if (problem) {
      session.finish({ code: null, signal: null, error: problem });
      return session;
    }
    try {
      // No descriptor of belltower's reaches the program (close-on-exec.ts): what it inherited
      // before this, and this pty's master before any other program can start.
      closeInheritedOnExec();
      const pty = ptySpawn(file, [...args], { name: CHILD_TERM, cols: options.cols, rows: options.rows, cwd, env });
      const master = masterFd(pty);
      if (master !== undefined) {
        closeOnExec(master);
        session.ownMaster = duplicateCloseOnExec(master);
      }
      session.attach(pty);
    } catch (error) {
      if (error instanceof CloseOnExecError) {
        session.finish({ code: null, signal: null, error: error.message });
        return session;
      }
      const reason = error instanceof Error ? error.message : String(error);
      // forkpty fails when the system has no pty or file descriptor left for one more terminal.
      const hint = /forkpty|openpty/.test(reason) ? ' (out of ptys or file descriptors? close some sessions)' : '';
      session.finish({ code: null, signal: null, error: `cannot start ${file}: ${reason}${hint}` });
    }
    return session;
  }

  /** The child's process id, while it has one. */
  get pid(): number | undefined {
    return this.pty?.pid;
  }

  /** Set once the child has exited (or failed to start). */
  get exit(): ExitInfo | undefined {
    return this.exitInfo;
  }

  /** Output as the pty delivers it (decoded UTF-8, split at arbitrary points). */
  onData(listener: Listener<string>): () => void {
    return subscribe(this.dataListeners, listener);
  }

  /** Called once when the child ends — also when it never started, and also for a listener
   * added after the fact (asynchronously), so a fast failure cannot be missed. */
  onExit(listener: Listener<ExitInfo>): () => void {
    return subscribeOnce(this.exitInfo, this.exitListeners, listener);
  }

  /** Bytes written for the child that it has not read yet (0 without a child; undefined where
   * the platform's pty cannot say). */
  get inputBacklog(): number | undefined {
    return this.pty && !this.exitInfo ? pendingInput(this.pty) : 0;
  }

  /** The pty master, as a descriptor of this session's own, while the child runs (undefined
   * where the platform has none). node-pty closes its own when the pty reads end, which may be
   * before the exit is known: a number read from it then may already be someone else's. */
  get master(): number | undefined {
    return this.pty && !this.exitInfo && this.ownMaster !== null ? this.ownMaster : undefined;
  }

  /** How many writes the child has not read yet, cheaply (undefined where the pty cannot say). */
  get pendingWrites(): number | undefined {
    return this.pty && !this.exitInfo ? pendingWrites(this.pty) : 0;
  }

  /** Keystrokes and terminal replies for the child. Dropped once it has exited. */
  write(data: string): void {
    if (this.pty && !this.exitInfo) this.pty.write(data);
  }

  /** The child gets SIGWINCH and reads the new size from the pty. */
  resize(cols: number, rows: number): void {
    if (this.pty && !this.exitInfo) this.pty.resize(cols, rows);
  }

  /** Stop reading output: the child blocks in write() once the kernel's pty buffer is full. */
  pause(): void {
    if (this.pty && !this.exitInfo) this.pty.pause();
  }

  resume(): void {
    if (this.pty && !this.exitInfo) this.pty.resume();
  }

  /** Forget input the child has not read: it is about to be ended, and node-pty would print EBADF
   * retrying it once the pty closes. */
  dropUnreadInput(): void {
    if (this.pty) dropPendingInput(this.pty);
  }

  /** SIGHUP by default: what a closing terminal sends. Input the child has not read is dropped
   * first: it is ending, and node-pty would print EBADF retrying it once the pty closes. */
  kill(signal: NodeJS.Signals = 'SIGHUP'): void {
    if (!this.pty || this.exitInfo) return;
    this.dropUnreadInput();
    this.closeOwnMaster();
    this.pty.kill(signal);
  }

  private closeOwnMaster(): void {
    const fd = this.ownMaster;
    this.ownMaster = null;
    if (fd === null) return;
    try {
      closeSync(fd);
    } catch {
      // already closed
    }
  }

  private attach(pty: IPty): void {
    this.pty = pty;
    pty.onData((data) => {
      if (!this.sawOutput) {
        this.sawOutput = true;
        // node-pty's forked child reports a failed exec on the pty, then exits 1: that is our
        // message to the user, not the program's output.
        this.startFailure = helperFailure(data, this.file);
        if (this.startFailure) return;
      }
      for (const listener of this.dataListeners) listener(data);
    });
    // node-pty fires this after the pty closes or, at most 200 ms after the child died, anyway:
    // it never waits for output that did not arrive.
    pty.onExit(({ exitCode, signal }) => {
      dropPendingInput(pty); // the pty is closed: nothing queued can reach the child now
      if (this.startFailure) this.finish({ code: null, signal: null, error: this.startFailure });
      else if (signal) this.finish({ code: null, signal: signalName(signal) });
      else this.finish({ code: exitCode, signal: null });
    });
  }

  private finish(info: ExitInfo): void {
    if (this.exitInfo) return;
    this.exitInfo = info;
    this.closeOwnMaster();
    const listeners = [...this.exitListeners];
    this.exitListeners.clear();
    // Asynchronous even when the failure is known at once, so the caller can subscribe first.
    queueMicrotask(() => {
      for (const listener of listeners) listener(info);
    });
  }
}
