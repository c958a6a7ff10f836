import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkSessionName, socketPath } from '../../src/control/socket-path.js';
import { belltowerDirs, socketPathLimit, socketsFit } from '../../src/platform/state-dir.js';

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

  it('Linux: XDG state folder, runtime under XDG_RUNTIME_DIR when set', () => {
    expect(belltowerDirs({ env: { XDG_RUNTIME_DIR: '/run/user/1000' }, platform: 'linux', base })).toEqual({
      state: '/S/belltower',
      log: '/S/belltower/log',
      runtime: '/run/user/1000/belltower',
      sessions: '/run/user/1000/belltower/sessions',
    });
  });

  it('Linux without XDG_RUNTIME_DIR: the state folder only when every socket fits under it, which a home folder never does', () => {
    // A short state folder (29 bytes of room) keeps the runtime in it, out of the shared /tmp.
    expect(belltowerDirs({ env: {}, platform: 'linux', base, uid: 1000, tmpdir: '/tmp' }).runtime).toBe('/S/belltower/run');
    // Every real home is too long: the shortest, /home/a, already is (docs/security.md says so).
    for (const home of ['/home/a', '/root', `/home/${'x'.repeat(40)}`]) {
      const real = { ...base, log: `${home}/.local/state/belltower` };
      expect(belltowerDirs({ env: {}, platform: 'linux', base: real, uid: 1000, tmpdir: '/tmp' }).runtime).toBe('/tmp/belltower-1000');
    }
  });

  it('a runtime folder that fits leaves room for the socket of the longest session name', () => {
    const longest = 'x'.repeat(64);
    expect(checkSessionName(longest)).toBeNull();
    expect(checkSessionName(`${longest}x`)).not.toBeNull();
    for (let length = 1; length < 120; length++) {
      const runtime = `/${'r'.repeat(length)}`;
      if (socketsFit(runtime, 'linux')) expect(Buffer.byteLength(socketPath(runtime, longest, 'linux'))).toBeLessThanOrEqual(socketPathLimit('linux'));
    }
    expect(socketsFit(`/${'r'.repeat(28)}`, 'linux')).toBe(true);
  });

  it('macOS and Windows: app data, logs and temp as env-paths gives them', () => {
    expect(belltowerDirs({ env: {}, platform: 'darwin', base })).toMatchObject({ state: '/D/belltower', log: '/S/belltower', runtime: '/T/u/belltower' });
    expect(belltowerDirs({ env: {}, platform: 'win32', base }).state).toBe('/D/belltower');
  });

  it('uses env-paths 4 for real when nothing is injected', () => {
    const dirs = belltowerDirs({ env: {} });
    expect(path.basename(dirs.state)).toBe('belltower');
    expect(dirs.sessions).toBe(path.join(dirs.runtime, 'sessions'));
    expect(dirs.runtime).toMatch(/belltower/);
  });
});
