/** `belltower ls`, `send`, `wait`: talk to a running belltower over its control socket. */
import { ControlClientError, findSession, request } from '../control/control-client.js';
import type { ControlReply, TileInfo, WaitTarget } from '../control/protocol.js';
import { WAIT_TARGETS } from '../control/protocol.js';
import { tileNameProblem } from '../control/tile-name.js';
import { resolve } from 'node:path';
import { printable } from '../platform/printable.js';
import { remoteWhy } from '../remote/remote-why.js';
import { belltowerDirs } from '../platform/state-dir.js';
import { readDuration } from './duration.js';
import type { Output } from './output.js';

export const TIMEOUT_EXIT = 124;

async function call(out: Output, session: string | undefined, body: Parameters<typeof request>[1]): Promise<ControlReply | number> {
  try {
    const path = await findSession(belltowerDirs().runtime, session);
    return await request(path, body);
  } catch (error) {
    if (error instanceof ControlClientError) {
      out.error(`belltower: ${printable(error.message)}`);
      return 2;
    }
    throw error;
  }
}

export async function lsCommand(flags: { json?: boolean; session?: string }, out: Output): Promise<number> {
  const reply = await call(out, flags.session, { op: 'ls' });
  if (typeof reply === 'number') return reply;
  if (!reply.ok) return fail(out, reply.error);
  if (!('tiles' in reply)) return fail(out, 'unexpected reply');
  if (flags.json) {
    out.line(JSON.stringify(reply.tiles));
    return 0;
  }
  for (const tile of reply.tiles) out.line(formatTile(tile));
  return 0;
}

export async function whyCommand(tile: string, flags: { json?: boolean; session?: string }, out: Output): Promise<number> {
  const reply = await call(out, flags.session, { op: 'why', tile });
  if (typeof reply === 'number') return reply;
  if (!reply.ok) return fail(out, reply.error);
  if (!('why' in reply)) return fail(out, 'unexpected reply');
  if (flags.json) {
    out.line(JSON.stringify({ tile: reply.tile, why: reply.why }));
    return 0;
  }
  out.line(formatTile(reply.tile));
  if (reply.tile.remote) out.line(`  ${printable(remoteWhy(reply.tile.remote))}`);
  if (reply.tile.notice) out.line(`  note: ${reply.tile.notice}`);
  for (const entry of reply.why) {
    out.line(`  ${`${(entry.t / 1000).toFixed(3)}s`.padStart(10)}  #${String(entry.seq).padEnd(4)} ${printable(entry.source).padEnd(10)} ${printable(entry.signal).padEnd(14)} ${printable(entry.note)}`);
  }
  return 0;
}

export async function sendCommand(tile: string, text: string, flags: { enter?: boolean; session?: string }, out: Output): Promise<number> {
  const reply = await call(out, flags.session, { op: 'send', tile, text, enter: flags.enter ?? false });
  if (typeof reply === 'number') return reply;
  return reply.ok ? 0 : fail(out, reply.error);
}

export async function waitCommand(tile: string, flags: { for?: string; timeout?: string; session?: string }, out: Output): Promise<number> {
  const target = (flags.for ?? 'done') as WaitTarget;
  if (!(WAIT_TARGETS as readonly string[]).includes(target)) return fail(out, `--for takes one of ${WAIT_TARGETS.join(', ')}`, 2);
  const timeout = readDuration(flags.timeout ?? '10m', '--timeout');
  if ('error' in timeout) return fail(out, timeout.error, 2);
  // The text goes along so that a timeout is told as the user wrote it ("timed out after 20s"; a
  // bare number is seconds).
  const given = (flags.timeout ?? '10m').trim();
  const timeoutText = /^\d+(\.\d+)?$/.test(given) ? `${given}s` : given;
  const reply = await call(out, flags.session, { op: 'wait', tile, for: target, timeoutMs: timeout.ms, ...(timeoutText.length <= 64 ? { timeoutText } : {}) });
  if (typeof reply === 'number') return reply;
  if (!reply.ok) return reply.timeout ? fail(out, reply.error, TIMEOUT_EXIT) : fail(out, reply.error);
  if ('reached' in reply) out.line(formatTile(reply.reached));
  return 0;
}

/** `belltower add SPEC [--name N] [--cwd DIR]`: a new tile in the running belltower. */
export async function addCommand(spec: string, flags: { name?: string; cwd?: string; session?: string }, out: Output): Promise<number> {
  const problem = flags.name === undefined ? null : tileNameProblem(flags.name);
  if (problem) return fail(out, problem, 2);
  // A relative folder means the caller's, not the running belltower's.
  const cwd = resolve(process.cwd(), flags.cwd ?? '.');
  return changed(out, await call(out, flags.session, { op: 'add', spec, cwd, ...(flags.name ? { name: flags.name } : {}) }));
}

export async function closeCommand(tile: string, flags: { session?: string }, out: Output): Promise<number> {
  return changed(out, await call(out, flags.session, { op: 'close', tile }));
}

export async function restartCommand(tile: string, flags: { session?: string }, out: Output): Promise<number> {
  return changed(out, await call(out, flags.session, { op: 'restart', tile }));
}

export async function renameCommand(tile: string, name: string, flags: { session?: string }, out: Output): Promise<number> {
  const problem = tileNameProblem(name);
  if (problem) return fail(out, problem, 2);
  return changed(out, await call(out, flags.session, { op: 'rename', tile, name }));
}

/** The reply of add, close, restart, rename: the tile's line, or the error. */
function changed(out: Output, reply: ControlReply | number): number {
  if (typeof reply === 'number') return reply;
  if (!reply.ok) return fail(out, reply.error);
  if (!('done' in reply)) return fail(out, 'unexpected reply');
  out.line(`${reply.done}: ${formatTile(reply.tile)}`);
  return 0;
}

/** Messages can carry a tile's name or reason: text from the agent, shown to people. */
function fail(out: Output, message: string, code = 1): number {
  out.error(`belltower: ${printable(message)}`);
  return code;
}

/** One tile for people: every field the agent could have written goes through printable(). */
function formatTile(tile: TileInfo): string {
  const state = printable(tile.kind ? `${tile.state}: ${tile.kind}` : tile.state);
  return `${String(tile.id).padStart(2)}  ${printable(tile.name).padEnd(12)} ${state.padEnd(20)} ${printable(tile.source).padEnd(10)} ${formatSince(tile.sinceMs).padStart(7)}  ${printable(tile.reason)}`;
}

function formatSince(ms: number): string {
  const s = Math.floor(ms / 1000);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}
