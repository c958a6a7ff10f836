/**
 * `--on-ring CMD` (`onRing` in the workspace file): with no client attached, a ring runs the
 * user's command so the news can reach them elsewhere (ntfy, a webhook, notify-send). The command
 * is a shell command line (`/bin/sh -c`, as git runs its hooks) with what rang in its
 * environment. Each run is bounded in time, at most a few run at once, and a bounded number wait;
 * beyond that a ring is dropped and logged. Failures go to the log, never to a terminal.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import type { Logger } from '../platform/logger.js';
import { printable } from '../platform/printable.js';
import type { RingState } from '../tile/workspace-view.js';

/** A command still running after this is ended (SIGTERM, then SIGKILL). */
export const RING_COMMAND_TIMEOUT_MS = 30_000;
/** Commands running at once, at most. */
export const RING_COMMANDS_AT_ONCE = 4;
/** Rings waiting for a free slot, at most; more are dropped (and logged). */
export const RING_COMMANDS_WAITING = 32;
/** The agent's words passed on, at most (in characters). */
const MAX_MESSAGE = 1000;
/** What is kept of a failing command's stderr for the log. */
const MAX_STDERR = 2048;

export interface RingEvent {
  session: string;
  tile: number;
  name: string;
  folder: string;
  state: RingState;
  /** The agent's own words about it (its last message, the question it asks), if any. */
  message?: string;
  /** claude, codex, gemini, shell, command. */
  agent?: string;
}

/** The variables a ring command sees, added to the server's environment. */
export function ringEnvironment(event: RingEvent): Record<string, string> {
  return {
    BELLTOWER_SESSION: event.session,
    BELLTOWER_TILE: String(event.tile),
    BELLTOWER_NAME: printable(event.name),
    BELLTOWER_FOLDER: event.folder,
    BELLTOWER_STATE: event.state,
    BELLTOWER_MESSAGE: printable(event.message ?? '').slice(0, MAX_MESSAGE),
    BELLTOWER_AGENT: event.agent ?? '',
  };
}

export interface RingCommandOptions {
  command: string;
  logger: Logger;
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
  atOnce?: number;
  waiting?: number;
}

export class RingCommand {
  private readonly running = new Set<ChildProcess>();
  private readonly queue: RingEvent[] = [];
  private closed = false;
  /** Counts, for the log and tests. */
  readonly stats = { started: 0, failed: 0, timedOut: 0, dropped: 0 };
  private readonly idleWaiters: (() => void)[] = [];

  constructor(private readonly options: RingCommandOptions) {}

  ring(event: RingEvent): void {
    if (this.closed) return;
    if (this.running.size < (this.options.atOnce ?? RING_COMMANDS_AT_ONCE)) return this.run(event);
    if (this.queue.length < (this.options.waiting ?? RING_COMMANDS_WAITING)) {
      this.queue.push(event);
      return;
    }
    this.stats.dropped++;
    this.options.logger('warn', `on-ring: tile ${event.tile} ${event.state} not passed on: ${this.running.size} commands run and ${this.queue.length} wait`);
  }

  /** Resolves once nothing runs or waits (for tests and an orderly end). */
  idle(): Promise<void> {
    if (this.running.size === 0 && this.queue.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** End every running command; nothing more runs. */
  close(): void {
    this.closed = true;
    this.queue.length = 0;
    for (const child of this.running) kill(child, 'SIGTERM');
  }

  private run(event: RingEvent): void {
    const { logger } = this.options;
    this.stats.started++;
    let child: ChildProcess;
    try {
      child = spawn('/bin/sh', ['-c', this.options.command], {
        env: { ...(this.options.env ?? process.env), ...ringEnvironment(event) },
        cwd: event.folder,
        stdio: ['ignore', 'ignore', 'pipe'],
        // Its own process group, so that a timeout ends what it started too.
        detached: true,
      });
    } catch (error) {
      this.stats.failed++;
      logger('warn', `on-ring: cannot run the command: ${(error as Error).message}`);
      return this.next();
    }
    this.running.add(child);
    let stderr = '';
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (text: string) => {
      if (stderr.length < MAX_STDERR) stderr = (stderr + text).slice(0, MAX_STDERR);
    });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      this.stats.timedOut++;
      kill(child, 'SIGTERM');
      setTimeout(() => kill(child, 'SIGKILL'), 2000).unref();
    }, this.options.timeoutMs ?? RING_COMMAND_TIMEOUT_MS);
    timer.unref();
    let settled = false;
    const settle = (code: number | null, signal: NodeJS.Signals | null, error?: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      this.running.delete(child);
      const what = `tile ${event.tile} ${event.state}`;
      if (error) {
        this.stats.failed++;
        logger('warn', `on-ring: ${what}: the command could not run: ${error.message}`);
      } else if (timedOut) {
        logger('warn', `on-ring: ${what}: the command ran over ${Math.round((this.options.timeoutMs ?? RING_COMMAND_TIMEOUT_MS) / 1000)} s and was ended`, { stderr: stderr.trim() });
      } else if (code !== 0) {
        this.stats.failed++;
        logger('warn', `on-ring: ${what}: the command failed (${code !== null ? `exit ${code}` : `signal ${signal}`})`, { stderr: stderr.trim() });
      } else {
        logger('info', `on-ring: ${what}: passed on`);
      }
      this.next();
    };
    child.once('error', (error) => settle(null, null, error));
    child.once('close', (code, signal) => settle(code, signal));
  }

  private next(): void {
    const event = this.queue.shift();
    if (event && !this.closed) return this.run(event);
    if (this.running.size === 0 && this.queue.length === 0) for (const resolve of this.idleWaiters.splice(0)) resolve();
  }
}

function kill(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}
