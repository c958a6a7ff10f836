/**
 * Where a session server's door is: `<runtime>/attach/<session>.sock`, with `<session>.json` (who
 * serves it) beside it. Part of the attach contract, as the frames are: a client of any version
 * must find the server to be told whether it may attach.
 */
import { join } from 'node:path';

export function attachDir(runtimeDir: string): string {
  return join(runtimeDir, 'attach');
}

export function attachSocketPath(runtimeDir: string, session: string): string {
  return join(attachDir(runtimeDir), `${session}.sock`);
}

/** The server's keys socket, read by its keyboard thread (wire-protocol.ts, `keys`): the attach
 * socket's name and `.keys`, which no session's own files end with (`.sock`, `.json`). */
export function keysSocketPath(attachSocket: string): string {
  return `${attachSocket}.keys`;
}
