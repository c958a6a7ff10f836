/**
 * Where belltower keeps its files, per OS conventions (env-paths 4), with one override.
 *
 * - `state`: what should survive a restart (recordings, the workspace's last layout).
 *   Linux: $XDG_STATE_HOME/belltower (env-paths calls it `log`); macOS/Windows: the app-data folder.
 * - `log`: diagnostics written by the logger.
 * - `runtime`: what dies with the session — per-tile hook folders, the control socket.
 *   Linux: $XDG_RUNTIME_DIR/belltower when set (a per-user 0700 tmpfs), else the per-user temp folder.
 *
 * `BELLTOWER_STATE_DIR` puts all three under one folder (tests, portable installs, CI).
 */
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
  // Linux and other XDG systems.
  const runtimeHome = env.XDG_RUNTIME_DIR;
  return withSessions(api, {
    state: base.log, // env-paths' `log` is $XDG_STATE_HOME/belltower: the XDG state folder
    log: api.join(base.log, 'log'),
    runtime: runtimeHome ? api.join(runtimeHome, 'belltower') : base.temp,
  });
}

function withSessions(api: path.PlatformPath, dirs: Omit<BelltowerDirs, 'sessions'>): BelltowerDirs {
  return { ...dirs, sessions: api.join(dirs.runtime, 'sessions') };
}
