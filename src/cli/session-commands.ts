/**
 * Sessions that outlive the terminal: `belltower` (start this folder's session as a
 * detached server, or attach to it when it runs), `attach`, `sessions`, `kill-session`.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { isAlive } from '../platform/private-socket.js';
import { processRuns } from '../platform/processes.js';
import { lockHolder } from '../platform/pid-lock.js';
import { belltowerDirs } from '../platform/state-dir.js';
import { printable } from '../platform/printable.js';
import { connectTo, relay } from '../client/attach-client.js';
import { attachSocketPath } from '../wire/attach-socket-path.js';
import { readSessionInfo, removeSessionInfo, sessionNames } from '../server/session-info.js';
import { checkSessionName, sessionLockPath, socketPath } from '../control/socket-path.js';
import { request } from '../control/control-client.js';
import { stateFilePath } from '../restore/state-file.js';
import { askOnTerminal, chooseStart } from './restore-start.js';
import type { RestoreFlags } from './restore-start.js';
import { EXIT } from '../platform/exit-codes.js';
import type { Output } from './output.js';
import { attachOptions, attachToSession, doorProblem, ended, needsTerminal, sessionOf } from './attach-session.js';
import type { AttachFlags } from './attach-session.js';
export type { AttachFlags } from './attach-session.js';
import { readGridFlags } from './grid-options.js';
import type { ClientOptions } from '../wire/wire-protocol.js';

/** How long a starting server may take to open its door (its tiles start first). */
const SERVER_START_MS = 30_000;
const POLL_MS = 40;

/** A client's own grid choices, checked as the grid checks them; or the usage error. */
function clientChoices(flags: AttachFlags): ClientOptions | { error: string } {
  const checked = readGridFlags({ ...(flags.bell ? { bell: flags.bell } : {}), ...(flags.notify ? { notify: flags.notify } : {}), ...(flags.escapeKey ? { escapeKey: flags.escapeKey } : {}) });
  if ('error' in checked) return { error: checked.error };
  return { ...(flags.bell ? { bell: checked.bell } : {}), ...(flags.notify ? { notify: checked.notify } : {}), ...(flags.escapeKey ? { escapeKey: checked.escapeKey } : {}) };
}

/** Whether the session these flags name (or this folder's) has a server running. */
export async function serverRuns(flags: { session?: string }, cwd: string): Promise<boolean> {
  const session = sessionOf(flags, cwd);
  if (typeof session !== 'string' || process.platform === 'win32') return false;
  const path = attachSocketPath(belltowerDirs().runtime, session);
  return existsSync(path) && (await isAlive(path));
}

/**
 * `belltower [SPEC...]`: attach to this folder's session when its server runs (the SPECs
 * join it as new tiles); else ask
 * the restore question here, start the server detached (its own session, no terminal, its output
 * to the log), and attach to it. Two started at once end on one server: the loser's server finds
 * the session's lock taken and ends, and its launcher attaches to the winner.
 */
export async function launchOrAttach(specs: readonly string[], flags: RestoreFlags & AttachFlags, out: Output, argv: readonly string[], cwd = process.cwd()): Promise<number> {
  const session = sessionOf(flags, cwd);
  if (typeof session !== 'string') {
    out.error(`belltower: ${session.error}`);
    return EXIT.usage;
  }
  if (needsTerminal(out)) return EXIT.usage;
  const dirs = belltowerDirs();
  const path = attachSocketPath(dirs.runtime, session);
  const problem = doorProblem(dirs.runtime, path);
  if (problem) {
    out.error(`belltower: ${problem}`);
    return EXIT.usage;
  }
  const running = await connectTo(path);
  if (running) {
    // SPECs given with it join the running session as new tiles, and it says so.
    for (const spec of specs) out.error(`belltower: ${await addToSession(dirs.runtime, session, spec, cwd)}`);
    // This command line's own --bell, --notify, --escape-key are this client's (checked already).
    const choices = clientChoices(flags);
    return ended(await relay(running, attachOptions(path, session, out, 'error' in choices ? {} : choices)), out, session);
  }
  // The restore question is asked here, on the user's terminal; the server is told the answer.
  const choice = await chooseStart(stateFilePath(dirs.state, session), session, flags, askOnTerminal(process.stdin, process.stdout));
  if (choice.kind === 'refused') {
    out.error(`belltower: ${choice.error}`);
    return EXIT.usage;
  }
  if (choice.kind === 'cancelled') return EXIT.sigint;
  if (choice.kind === 'fresh' && choice.note) out.error(`belltower: ${choice.note}`);
  const size = `${process.stdout.columns || 80}x${process.stdout.rows || 24}`;
  const script = process.argv[1] ?? '';
  // Grid options go before the SPECs (the command line's positional options).
  const args = [...process.execArgv, script, '--as-server', size, choice.kind === 'restore' ? '--restore' : '--fresh', ...argv.filter((a) => a !== '--restore' && a !== '--fresh')];
  const child = spawn(process.execPath, args, { cwd, env: process.env, detached: true, stdio: ['ignore', 'ignore', 'pipe'] });
  let said = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (text: string) => {
    if (said.length < 64 * 1024) said += text;
  });
  let exited: number | null = null;
  child.once('exit', (code, signal) => (exited = code ?? (signal ? 128 : 1)));
  const controlPath = socketPath(dirs.runtime, session);
  const deadline = Date.now() + SERVER_START_MS;
  while (Date.now() < deadline) {
    const socket = await connectTo(path);
    if (socket) {
      child.stderr?.destroy();
      child.unref();
      return ended(await relay(socket, attachOptions(path, session, out)), out, session);
    }
    // A server that ended before opening its door said why — unless another belltower holds the
    // session (its lock, even before its socket is bound), which is then the one to attach to.
    if (exited !== null && lockHolder(sessionLockPath(controlPath)) === null && !(await isAlive(controlPath))) {
      await new Promise((resolve) => setTimeout(resolve, 20)); // the last of its stderr
      const words = said.trim();
      if (words) out.error(words);
      else out.error(`belltower: the session server ended before it started (status ${exited}); its log: ${dirs.log}/belltower.log`);
      return exited === 0 ? EXIT.failure : exited;
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  child.unref();
  out.error(`belltower: the session server did not open ${path} within ${SERVER_START_MS / 1000} s; its log: ${dirs.log}/belltower.log`);
  return EXIT.failure;
}

/** Add one SPEC to the running session (through its control socket); the line that says how it went. */
async function addToSession(runtimeDir: string, session: string, spec: string, cwd: string): Promise<string> {
  try {
    const reply = await request(socketPath(runtimeDir, session), { op: 'add', spec, cwd });
    if (reply.ok && 'done' in reply) return `session "${session}" is running: added tile ${reply.tile.id} ${printable(reply.tile.name)} ("${printable(spec)}")`;
    return `session "${session}" is running: "${printable(spec)}" not added: ${printable(reply.ok ? 'unexpected reply' : reply.error)}`;
  } catch (error) {
    return `session "${session}" is running: "${printable(spec)}" not added: ${printable((error as Error).message)}`;
  }
}


export async function attachCommand(name: string | undefined, flags: AttachFlags, out: Output, cwd = process.cwd()): Promise<number> {
  const choices = clientChoices(flags);
  if ('error' in choices) {
    out.error(`belltower: ${choices.error}`);
    return EXIT.usage;
  }
  return attachToSession(name, flags, choices, out, cwd);
}

/** `belltower detach [SESSION] [--all]`: the client the user is at (the one that typed or resized
 * last), or every client, is let go; nothing ends. */
export async function detachCommand(name: string | undefined, flags: { session?: string; all?: boolean }, out: Output, cwd = process.cwd()): Promise<number> {
  const session = name !== undefined ? (checkSessionName(name) ? { error: checkSessionName(name)! } : name) : sessionOf(flags, cwd);
  if (typeof session !== 'string') {
    out.error(`belltower: ${session.error}`);
    return EXIT.usage;
  }
  const dirs = belltowerDirs();
  if (!(await isAlive(attachSocketPath(dirs.runtime, session)))) {
    out.error(`belltower: no session "${session}" is running (belltower sessions lists those that are)`);
    return EXIT.usage;
  }
  let reply;
  try {
    reply = await request(socketPath(dirs.runtime, session), { op: 'detach', all: flags.all === true });
  } catch (error) {
    out.error(`belltower: ${printable((error as Error).message)}`);
    return EXIT.failure;
  }
  if (!reply.ok) {
    out.error(`belltower: ${printable(reply.error)}`);
    return EXIT.failure;
  }
  const count = 'detached' in reply ? reply.detached : 0;
  if (count === 0) {
    out.error(`belltower: no client is attached to session "${session}"`);
    return EXIT.failure;
  }
  out.line(`detached ${count} ${count === 1 ? 'client' : 'clients'} from session ${session}`);
  return EXIT.ok;
}

export async function sessionsCommand(flags: { json?: boolean }, out: Output, now = Date.now()): Promise<number> {
  const dirs = belltowerDirs();
  const rows: Record<string, unknown>[] = [];
  for (const session of sessionNames(dirs.runtime)) {
    const info = readSessionInfo(dirs.runtime, session);
    if (!info) continue;
    if (!(await isAlive(attachSocketPath(dirs.runtime, session)))) {
      removeSessionInfo(dirs.runtime, session); // its server is gone: `belltower` there offers restore
      continue;
    }
    let tiles: { state: string }[] = [];
    try {
      const reply = await request(socketPath(dirs.runtime, session), { op: 'ls' });
      if (reply.ok && 'tiles' in reply) tiles = reply.tiles;
    } catch {
      // the server is ending: listed without its tiles
    }
    rows.push({ session, cwd: info.cwd, pid: info.pid, since: info.since, version: info.version, clients: info.clients.length, tiles: tiles.map((t) => t.state) });
  }
  if (flags.json) {
    out.line(JSON.stringify(rows));
    return EXIT.ok;
  }
  if (rows.length === 0) {
    out.line('no session is running (belltower starts one)');
    return EXIT.ok;
  }
  for (const row of rows) {
    const states = row.tiles as string[];
    const counts = new Map<string, number>();
    for (const s of states) counts.set(s, (counts.get(s) ?? 0) + 1);
    const stateWords = [...counts].map(([s, n]) => `${n} ${s}`).join(', ');
    const clients = row.clients as number;
    const age = roughAge(Math.max(0, now - Date.parse(row.since as string)));
    out.line(`${printable(row.session as string)}  ${printable(row.cwd as string)}  ${states.length} ${states.length === 1 ? 'tile' : 'tiles'}${stateWords ? ` (${stateWords})` : ''}  ${clients === 0 ? 'detached' : `${clients} attached`}  for ${age}`);
  }
  return EXIT.ok;
}

export async function killSessionCommand(name: string | undefined, flags: { session?: string }, out: Output, cwd = process.cwd()): Promise<number> {
  const session = name ?? sessionOf(flags, cwd);
  if (typeof session !== 'string') {
    out.error(`belltower: ${session.error}`);
    return EXIT.usage;
  }
  const bad = checkSessionName(session);
  if (bad) {
    out.error(`belltower: ${bad}`);
    return EXIT.usage;
  }
  const dirs = belltowerDirs();
  const path = attachSocketPath(dirs.runtime, session);
  const info = readSessionInfo(dirs.runtime, session);
  if (!info || !(await isAlive(path))) {
    out.error(`belltower: no session "${session}" is running (belltower sessions lists those that are)`);
    return EXIT.usage;
  }
  try {
    process.kill(info.pid, 'SIGTERM');
  } catch (error) {
    out.error(`belltower: cannot end session "${session}" (pid ${info.pid}): ${(error as Error).message}`);
    return EXIT.failure;
  }
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    if (!(await isAlive(path)) && !processRuns(info.pid)) {
      out.line(`session ${session} ended`);
      return EXIT.ok;
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  out.error(`belltower: session "${session}" (pid ${info.pid}) did not end within 15 s`);
  return EXIT.failure;
}


/** 8s, 14m, 3h 5m, 2d 4h: how long a session has run, to the unit that matters. */
export function roughAge(ms: number): string {
  const s = Math.floor(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m`;
  const h = Math.floor(m / 60);
  if (h < 24) return `${h}h ${m % 60}m`;
  return `${Math.floor(h / 24)}d ${h % 24}h`;
}
