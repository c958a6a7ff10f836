/** `belltower ls`, `send`, `wait`: talk to a running belltower over its control socket. */
import { ControlClientError, findSession, request } from '../control/control-client.js';
import type { AnswerRefusal, ControlReply, TileInfo, WaitTarget } from '../control/protocol.js';
import { ANSWER_CHOICE, ANSWERS, STATE_NAMES, WAIT_TARGETS } from '../control/protocol.js';
import { findTile } from '../control/control-target.js';
import { tileNameProblem } from '../control/tile-name.js';
import { resolve } from 'node:path';
import { printable } from '../platform/printable.js';
import { remoteWhy } from '../remote/remote-why.js';
import { whyNote } from '../verdict/why-log.js';
import { belltowerDirs } from '../platform/state-dir.js';
import { readDuration } from './duration.js';
import type { Output } from './output.js';
import { changesProblem, diffText } from '../worktree/worktree-changes.js';
import { changesLabel } from '../ui/header.js';

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
  for (const tile of reply.tiles) {
    out.line(formatTile(tile));
    // What the tile runs without (remote hooks off: `AllowTcpForwarding no`), as the README promises.
    if (tile.notice) out.line(`    note: ${printable(tile.notice)}`);
    if (tile.worktree) out.line(`    worktree: ${printable(tile.worktree.branch)} from ${printable(tile.worktree.baseName)} (${tile.worktree.base.slice(0, 10)}), in ${printable(tile.worktree.path)}`);
    const changes = changesLabel(tile);
    if (changes) out.line(`    changes: ${printable(changes)} (against ${tile.worktree ? 'its base' : 'HEAD'})`);
    // What a blocked tile asks, and the options `belltower answer` can pick, under it.
    if (tile.request) {
      const options = tile.request.options.map((o) => `${o.key} ${o.label}`).join(' · ');
      out.line(`    asks: ${printable(tile.request.asks || 'something (its words did not come)')}${options ? ` — ${printable(options)}` : ''} (request ${tile.request.id})`);
    }
  }
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
    out.line(`  ${`${(entry.t / 1000).toFixed(3)}s`.padStart(10)}  #${String(entry.seq).padEnd(4)} ${printable(entry.source).padEnd(10)} ${printable(entry.signal).padEnd(14)} ${printable(whyNote(entry))}`);
  }
  return 0;
}

export interface SendFlags {
  enter?: boolean;
  session?: string;
  /** Every tile whose program still runs. */
  all?: boolean;
  /** The running tiles in one of these states: `done`, `blocked,idle`. */
  state?: string;
}

/**
 * `belltower send TILE TEXT`: one tile, as it always was (one request, nothing printed). Several:
 * `send TILE,TILE… TEXT` (exactly those; a TILE that is no tile sends nothing), `send --all TEXT`
 * (every tile still running), `send --state STATE[,STATE…] TEXT` (the running tiles in those
 * states). Each tile gets the same text (and Enter); one line per tile says sent or why not. Exit
 * 0 when every tile took it, 1 when one could not (or none was chosen), 2 for a usage error.
 */
export async function sendCommand(tile: string | undefined, text: string | undefined, flags: SendFlags, out: Output): Promise<number> {
  const picking = flags.all ? '--all' : flags.state !== undefined ? '--state' : null;
  if (picking === null) {
    // Commander's own words, as when both arguments were required.
    if (tile === undefined) return usage(out, "error: missing required argument 'tile'");
    if (text === undefined) return usage(out, "error: missing required argument 'text'");
    if (!tile.includes(',')) return sendOne(tile, text, flags, out);
    return sendMany({ list: tile }, text, flags, out);
  }
  if (flags.all && flags.state !== undefined) return fail(out, '--all and --state pick the tiles two ways: give one (--state picks among every tile)', 2);
  if (tile === undefined) return usage(out, "error: missing required argument 'text'");
  if (text !== undefined) return fail(out, `with ${picking}, give only TEXT: ${picking} picks the tiles (to name them: send TILE,TILE… TEXT)`, 2);
  if (flags.state === undefined) return sendMany({ all: true }, tile, flags, out);
  const states = flags.state.split(',').map((s) => s.trim());
  const wrong = states.find((s) => !(STATE_NAMES as readonly string[]).includes(s));
  if (wrong !== undefined) return fail(out, `--state takes one or more of ${STATE_NAMES.join(', ')}, separated by commas (got "${flags.state}")`, 2);
  return sendMany({ states }, tile, flags, out);
}

async function sendOne(tile: string, text: string, flags: SendFlags, out: Output): Promise<number> {
  const reply = await call(out, flags.session, { op: 'send', tile, text, enter: flags.enter ?? false });
  if (typeof reply === 'number') return reply;
  return reply.ok ? 0 : fail(out, reply.error);
}

/** A process ended: it can take no text (TileSet.send says "has exited"). */
const hasEnded = (tile: TileInfo) => tile.state === 'exited' || tile.exit !== undefined;

async function sendMany(pick: { list: string } | { all: true } | { states: string[] }, text: string, flags: SendFlags, out: Output): Promise<number> {
  if ('list' in pick && pick.list.split(',').some((key) => key.trim() === '')) {
    return fail(out, `TILE,TILE…: a tile is missing between the commas (got "${pick.list}")`, 2);
  }
  const listed = await call(out, flags.session, { op: 'ls' });
  if (typeof listed === 'number') return listed;
  if (!listed.ok) return fail(out, listed.error);
  if (!('tiles' in listed)) return fail(out, 'unexpected reply');
  const tiles = listed.tiles;
  const known = () => tiles.map((t) => `${t.id} ${t.name} ${t.state}`).join(', ') || 'none';
  let chosen: TileInfo[];
  if ('list' in pick) {
    // A tile whose name has a comma in it is still one tile.
    if (tiles.some((t) => t.name === pick.list)) return sendOne(pick.list, text, flags, out);
    chosen = [];
    for (const key of pick.list.split(',').map((k) => k.trim())) {
      const found = findTile(tiles, key);
      // A typo sends nothing: a broadcast is all the tiles named, or none.
      if (!found) return fail(out, `no tile "${key}" (tiles: ${known()}); nothing sent`);
      if (!chosen.some((t) => t.id === found.id)) chosen.push(found);
    }
  } else {
    const matching = 'states' in pick ? tiles.filter((t) => pick.states.includes(t.state)) : tiles;
    for (const tile of matching.filter(hasEnded)) out.line(`skipped: ${formatTile(tile)}  (it has exited)`);
    chosen = matching.filter((t) => !hasEnded(t));
    if (chosen.length === 0) {
      const which = 'states' in pick ? `no running tile is ${pick.states.join(' or ')}` : 'no running tile';
      return fail(out, `${which} (tiles: ${known()}); nothing sent`);
    }
  }
  let refused = 0;
  for (const tile of chosen) {
    const reply = await call(out, flags.session, { op: 'send', tile: String(tile.id), text, enter: flags.enter ?? false });
    if (typeof reply === 'number') return reply; // belltower is gone: the rest cannot be sent either
    if (reply.ok) out.line(`sent: ${formatTile(tile)}`);
    else {
      refused++;
      out.error(`belltower: not sent to ${tile.id} ${printable(tile.name)}: ${printable(reply.error)}`);
    }
  }
  return refused === 0 ? 0 : 1;
}

function usage(out: Output, message: string): number {
  out.error(message);
  return 2;
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

/** `belltower answer`'s exit statuses beyond 0, 1 and 2: why nothing was sent. */
export const ANSWER_EXIT: Readonly<Record<AnswerRefusal, number>> = { 'still-asking': 1, stale: 3, 'not-asking': 4, 'no-option': 5 };

/**
 * `belltower answer TILE allow|always|deny [--message TEXT] [--request ID]`: answer the tile's
 * permission request with the option its dialog draws for that answer (tile/answer-request.ts).
 * With --request, only if that request (ls --json's request.id) still stands.
 */
export async function answerCommand(tile: string, answer: string, flags: { message?: string; request?: string; session?: string }, out: Output): Promise<number> {
  const picked = ANSWER_CHOICE.safeParse(answer);
  if (!picked.success) return fail(out, `answer with one of ${ANSWERS.join(', ')}, a question's option by its number (1-9), or text --message WORDS (got "${answer}")`, 2);
  if (flags.message !== undefined && answer !== 'deny' && answer !== 'text') return fail(out, '--message goes with deny (what to do instead) or text (the answer in your words)', 2);
  if (answer === 'text' && flags.message === undefined) return fail(out, 'text needs --message: the answer in your own words', 2);
  if (flags.message !== undefined && (flags.message.trim() === '' || /[\r\n]/.test(flags.message))) return fail(out, '--message is one line of text', 2);
  const reply = await call(out, flags.session, {
    op: 'answer',
    tile,
    answer: picked.data,
    ...(flags.message !== undefined ? { message: flags.message } : {}),
    ...(flags.request !== undefined ? { request: flags.request } : {}),
  });
  if (typeof reply === 'number') return reply;
  if (!reply.ok) return fail(out, reply.error, reply.refused ? ANSWER_EXIT[reply.refused] : 1);
  if (!('answered' in reply)) return fail(out, 'unexpected reply');
  out.line(`${printable(reply.answered)}: ${formatTile(reply.tile)}`);
  return 0;
}

/** `belltower add SPEC [--name N] [--cwd DIR]`: a new tile in the running belltower. */
export async function addCommand(spec: string, flags: { name?: string; cwd?: string; session?: string; worktree?: string | boolean; base?: string }, out: Output): Promise<number> {
  const problem = flags.name === undefined ? null : tileNameProblem(flags.name);
  if (problem) return fail(out, problem, 2);
  if (flags.base !== undefined && !flags.worktree) return fail(out, '--base is where a new worktree branches from: give --worktree too', 2);
  // A relative folder means the caller's, not the running belltower's.
  const cwd = resolve(process.cwd(), flags.cwd ?? '.');
  const worktree = flags.worktree ? { ...(typeof flags.worktree === 'string' ? { branch: flags.worktree } : {}), ...(flags.base ? { base: flags.base } : {}) } : undefined;
  return changed(out, await call(out, flags.session, { op: 'add', spec, cwd, ...(flags.name ? { name: flags.name } : {}), ...(worktree ? { worktree } : {}) }));
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

/**
 * `belltower diff TILE`: what the tile's folder changed, as `git diff` shows it — against HEAD,
 * committed work aside, untracked files included (docs/design.md, "Worktrees"). Colours when
 * stdout is a terminal (`color`), plain text otherwise. Exit 0 with the diff (empty: no changes),
 * 1 when the folder is not in a git repository or git fails, 2 for a usage error.
 */
export async function diffCommand(tile: string, flags: { session?: string; color?: boolean }, out: Output): Promise<number> {
  const reply = await call(out, flags.session, { op: 'why', tile });
  if (typeof reply === 'number') return reply;
  if (!reply.ok) return fail(out, reply.error);
  if (!('why' in reply)) return fail(out, 'unexpected reply');
  const cwd = reply.tile.cwd;
  if (!cwd || reply.tile.remote) return fail(out, `tile ${reply.tile.id} runs ${reply.tile.remote ? 'on another machine' : 'in no known folder'}: there is nothing here to diff`);
  try {
    // A worktree's changes are counted from the commit it branched from: the agent's commits too.
    const text = await diffText(cwd, reply.tile.worktree?.base ?? 'HEAD', { color: flags.color === true });
    if (text !== '') out.line(text.replace(/\n$/, ''));
    return 0;
  } catch (error) {
    const problem = changesProblem(error, `tile ${reply.tile.id}`, cwd);
    if (problem === null) throw error;
    return fail(out, problem);
  }
}
