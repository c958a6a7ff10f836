/**
 * The workspace state's file: `<state folder>/workspaces/<session>.json`, 0600 in a 0700 folder
 * that is ours, written and read as every file belltower keeps (`platform/atomic-file.ts`).
 */
import path from 'node:path';
import { readPrivateFile, writeFileAtomic, writeFileAtomicAsync } from '../platform/atomic-file.js';
export { setAside } from '../platform/atomic-file.js';
import type { PrivateFileRead } from '../platform/atomic-file.js';
import { MAX_STATE_BYTES } from './workspace-state.js';

export function stateFilePath(stateDir: string, session: string): string {
  return path.join(stateDir, 'workspaces', `${session}.json`);
}

/** Replace `file` with `text` atomically. Throws on a full disk or a folder not ours. */
export function writeStateFile(file: string, text: string): void {
  writeFileAtomic(file, text);
}

/** The same, off the event loop; `commit` as writeFileAtomicAsync takes it. */
export function writeStateFileAsync(file: string, text: string, commit?: () => boolean): Promise<boolean> {
  return writeFileAtomicAsync(file, text, commit);
}

export type StateFileRead = PrivateFileRead;

/** The file's text, if there is one that belltower may trust. Never throws. */
export function readStateFile(file: string): StateFileRead {
  return readPrivateFile(file, MAX_STATE_BYTES);
}
