/**
 * The client side of the control socket: find the running belltower (by --session, or the only
 * one), send one request, read its reply.
 *
 * What a client sends can be a secret typed into an agent, and what it reads decides a script's
 * next step (`wait --for done`). So before connecting it checks, as tmux does, that the socket's
 * folder and every folder above it are the user's own and that nobody else can write them, and
 * that the socket itself belongs to the user: another local user who created the folder first
 * could otherwise serve a fake belltower.
 */
import { existsSync, readdirSync, unlinkSync } from 'node:fs';
import { socketProblem } from '../platform/private-socket.js';
import { createConnection } from 'node:net';
import { join } from 'node:path';
import { checkPrivateDir, PrivateDirError } from '../platform/private-dir.js';
import { isAlive } from './control-server.js';
import { PROTOCOL_VERSION } from './protocol.js';
import type { ControlReply, ControlRequestBody } from './protocol.js';
import { controlDir, socketPath } from './socket-path.js';

export class ControlClientError extends Error {
  override name = 'ControlClientError';
}

/** The socket of the session to talk to. Sockets of dead processes are removed on the way. */
export async function findSession(runtimeDir: string, session?: string): Promise<string> {
  if (process.platform === 'win32') {
    if (session) return socketPath(runtimeDir, session); // a named pipe: nothing to list
    throw new ControlClientError('name the belltower to talk to with --session NAME');
  }
  const dir = controlDir(runtimeDir);
  const found = privateFolder(dir);
  if (session) {
    const path = socketPath(runtimeDir, session);
    if (found && existsSync(path)) {
      checkSocket(path);
      if (await isAlive(path)) return path;
    }
    throw new ControlClientError(`no running belltower session "${session}"`);
  }
  const names = found ? readdirSync(dir).filter((name) => name.endsWith('.sock')) : [];
  const live: string[] = [];
  for (const name of names) {
    const path = join(dir, name);
    checkSocket(path);
    if (await isAlive(path)) live.push(name.slice(0, -'.sock'.length));
    else {
      try {
        unlinkSync(path);
      } catch {
        // raced with another cleaner
      }
    }
  }
  if (live.length === 0) throw new ControlClientError('no running belltower found (start one with `belltower` or `belltower run --headless …`)');
  if (live.length > 1) throw new ControlClientError(`several belltower sessions are running (${live.join(', ')}): pick one with --session NAME`);
  return socketPath(runtimeDir, live[0] as string);
}

/** Whether the control folder exists; throws when it, or a folder above it, is not the user's alone. */
function privateFolder(dir: string): boolean {
  try {
    return checkPrivateDir(dir);
  } catch (error) {
    if (error instanceof PrivateDirError) throw new ControlClientError(`not connecting: ${error.message}`);
    throw error;
  }
}

/** A socket in the control folder must be a socket of the user's own. */
function checkSocket(path: string): void {
  const problem = socketProblem(path);
  if (problem) throw new ControlClientError(problem);
}

/** Send one request and wait for its reply (a `wait` may take as long as its own timeout). */
export function request(path: string, body: ControlRequestBody): Promise<ControlReply> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(path);
    let buffer = '';
    socket.setEncoding('utf8');
    socket.once('connect', () => socket.write(`${JSON.stringify({ v: PROTOCOL_VERSION, id: 1, ...body })}\n`));
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      const newline = buffer.indexOf('\n');
      if (newline < 0) return;
      socket.end();
      try {
        resolve(JSON.parse(buffer.slice(0, newline)) as ControlReply);
      } catch {
        reject(new ControlClientError('belltower sent a reply that is not JSON'));
      }
    });
    socket.once('error', (error) => reject(new ControlClientError(`cannot reach belltower at ${path}: ${error.message}`)));
    socket.once('close', () => reject(new ControlClientError('belltower closed the connection without replying')));
  });
}
