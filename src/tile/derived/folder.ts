/**
 * Where the tile's program runs, as it says so itself: the folder its shell last reported
 * (OSC 7), and for a remote tile the `cwd` of its hooks' payloads (a folder on the other
 * machine). A fold over the tile's evidence. Pure.
 */
import type { Evidence } from '../../record/format.js';
import { FOLDER_OSC_CODE, parseFolder } from '../../sources/shell.js';

export interface FolderState {
  /** The folder the shell last reported (OSC 7), if it did. */
  folder: string | null;
  /** Where a remote agent runs, as its hooks report it. */
  remoteCwd: string | null;
}

export const NO_FOLDER: FolderState = { folder: null, remoteCwd: null };

/** `remote`: the tile runs over ssh (only then is a payload's `cwd` news: a local tile's is its own). */
export function foldFolder(state: FolderState, evidence: Evidence, remote: boolean): FolderState {
  if (evidence.type === 'osc' && evidence.code === FOLDER_OSC_CODE) {
    const folder = parseFolder(evidence.payload);
    return folder === null || folder === state.folder ? state : { ...state, folder };
  }
  if (remote && (evidence.type === 'hook' || evidence.type === 'notify')) {
    const cwd = evidence.payload.cwd;
    return typeof cwd === 'string' && cwd.startsWith('/') ? { ...state, remoteCwd: cwd } : state;
  }
  return state;
}

/** Where a remote tile runs on its host, when the remote side has said so (hooks, then OSC 7). */
export function remoteFolder(state: FolderState): string | null {
  return state.remoteCwd ?? state.folder;
}
