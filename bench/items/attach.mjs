/**
 * 8. Detach and attach: belltower's session server (`--server`) and its thin client, against tmux's
 * server and client in the same run.
 *   attach   `belltower attach` to a session of N tiles of `cat` → its first painted frame (the
 *            whole grid, in one synchronized update); tmux: `tmux attach` to N panes → its first
 *            byte. The client's RSS once attached, and the tmux client's.
 *   keys     keystroke → the program in the focused tile, through the attach client, with 9 tiles
 *            streaming 50 KB/s; tmux: the same panes through a tmux client.
 *   idle     a server with 16 idle tiles and no client: its CPU, wake-ups and bytes written (any
 *            file: /proc/PID/io wchar) over a window; tmux's server, detached, the same.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pty from 'node-pty';
import { userTerminalEnv } from '../lib/env.mjs';
import { BIN, startGrid } from '../lib/grid.mjs';
import { keyProbe } from '../lib/keys.mjs';
import { cpuSeconds, rssBytes, wakeups } from '../lib/proc.mjs';
import { median, percentile, sleep, until } from '../lib/stats.mjs';
import { startTmuxGrid } from '../lib/tmux.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const STREAM = path.join(here, '..', 'programs', 'redraw-stream.mjs');
const IDLE_TILE = `printf '\\033]7501;state=idle\\007'; exec cat`;
const TERMINAL = { cols: 240, rows: 65 };
const SYNC_BEGIN = '\x1b[?2026h';

/** Bytes `pid` has written to any file, socket or pty so far. */
function written(pid) {
  return Number(/wchar:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/io`, 'utf8'))?.[1] ?? 0);
}

/**
 * A session server started the way a user starts one (`belltower --server`, whose first client is
 * the benchmark's pty), then detached from with `d`: the server runs on alone.
 */
async function detachedServer(specs, env = {}) {
  const grid = startGrid({ specs, cols: TERMINAL.cols, rows: TERMINAL.rows, args: ['--server'], env });
  const session = `bench-${process.pid}-${path.basename(grid.dir)}`;
  const info = path.join(grid.dir, 'run', 'attach', `${session}.json`);
  await grid.firstFrame(60_000, 1);
  await until(() => existsSync(info), 'the session server to say who it is', 30_000);
  const pid = JSON.parse(readFileSync(info, 'utf8')).pid;
  const clientEnv = userTerminalEnv({ ...process.env, BELLTOWER_STATE_DIR: grid.dir, TERM: 'xterm-256color', COLORTERM: 'truecolor', NODE_ENV: 'production' });
  return {
    grid,
    session,
    pid,
    async detach() {
      grid.write('d');
      await until(() => grid.exited, 'the first client to detach', 30_000);
    },
    /** `belltower attach` in a fresh pty; resolves at its first painted frame. */
    async attach() {
      const t0 = performance.now();
      const client = pty.spawn(process.execPath, [BIN, 'attach', session], { cols: TERMINAL.cols, rows: TERMINAL.rows, name: 'xterm-256color', env: clientEnv });
      let firstFrameAt = null;
      let exited = false;
      let head = '';
      client.onData((data) => {
        if (head.length < 2048) head += data;
        if (firstFrameAt === null && data.includes(SYNC_BEGIN)) firstFrameAt = performance.now();
      });
      client.onExit(() => (exited = true));
      await until(() => {
        if (exited && firstFrameAt === null) throw new Error(`bench: belltower attach exited before its first frame, saying ${JSON.stringify(head.slice(0, 300))}`);
        return firstFrameAt !== null;
      }, 'the attach client to paint', 30_000, 1);
      return {
        ms: firstFrameAt - t0,
        pid: client.pid,
        write: (data) => client.write(data),
        async detach() {
          client.write('d');
          await until(() => exited, 'the attach client to detach', 30_000).catch(() => client.kill('SIGKILL'));
        },
      };
    },
    async stop() {
      try {
        process.kill(pid, 'SIGTERM');
      } catch {}
      await until(() => !existsSync(`/proc/${pid}`), 'the session server to end', 15_000).catch(() => {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {}
      });
      await grid.stop();
    },
  };
}

async function tmuxAttach(sock) {
  const t0 = performance.now();
  const client = pty.spawn('tmux', ['-S', sock, 'attach', '-t', 'b'], { cols: TERMINAL.cols, rows: TERMINAL.rows, name: 'xterm-256color', env: userTerminalEnv({ ...process.env, TERM: 'xterm-256color' }) });
  let at = null;
  client.onData(() => (at ??= performance.now()));
  await until(() => at !== null, 'the tmux client to draw', 30_000, 1);
  await sleep(200);
  const rss = rssBytes(client.pid);
  client.kill();
  return { ms: at - t0, rss };
}

export async function attachFirstFrame({ tiles = 20, runs = 5 } = {}) {
  const specs = Array.from({ length: tiles }, () => 'cat');
  const server = await detachedServer(specs);
  const tmux = await startTmuxGrid({ commands: specs, cols: TERMINAL.cols, rows: TERMINAL.rows, attach: false });
  const times = { belltower: [], tmux: [] };
  const rss = { belltower: [], tmux: [] };
  try {
    await server.detach();
    for (let i = 0; i < runs; i++) {
      const client = await server.attach();
      times.belltower.push(client.ms);
      await sleep(200);
      rss.belltower.push(rssBytes(client.pid));
      await client.detach();
      const t = await tmuxAttach(tmux.server.sock);
      times.tmux.push(t.ms);
      rss.tmux.push(t.rss);
    }
    return { tiles, runs, belltower: median(times.belltower), tmux: median(times.tmux), clientRssMB: median(rss.belltower) / 2 ** 20, tmuxClientRssMB: median(rss.tmux) / 2 ** 20, all: times };
  } finally {
    await server.stop();
    await tmux.stop();
  }
}

export async function attachKeys({ tiles = 9, rate = 50_000, seconds = 8, settle = 2, strict = false, env = {} } = {}) {
  const keys = await keyProbe();
  const specs = Array.from({ length: tiles }, () => `'${process.execPath}' '${STREAM}' ${rate}`);
  const server = await detachedServer(specs, { ...env, BENCH_KEYS_UDP: String(keys.port) });
  try {
    await server.detach();
    const client = await server.attach();
    client.write('\r'); // focus tile 1
    await sleep(settle * 1000);
    keys.start((k) => client.write(k));
    await sleep(seconds * 1000);
    const lost = keys.stop();
    if (strict && keys.latencies.length === 0) throw new Error('bench: attach keys: no typed key reached the program in the focused tile through the client');
    await client.detach();
    return { keyP50: percentile(keys.latencies, 50), keyP99: percentile(keys.latencies, 99), keys: keys.latencies.length, keysLost: lost };
  } finally {
    keys.close();
    await server.stop();
  }
}

export async function tmuxKeys({ tiles = 9, rate = 50_000, seconds = 8, settle = 2, strict = false } = {}) {
  const keys = await keyProbe();
  const commands = Array.from({ length: tiles }, () => `'${process.execPath}' '${STREAM}' ${rate}`);
  const grid = await startTmuxGrid({ commands, cols: TERMINAL.cols, rows: TERMINAL.rows, env: { BENCH_KEYS_UDP: String(keys.port) } });
  try {
    await sleep(settle * 1000);
    keys.start((k) => grid.write(k));
    await sleep(seconds * 1000);
    const lost = keys.stop();
    if (strict && keys.latencies.length === 0) throw new Error('bench: attach keys (tmux): no typed key reached the pane');
    return { keyP50: percentile(keys.latencies, 50), keyP99: percentile(keys.latencies, 99), keys: keys.latencies.length, keysLost: lost };
  } finally {
    keys.close();
    await grid.stop();
  }
}

export async function idleServer({ tiles = 16, settle = 5, seconds = 30 } = {}) {
  const specs = Array.from({ length: tiles }, () => IDLE_TILE);
  const server = await detachedServer(specs);
  const tmux = await startTmuxGrid({ commands: specs, cols: TERMINAL.cols, rows: TERMINAL.rows, attach: false });
  try {
    await server.detach();
    await sleep(settle * 1000);
    const read = () => ({
      belltower: { cpu: cpuSeconds(server.pid), wakeups: wakeups(server.pid), bytes: written(server.pid) },
      tmux: { cpu: cpuSeconds(tmux.pid), wakeups: wakeups(tmux.pid), bytes: written(tmux.pid) },
    });
    const before = read();
    const t0 = performance.now();
    const since = Date.now();
    await sleep(seconds * 1000);
    const after = read();
    // Where its bytes went, when it wrote any: the files in its folder changed in the window.
    const changed = filesChangedSince(server.grid.dir, since);
    const elapsed = (performance.now() - t0) / 1000;
    const rate = (who, key) => (after[who][key] - before[who][key]) / elapsed;
    const logs = readdirSync(path.join(server.grid.dir, 'log')).length;
    return {
      tiles,
      seconds: elapsed,
      logs,
      belltower: { cpu: rate('belltower', 'cpu'), wakeupsPerSecond: rate('belltower', 'wakeups'), bytes: after.belltower.bytes - before.belltower.bytes, changed },
      tmux: { cpu: rate('tmux', 'cpu'), wakeupsPerSecond: rate('tmux', 'wakeups'), bytes: after.tmux.bytes - before.tmux.bytes },
    };
  } finally {
    await server.stop();
    await tmux.stop();
  }
}

/** Files under `dir` (two levels down, at most 200 looked at) modified at `since` or later. */
function filesChangedSince(dir, since) {
  const changed = [];
  let looked = 0;
  const walk = (at, depth) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      if (++looked > 200) return;
      const full = path.join(at, entry.name);
      if (entry.isDirectory() && depth < 2) walk(full, depth + 1);
      else if (entry.isFile() && statSync(full).mtimeMs >= since) changed.push(path.relative(dir, full));
    }
  };
  walk(dir, 0);
  return changed;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log('first frame', JSON.stringify(await attachFirstFrame({ runs: 3 })));
  console.log('keys', JSON.stringify(await attachKeys({ seconds: 5 })), JSON.stringify(await tmuxKeys({ seconds: 5 })));
  console.log('idle', JSON.stringify(await idleServer({ seconds: 10 })));
}
