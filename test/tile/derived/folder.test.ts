import { describe, expect, it } from 'vitest';
import { foldFolder, NO_FOLDER, remoteFolder } from '../../../src/tile/derived/folder.js';

describe('foldFolder', () => {
  it('keeps the folder the shell last reported (OSC 7), and a bad report changes nothing', () => {
    const state = foldFolder(NO_FOLDER, { type: 'osc', code: 7, payload: 'file://host/home/me/project' }, false);
    expect(state.folder).toBe('/home/me/project');
    expect(foldFolder(state, { type: 'osc', code: 7, payload: 'not a url' }, false)).toBe(state);
  });

  it("reads a remote tile's folder from its hooks' cwd, before the shell's", () => {
    let state = foldFolder(NO_FOLDER, { type: 'osc', code: 7, payload: 'file://devbox/srv' }, true);
    expect(remoteFolder(state)).toBe('/srv');
    state = foldFolder(state, { type: 'hook', event: 'SessionStart', payload: { cwd: '/srv/app' } }, true);
    expect(remoteFolder(state)).toBe('/srv/app');
    expect(foldFolder(state, { type: 'hook', event: 'Stop', payload: { cwd: 'relative' } }, true)).toBe(state);
  });

  it("ignores a local tile's hook cwd (it is the folder belltower started it in)", () => {
    expect(foldFolder(NO_FOLDER, { type: 'hook', event: 'SessionStart', payload: { cwd: '/elsewhere' } }, false)).toBe(NO_FOLDER);
  });
});
