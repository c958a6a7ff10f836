/**
 * Where belltower keeps its files, per OS conventions (env-paths 4), with one override.
 *
 * - `state`: what should survive a restart (recordings, the workspace's last layout).
 *   Linux: $XDG_STATE_HOME/belltower (env-paths calls it `log`); macOS/Windows: the app-data folder.
 * - `log`: diagnostics written by the logger.
 * - `runtime`: what dies with the session — per-tile hook folders, the control socket.
 *   Linux: $XDG_RUNTIME_DIR/belltower when set (a per-user 0700 tmpfs). Without it, `<state>/run`
 *   only when every control socket fits under it — at most 29 bytes on Linux, since a socket path
 *   has 107 and the longest session name takes 78 — which a folder in a home folder never is
 *   (`/home/a/.local/state/belltower/run` is 34): so in practice `<tmp>/belltower-<uid>`, in the
 *   shared /tmp, checked like every private folder (private-dir.ts). Another user who creates it
 *   first makes belltower refuse to start, naming it; they can read nothing.
 *
 * `BELLTOWER_STATE_DIR` puts all three under one folder (tests, portable installs, CI).
 */
import os from 'node:os';
import path from 'node:path';
import envPaths, { type Paths } from 'env-paths';
import type { Platform } from './paths.js';

export interface BelltowerDirs {
  state: string;
  log: string;
  runtime: string;
  /** Per-tile private folders (hook settings, relay): a child of `runtime`. */
  sessions: string;
}

export interface DirsInput {
  env?: NodeJS.ProcessEnv;
  platform?: Platform;
  /** env-paths' answer; injectable so each platform's branch is tested anywhere. */
  base?: Paths;
  uid?: number;
  tmpdir?: string;
}

/** The longest path a Unix socket may have (sun_path less its NUL): 107 bytes on Linux, 103 on
 * macOS and the BSDs. */
export function socketPathLimit(platform: Platform): number {
  return platform === 'linux' ? 107 : 103;
}

/** What a runtime folder must leave room for: `/control/<64-character session name>.sock`. */
export const RUNTIME_SOCKET_ROOM = '/control/'.length + 64 + '.sock'.length;

/** Whether the control sockets of every session name fit under `runtime`. */
export function socketsFit(runtime: string, platform: Platform): boolean {
  return Buffer.byteLength(runtime) + RUNTIME_SOCKET_ROOM <= socketPathLimit(platform);
}

export function belltowerDirs(input: DirsInput = {}): BelltowerDirs {
  const env = input.env ?? process.env;
  const platform = input.platform ?? process.platform;
  const api = platform === 'win32' ? path.win32 : path.posix;
  const override = env.BELLTOWER_STATE_DIR;
  if (override) {
    const root = api.resolve(override);
    return withSessions(api, { state: root, log: api.join(root, 'log'), runtime: api.join(root, 'run') });
  }
  const base = input.base ?? envPaths('belltower', { suffix: '' });
  if (platform === 'darwin' || platform === 'win32') {
    return withSessions(api, { state: base.data, log: base.log, runtime: base.temp });
  }
  // Linux and other XDG systems. env-paths' `log` is $XDG_STATE_HOME/belltower: the state folder.
  const state = base.log;
  const runtimeHome = env.XDG_RUNTIME_DIR;
  const inState = api.join(state, 'run');
  const uid = input.uid ?? process.getuid?.() ?? 0;
  const runtime = runtimeHome
    ? api.join(runtimeHome, 'belltower')
    : socketsFit(inState, platform)
      ? inState
      : api.join(input.tmpdir ?? os.tmpdir(), `belltower-${uid}`);
  return withSessions(api, { state, log: api.join(state, 'log'), runtime });
}

function withSessions(api: path.PlatformPath, dirs: Omit<BelltowerDirs, 'sessions'>): BelltowerDirs {
  return { ...dirs, sessions: api.join(dirs.runtime, 'sessions') };
}
