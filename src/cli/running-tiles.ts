/**
 * The tiles of every running belltower — headless runs and session servers alike: each has a
 * control socket in `<runtime>/control/` — each asked with `ls`, and the sessions that could not
 * be asked, with why. `belltower worktrees` needs all of them at once (to tell which worktrees a
 * tile is in), where the other control commands talk to one.
 *
 * The same checks as control-client.ts before connecting (the folder is the user's alone, the
 * socket is the user's own). The one request is made here, not with control-client's `request`,
 * because it must give up: a session that accepts and never answers would otherwise keep this
 * command from ever ending.
 */
import { readdirSync } from 'node:fs';
import { createConnection } from 'node:net';
import { join } from 'node:path';
import type { TileInfo } from '../control/protocol.js';
import { PROTOCOL_VERSION } from '../control/protocol.js';
import { controlDir } from '../control/socket-path.js';
import { checkPrivateDir, PrivateDirError } from '../platform/private-dir.js';
import { isAlive, socketProblem } from '../platform/private-socket.js';

export interface SessionTiles {
  session: string;
  tiles: TileInfo[];
}

export interface RunningTiles {
  sessions: SessionTiles[];
  /** Sessions (or, when the folder itself cannot be trusted or listed, `*`) that did not say what
   * their tiles are. */
  unanswered: { session: string; why: string }[];
}

/** How long one session may take to list its tiles. */
const ANSWER_MS = 5_000;
/** The most sockets asked: a folder of thousands is not a list of sessions. */
const MAX_SESSIONS = 256;
const MAX_REPLY_BYTES = 16 * 1024 * 1024;

export async function runningTiles(runtimeDir: string, answerMs = ANSWER_MS): Promise<RunningTiles> {
  const result: RunningTiles = { sessions: [], unanswered: [] };
  if (process.platform === 'win32') {
    result.unanswered.push({ session: '*', why: 'on Windows the running sessions cannot be listed' });
    return result;
  }
  const dir = controlDir(runtimeDir);
  let names: string[];
  try {
    if (!checkPrivateDir(dir)) return result; // no belltower has run: none runs
    names = readdirSync(dir).filter((name) => name.endsWith('.sock')).sort();
  } catch (error) {
    if (error instanceof PrivateDirError) result.unanswered.push({ session: '*', why: `not asking any session: ${error.message}` });
    else result.unanswered.push({ session: '*', why: `cannot list ${dir}: ${(error as Error).message}` });
    return result;
  }
  if (names.length > MAX_SESSIONS) {
    result.unanswered.push({ session: '*', why: `${names.length} sockets in ${dir}: only the first ${MAX_SESSIONS} were asked` });
    names = names.slice(0, MAX_SESSIONS);
  }
  await Promise.all(
    names.map(async (name) => {
      const session = name.slice(0, -'.sock'.length);
      const path = join(dir, name);
      const problem = socketProblem(path);
      if (problem) return void result.unanswered.push({ session, why: problem });
      if (!(await isAlive(path))) return; // left by a belltower that ended: nothing runs there
      const answer = await askTiles(path, answerMs);
      if (typeof answer === 'string') result.unanswered.push({ session, why: answer });
      else result.sessions.push({ session, tiles: answer });
    }),
  );
  result.sessions.sort((a, b) => a.session.localeCompare(b.session));
  result.unanswered.sort((a, b) => a.session.localeCompare(b.session));
  return result;
}

/** One `ls` over the socket at `path`: the tiles, or why there are none to show. */
function askTiles(path: string, answerMs: number): Promise<TileInfo[] | string> {
  return new Promise((resolve) => {
    const socket = createConnection(path);
    let buffer = '';
    let settled = false;
    const settle = (value: TileInfo[] | string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(value);
    };
    const timer = setTimeout(() => settle(`it did not answer within ${answerMs / 1000} s`), answerMs);
    socket.setEncoding('utf8');
    socket.once('connect', () => socket.write(`${JSON.stringify({ v: PROTOCOL_VERSION, id: 1, op: 'ls' })}\n`));
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      if (buffer.length > MAX_REPLY_BYTES) return settle('its answer was too long');
      const newline = buffer.indexOf('\n');
      if (newline >= 0) settle(readTiles(buffer.slice(0, newline)));
    });
    socket.once('error', (error) => settle(`cannot reach it: ${error.message}`));
    socket.once('close', () => settle('it closed the connection without answering'));
  });
}

function readTiles(line: string): TileInfo[] | string {
  let reply: unknown;
  try {
    reply = JSON.parse(line);
  } catch {
    return 'its answer was not JSON';
  }
  if (typeof reply !== 'object' || reply === null) return 'its answer was not a reply';
  const r = reply as { ok?: unknown; tiles?: unknown; error?: unknown };
  if (r.ok !== true) return `it said: ${typeof r.error === 'string' ? r.error : 'no'}`;
  if (!Array.isArray(r.tiles) || !r.tiles.every((t: unknown) => typeof t === 'object' && t !== null && typeof (t as { id?: unknown }).id === 'number')) return 'its answer held no list of tiles';
  return r.tiles as TileInfo[];
}
