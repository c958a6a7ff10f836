/**
 * The workspace file (`belltower.json`, JSON with comments): the tiles `belltower` opens in a
 * folder, and their options. Validated whole before anything starts; every problem names the file,
 * the line and the field, in words a person can act on:
 *
 *   belltower.json:7: tiles[2].cwd: no such folder "/srv/ap"
 */
import { statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { z } from 'zod';
import { SpecError, specWord, splitWords } from '../agents/launch-spec.js';
import { tileNameProblem } from '../control/tile-name.js';
import { parseSshCommand, remoteWord, SshCommandError } from '../remote/ssh-command.js';
import { BELL_MODES } from '../ui/bell.js';
import { parseEscapeKey } from '../ui/keymap.js';
import { resolveTiming, TimingError } from '../verdict/timing.js';
import { parseJsoncLocated, showPath } from './jsonc-parse.js';
import type { JsonPath } from './jsonc-parse.js';
import { readWorkspaceFile } from './workspace-read.js';

export const WORKSPACE_FILE = 'belltower.json';

const AGENTS = ['claude', 'codex', 'gemini', 'shell'] as const;

const tileSchema = z
  .object({
    name: z.string().optional(),
    agent: z.enum(AGENTS).optional(),
    command: z.string().min(1).optional(),
    args: z.array(z.string()).optional(),
    cwd: z.string().min(1).optional(),
    env: z.record(z.string(), z.string()).optional(),
    bell: z.boolean().optional(),
    notify: z.boolean().optional(),
    escapeKey: z.string().optional(),
    timing: z.record(z.string(), z.number()).optional(),
    remote: z.string().min(1).optional(),
    remoteHooks: z.boolean().optional(),
    worktree: z.union([z.boolean(), z.string().min(1).max(200)]).optional(),
  })
  .strict();

const workspaceSchema = z
  .object({
    tiles: z.array(tileSchema),
    bell: z.enum(BELL_MODES).optional(),
    notify: z.enum(['auto', 'osc9', 'osc777', 'osc99', 'off']).optional(),
    escapeKey: z.string().optional(),
    onRing: z.string().min(1).max(4096).optional(),
    timing: z.record(z.string(), z.number()).optional(),
    remoteHooks: z.boolean().optional(),
  })
  .strict();

export type NotifyChoice = 'auto' | 'osc9' | 'osc777' | 'osc99' | 'off';

/** One tile as the workspace gives it, ready to launch. */
export interface WorkspaceTile {
  /** A SPEC as the command line takes it (`claude --model opus`, `npm test`). */
  spec: string;
  name?: string;
  /** Absolute. */
  cwd: string;
  env: Record<string, string>;
  bell: boolean;
  notify: boolean;
  escapeKey?: string;
  timing: Record<string, number>;
  /** Hooks for a remote tile, forwarded over its ssh connection (only for a tile that runs over ssh). */
  remoteHooks?: boolean;
  /** Start it in a git worktree of its folder's repository: on `branch`, or `belltower/<name>`;
   * the one made for it before, if there is one. */
  newWorktree?: { branch?: string };
}

export interface Workspace {
  file: string;
  /** The file's real path and the SHA-256 of the bytes parsed: what the trust record names. */
  realPath?: string;
  sha256?: string;
  tiles: WorkspaceTile[];
  bell?: (typeof BELL_MODES)[number];
  notify?: NotifyChoice;
  escapeKey?: string;
  /** A shell command line run on a ring while no client is attached to the session's server. */
  onRing?: string;
  timing: Record<string, number>;
}

export type LoadResult = { ok: true; workspace: Workspace } | { ok: false; errors: string[] };

/** Read (only when it is safe to: workspace-read.ts) and validate `file`. `shown` is how the file
 * is named in errors (as the user gave it). */
export function loadWorkspace(file: string, shown = file): LoadResult {
  const read = readWorkspaceFile(file, shown);
  if (!read.ok) return { ok: false, errors: [read.error] };
  const parsed = parseWorkspace(read.file.text, resolve(file), shown);
  if (!parsed.ok) return parsed;
  return { ok: true, workspace: { ...parsed.workspace, realPath: read.file.realPath, sha256: read.file.sha256 } };
}

export function parseWorkspace(text: string, file: string, shown: string): LoadResult {
  const parsed = parseJsoncLocated(text);
  if (!parsed.ok) return { ok: false, errors: [`${shown}:${parsed.line}: ${parsed.message}`] };
  const { located } = parsed;
  const at = (path: JsonPath, message: string) => `${shown}:${located.lineOf(path)}: ${showPath(path)}: ${message}`;

  const checked = workspaceSchema.safeParse(located.value);
  if (!checked.success) {
    return { ok: false, errors: checked.error.issues.map((issue) => at(issue.path as JsonPath, describeIssue(issue))) };
  }
  const data = checked.data;
  const base = dirname(file);
  const errors: string[] = [];
  if (data.tiles.length === 0) errors.push(at(['tiles'], 'no tiles: add at least one, e.g. { "agent": "claude" }'));
  if (data.escapeKey !== undefined) {
    const key = parseEscapeKey(data.escapeKey);
    if ('error' in key) errors.push(at(['escapeKey'], key.error.replace(/^--escape-key /, '')));
  }
  if (data.timing) checkTiming(data.timing, ['timing'], at, errors);

  const names = new Map<string, number>();
  const tiles: WorkspaceTile[] = [];
  data.tiles.forEach((tile, i) => {
    const here = (field: string) => ['tiles', i, field] as JsonPath;
    if ((tile.agent === undefined) === (tile.command === undefined)) {
      errors.push(at(['tiles', i], 'give either "agent" (claude, codex, gemini, shell) or "command", not both'));
      return;
    }
    if (tile.args && tile.command !== undefined) errors.push(at(here('args'), '"args" go with an agent; put a command\'s arguments in "command"'));
    if (tile.args && tile.agent === 'shell') errors.push(at(here('args'), 'the shell takes no "args"'));
    const ssh = tile.remote === undefined ? null : sshWords(tile.remote);
    if (typeof ssh === 'string') errors.push(at(here('remote'), ssh));
    if (tile.remote !== undefined && tile.cwd !== undefined) {
      errors.push(at(here('cwd'), 'a remote tile starts in its login folder on the other machine: leave out "cwd" (or use a "command" such as "cd proj && claude")'));
    }
    const remoteHooks = tile.remoteHooks ?? data.remoteHooks;
    if (tile.remoteHooks === true && tile.remote === undefined && !/^\s*ssh\s/.test(tile.command ?? '')) {
      errors.push(at(here('remoteHooks'), 'only a tile that runs over ssh takes "remoteHooks": add "remote": "user@host"'));
    }
    if (tile.worktree !== undefined && tile.worktree !== false && tile.remote !== undefined) errors.push(at(here('worktree'), 'a worktree is made on this machine: a remote tile cannot start in one'));
    const cwd = resolve(base, tile.cwd ?? '.');
    if (tile.cwd !== undefined) {
      const kind = folderKind(cwd);
      if (kind !== 'folder') errors.push(at(here('cwd'), kind === 'missing' ? `no such folder "${cwd}"` : `"${cwd}" is not a folder`));
    }
    if (tile.escapeKey !== undefined) {
      const key = parseEscapeKey(tile.escapeKey);
      if ('error' in key) errors.push(at(here('escapeKey'), key.error.replace(/^--escape-key /, '')));
    }
    if (tile.timing) checkTiming(tile.timing, ['tiles', i, 'timing'], at, errors);
    if (tile.name !== undefined) {
      const problem = tileNameProblem(tile.name);
      if (problem) errors.push(at(here('name'), problem));
      const seen = names.get(tile.name);
      if (seen !== undefined) errors.push(at(here('name'), `"${tile.name}" is also tiles[${seen}]'s name`));
      else names.set(tile.name, i);
    }
    const local = tile.command ?? [tile.agent!, ...(tile.args ?? []).map(specWord)].join(' ');
    // The remote line is the remote shell's to split (ssh joins its words with spaces): one local
    // word, in which each argument is quoted for the remote shell.
    const remoteLine = tile.command ?? [tile.agent!, ...(tile.args ?? []).map(remoteWord)].join(' ');
    const remoteCommand = tile.agent === 'shell' ? [] : [specWord(remoteLine)];
    const spec = Array.isArray(ssh) ? ['ssh', ...ssh.map(specWord), ...remoteCommand].join(' ') : local;
    tiles.push({
      spec,
      ...(tile.name !== undefined ? { name: tile.name } : {}),
      cwd,
      env: tile.env ?? {},
      bell: tile.bell ?? true,
      notify: tile.notify ?? true,
      ...(tile.escapeKey !== undefined ? { escapeKey: tile.escapeKey } : {}),
      timing: tile.timing ?? {},
      ...(remoteHooks !== undefined && (tile.remote !== undefined || tile.command !== undefined) ? { remoteHooks } : {}),
      ...(tile.worktree === true ? { newWorktree: {} } : typeof tile.worktree === 'string' ? { newWorktree: { branch: tile.worktree } } : {}),
    });
  });
  if (errors.length > 0) return { ok: false, errors };
  return {
    ok: true,
    workspace: {
      file,
      tiles,
      ...(data.bell ? { bell: data.bell } : {}),
      ...(data.notify ? { notify: data.notify } : {}),
      ...(data.escapeKey !== undefined ? { escapeKey: data.escapeKey } : {}),
      ...(data.onRing !== undefined ? { onRing: data.onRing } : {}),
      timing: data.timing ?? {},
    },
  };
}

/** `"remote"`: a destination (`me@devbox`), optionally after ssh options (`-p 2222 me@devbox`);
 * its words, or what is wrong with it. */
function sshWords(remote: string): string[] | string {
  let words: string[];
  try {
    words = splitWords(remote);
  } catch (error) {
    if (error instanceof SpecError) return error.message;
    throw error;
  }
  try {
    const parsed = parseSshCommand(words);
    if (parsed.command.length > 0) return `"${remote}" has more after its host (${parsed.command.join(' ')}): give the agent as "agent" and "args", or a "command"`;
    return words;
  } catch (error) {
    if (error instanceof SshCommandError) return error.message;
    throw error;
  }
}

function checkTiming(timing: Record<string, number>, path: JsonPath, at: (path: JsonPath, message: string) => string, errors: string[]): void {
  for (const [name, ms] of Object.entries(timing)) {
    try {
      resolveTiming({ [name]: ms });
    } catch (error) {
      if (!(error instanceof TimingError)) throw error;
      errors.push(at([...path, name], error.message));
    }
  }
}

function folderKind(path: string): 'folder' | 'file' | 'missing' {
  try {
    return statSync(path).isDirectory() ? 'folder' : 'file';
  } catch {
    return 'missing';
  }
}

function describeIssue(issue: z.core.$ZodIssue): string {
  if (issue.code === 'unrecognized_keys') return `unknown ${issue.keys.length === 1 ? 'field' : 'fields'} ${issue.keys.map((k) => `"${k}"`).join(', ')}`;
  if (issue.code === 'invalid_value') return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
  if (issue.code === 'invalid_type') return `must be ${issue.expected === 'record' ? 'an object' : issue.expected === 'array' ? 'a list' : `a ${issue.expected}`}`;
  return issue.message;
}

/** A commented example for `belltower init`: the agents found here, and a shell. */
export function exampleWorkspace(agentsFound: readonly string[]): string {
  const agents = agentsFound.length > 0 ? agentsFound : [];
  const tiles = [...agents.map((agent) => `    { "agent": "${agent}" },`), '    { "name": "shell", "agent": "shell" },', '    // { "name": "tests", "command": "npm test -- --watch", "cwd": "." },'];
  return `// belltower workspace: \`belltower\` in this folder opens these tiles.
// A tile is an "agent" (claude, codex, gemini, shell) or a "command" (any command line), with
// optional "name", "cwd" (relative to this file), "args" (an agent's arguments), "env",
// "bell" and "notify" (false keeps this tile quiet), "escapeKey" and "timing" overrides, and
// "remote" ("me@devbox", or "-p 2222 me@devbox") to run it on another machine over ssh, and
// "worktree" (true, or a branch name) to run it in a git worktree of its own.
{
  "tiles": [
${tiles.join('\n')}
  ],
  // "bell": "all",          // all | background (not for the tile in front of you) | off
  // "notify": "auto",       // auto | osc9 | osc777 | osc99 | off
  // "escapeKey": "ctrl-\\\\", // the key that leaves a focused tile
  // "onRing": "curl -s -d \\"$BELLTOWER_NAME $BELLTOWER_STATE\\" ntfy.sh/my-topic", // a ring while nobody is attached
  // "timing": { "conflictWindowMs": 750 },
}
`;
}
