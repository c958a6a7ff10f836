/**
 * A real terminal for end-to-end tests of the full-screen UI: a tmux server of its own (private
 * socket, no config), one window of a chosen size running a command, keys sent with send-keys,
 * the screen read with capture-pane, and every bell counted through tmux's alert-bell hook.
 * Everything is waited for by predicate, never by a fixed sleep.
 */
import { STATE_LOOK } from '../../src/ui/format.js';
import { execFileSync, spawnSync } from 'node:child_process';
import pty from 'node-pty';
import { chownSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Why tmux cannot be used here, or null when it can. */
export function tmuxMissing(): string | null {
  const probe = spawnSync('tmux', ['-V'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) return 'tmux is not installed (.ci/run installs it)';
  return null;
}

export interface TmuxOptions {
  cols: number;
  rows: number;
  /** The shell command the window runs. */
  command: string;
  /** Environment for that command (complete: the server starts with it). */
  env: Record<string, string | undefined>;
  cwd?: string;
  /** Run the server (and so the window's command) as this user, not as the test's own (root in
   * CI): for agents that must not run as root. Every tmux command then runs as that user too. */
  runAs?: { uid: number; gid: number } | null;
}

export class Tmux {
  readonly dir: string;
  private readonly socket: string;
  private readonly bellFile: string;
  private readonly user: { uid: number; gid: number } | Record<string, never>;
  private closed = false;

  constructor(options: TmuxOptions) {
    this.dir = mkdtempSync(join(tmpdir(), 'belltower-tmux-'));
    this.socket = join(this.dir, 'tmux.sock');
    this.bellFile = join(this.dir, 'bells');
    writeFileSync(this.bellFile, '');
    const script = join(this.dir, 'run.sh');
    writeFileSync(script, `${options.command}\n`, { mode: 0o700 });
    this.user = options.runAs ? { uid: options.runAs.uid, gid: options.runAs.gid } : {};
    if (options.runAs) for (const path of [this.dir, script, this.bellFile]) chownSync(path, options.runAs.uid, options.runAs.gid);
    const env = Object.fromEntries(Object.entries(options.env).filter((e): e is [string, string] => e[1] !== undefined));
    // Without SHELL, tmux runs the window through the user's login shell: for a system user that
    // is nologin, which ends the window, and with it the server, at once.
    if (options.runAs && env.SHELL === undefined) env.SHELL = '/bin/sh';
    execFileSync(
      'tmux',
      ['-S', this.socket, '-f', '/dev/null', 'new-session', '-d', '-s', 'main', '-x', String(options.cols), '-y', String(options.rows), `sh ${script}`],
      { env: { ...env, TMUX: '' }, cwd: options.cwd ?? process.cwd(), ...this.user },
    );
    // Count every bell the window rings; keep the window when its command ends so the screen after
    // exit can be read.
    this.tmux('set-option', '-g', 'remain-on-exit', 'on');
    this.tmux('set-window-option', '-g', 'monitor-bell', 'on');
    this.tmux('set-option', '-g', 'bell-action', 'any');
    this.tmux('set-hook', '-g', 'alert-bell', `run-shell "echo bell >> ${this.bellFile}"`);
  }

  /** The server's socket, for a client attached from elsewhere. */
  get socketPath(): string {
    return this.socket;
  }

  tmux(...args: string[]): string {
    return execFileSync('tmux', ['-S', this.socket, ...args], { encoding: 'utf8', ...this.user });
  }

  /** Keys as tmux names them (`Enter`, `C-\\`, `Escape`, `z`). */
  keys(...keys: string[]): void {
    this.tmux('send-keys', '-t', 'main', ...keys);
  }

  /** Text typed literally. */
  type(text: string): void {
    this.tmux('send-keys', '-t', 'main', '-l', text);
  }

  /** What the window shows, as text (with `escapes`, with its colours and attributes). */
  screen(escapes = false): string {
    return this.tmux('capture-pane', '-p', '-t', 'main', ...(escapes ? ['-e'] : []));
  }

  /** A tmux format about the window: `#{alternate_on}`, `#{cursor_flag}`, `#{pane_dead}`, … */
  show(format: string): string {
    return this.tmux('display-message', '-p', '-t', 'main', format).trim();
  }

  /**
   * A client attached through a real pty, as the user's terminal would be: what tmux passes
   * through to the terminal outside it (desktop notifications with `allow-passthrough on`) shows
   * up in its output.
   */
  attach(cols: number, rows: number): { output(): string; close(): void } {
    let output = '';
    const client = pty.spawn('tmux', ['-S', this.socket, 'attach', '-t', 'main'], { cols, rows, env: { ...process.env, TMUX: '', TERM: 'xterm-256color' } as Record<string, string> });
    client.onData((data) => (output += data));
    return {
      output: () => output,
      close: () => {
        try {
          client.kill();
        } catch {
          // already gone
        }
      },
    };
  }

  resize(cols: number, rows: number): void {
    this.tmux('resize-window', '-t', 'main', '-x', String(cols), '-y', String(rows));
  }

  /** Bells rung so far. */
  bells(): number {
    return readFileSync(this.bellFile, 'utf8').split('\n').filter((l) => l === 'bell').length;
  }

  /**
   * The screen once `predicate` holds. tmux may be captured in the middle of a frame (the headers
   * drawn, the status line not yet), so a screen that satisfies the predicate is read again until
   * two captures agree (a few tries at most): what a test then asserts besides the predicate is
   * read from a whole frame. A screen that keeps changing (a live tile) is returned as last seen
   * while the predicate still holds.
   */
  async waitFor(what: string, predicate: (screen: string) => boolean, timeoutMs = 15_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    let last = '';
    for (;;) {
      last = this.screen();
      if (predicate(last)) return this.settled(last, predicate);
      if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}; the screen:\n${last}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  private async settled(first: string, predicate: (screen: string) => boolean): Promise<string> {
    let seen = first;
    for (let tries = 0; tries < 4; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 40));
      const again = this.screen();
      if (!predicate(again)) return seen;
      if (again === seen) return again;
      seen = again;
    }
    return seen;
  }

  /** Resolves once `condition` holds (polled), e.g. a bell count. */
  async until(what: string, condition: () => boolean, timeoutMs = 15_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!condition()) {
      if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}; the screen:\n${this.screen()}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    try {
      this.tmux('kill-server');
    } catch {
      // already gone
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** The header line of tile `id` on a captured screen (`╭ 2 web ─── ✓ done · OSC 7501 · 3s ╮`). */
export function headerOf(screen: string, id: number, name: string): string | undefined {
  return screen.split('\n').find((line) => new RegExp(`[╭┏╔] ${id} ${name} `).test(line));
}

/** The tile's state as its header shows it, by its glyph (a blocked tile's words may be what it
 * asks: `◆ approve Bash: npm test`). */
export function stateOf(screen: string, id: number, name: string): string | undefined {
  const header = headerOf(screen, id, name);
  const segment = header?.split(new RegExp(`[╭┏╔] ${id} ${name} `))[1];
  const glyph = /([●◆✓○■✗?…]) \S+/.exec(segment ?? '')?.[1];
  return glyph === undefined ? undefined : stateOfGlyph(glyph);
}

/** The state a glyph draws (`◆` blocked), or undefined. */
export function stateOfGlyph(glyph: string): string | undefined {
  return Object.entries(STATE_LOOK).find(([, look]) => look.glyph === glyph)?.[0];
}
