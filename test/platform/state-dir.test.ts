import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { belltowerDirs } from '../../src/platform/state-dir.js';

describe('belltowerDirs', () => {
  const base = { data: '/D/belltower', config: '/C/belltower', cache: '/K/belltower', log: '/S/belltower', temp: '/T/u/belltower' };

  it('BELLTOWER_STATE_DIR puts everything under one folder', () => {
    expect(belltowerDirs({ env: { BELLTOWER_STATE_DIR: '/x/bt' }, platform: 'linux', base })).toEqual({
      state: '/x/bt',
      log: '/x/bt/log',
      runtime: '/x/bt/run',
      sessions: '/x/bt/run/sessions',
    });
  });

  it('Linux: XDG state folder, runtime under XDG_RUNTIME_DIR when set, else the per-user temp', () => {
    expect(belltowerDirs({ env: { XDG_RUNTIME_DIR: '/run/user/1000' }, platform: 'linux', base })).toEqual({
      state: '/S/belltower',
      log: '/S/belltower/log',
      runtime: '/run/user/1000/belltower',
      sessions: '/run/user/1000/belltower/sessions',
    });
    expect(belltowerDirs({ env: {}, platform: 'linux', base }).runtime).toBe('/T/u/belltower');
  });

  it('macOS and Windows: app data, logs and temp as env-paths gives them', () => {
    expect(belltowerDirs({ env: {}, platform: 'darwin', base })).toMatchObject({ state: '/D/belltower', log: '/S/belltower', runtime: '/T/u/belltower' });
    expect(belltowerDirs({ env: {}, platform: 'win32', base }).state).toBe('/D/belltower');
  });

  it('uses env-paths 4 for real when nothing is injected', () => {
    const dirs = belltowerDirs({ env: {} });
    expect(path.basename(dirs.state)).toBe('belltower');
    expect(dirs.sessions.endsWith(path.join('belltower', 'sessions'))).toBe(true);
  });
});
