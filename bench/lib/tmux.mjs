/**
 * tmux 3.x as the baseline: a private server (its own socket, no config) with one pane per tile,
 * tiled, and a client attached through a pty that plays the user's terminal, as for belltower.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pty from 'node-pty';
import { atExit } from './cleanup.mjs';
import { userTerminalEnv } from './env.mjs';
import { sleep, until } from './stats.mjs';

/** Private servers still running, by socket: each one's undo for the exit (lib/cleanup.mjs). */
const live = new Map();

/** Ends the private server at `sock`, if it still runs. */
export function killServerSync(sock) {
  spawnSync('tmux', ['-S', sock, 'kill-server'], { stdio: 'ignore', timeout: 10_000 });
  live.get(sock)?.();
  live.delete(sock);
}

/** The private server at `sock` (in the folder `dir`) is killed and `dir` removed on exit, if still there. */
export function trackServer(sock, dir = path.dirname(sock)) {
  live.set(
    sock,
    atExit(() => {
      spawnSync('tmux', ['-S', sock, 'kill-server'], { stdio: 'ignore', timeout: 10_000 });
      rmSync(dir, { recursive: true, force: true });
    }),
  );
}

export function tmuxVersion() {
  const r = spawnSync('tmux', ['-V'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : null;
}

/** A private tmux server; `config` is its whole configuration file (none by default). */
export function tmuxServer(config = '') {
  const dir = mkdtempSync(path.join(tmpdir(), 'belltower-bench-tmux-'));
  const sock = path.join(dir, 's');
  const conf = path.join(dir, 'tmux.conf');
  writeFileSync(conf, config);
  const t = (...args) => execFileSync('tmux', ['-S', sock, '-f', conf, ...args], { encoding: 'utf8', env: userTerminalEnv(process.env), timeout: 60_000 });
  trackServer(sock);
  return {
    sock,
    t,
    pid: () => Number(t('display-message', '-p', '#{pid}').trim()),
    async kill() {
      killServerSync(sock);
      await sleep(100);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * `commands` (shell command lines, one per pane) in a tiled window of cols×rows, with a client
 * attached (and counted) unless `attach` is false.
 */
export async function startTmuxGrid({ commands, cols, rows, attach = true, env = {}, config = '' }) {
  const server = tmuxServer(`set -g status off\n${config}`);
  const { t } = server;
  t('new-session', '-d', '-s', 'b', '-x', String(cols), '-y', String(rows), ...envArgs(env), commands[0]);
  for (const command of commands.slice(1)) {
    t('split-window', '-t', 'b', ...envArgs(env), command);
    t('select-layout', '-t', 'b', 'tiled');
  }
  t('select-layout', '-t', 'b', 'tiled');
  // The first pane has the keyboard, as the first tile does in belltower.
  t('select-pane', '-t', 'b:0.0');
  const grid = { server, pid: server.pid(), bytes: 0, bells: [], firstFrameAt: null, client: null, exited: false };
  if (attach) {
    const client = pty.spawn('tmux', ['-S', server.sock, 'attach', '-t', 'b'], {
      cols,
      rows,
      name: 'xterm-256color',
      env: userTerminalEnv({ ...process.env, TERM: 'xterm-256color' }),
    });
    client.onData((d) => {
      grid.bytes += Buffer.byteLength(d);
      grid.firstFrameAt ??= performance.now();
    });
    client.onExit(() => (grid.exited = true));
    grid.client = client;
    await until(() => grid.bytes > 0, 'the tmux client to draw', 60_000);
  }
  grid.write = (data) => grid.client.write(data);
  grid.stop = async () => {
    await server.kill();
    try {
      grid.client?.kill();
    } catch {}
  };
  return grid;
}

function envArgs(env) {
  return Object.entries(env).flatMap(([k, v]) => ['-e', `${k}=${v}`]);
}
