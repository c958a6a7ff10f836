/**
 * The control protocol: line-delimited JSON over a local socket, one request and one reply per
 * line, matched by `id`. Versioned: a server answers a request of another major version with an
 * error that says so.
 */
import { z } from 'zod';
import { MAX_DURATION_MS } from '../verdict/duration.js';
import { TILE_STATES } from '../verdict/state.js';
import type { TileStateName, WhyEntry } from '../verdict/state.js';
import { tileNameProblem } from './tile-name.js';

export const PROTOCOL_VERSION = 1;

export const WAIT_TARGETS = ['done', 'blocked', 'idle', 'exited', 'finished', 'any'] as const;
export type WaitTarget = (typeof WAIT_TARGETS)[number];

/** The answers to a permission request (agents/permission-choices.ts reads which option gives
 * which): allow once, allow and do not ask again, deny. */
export const ANSWERS = ['allow', 'always', 'deny'] as const;
export type Answer = (typeof ANSWERS)[number];
/** What `answer` may pick: a permission answer; a question's option by its number; or `text`,
 * the question's own-words option, with the words as the message. */
export type AnswerChoice = Answer | `${1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9}` | 'text';
export const ANSWER_CHOICE = z.union([z.enum(ANSWERS), z.enum(['1', '2', '3', '4', '5', '6', '7', '8', '9', 'text'])]);

const base = { v: z.literal(PROTOCOL_VERSION), id: z.number().int().nonnegative() };

/** A tile's name, refused in the words every other place that takes one uses (tile-name.ts). */
const tileName = z.string().superRefine((name, ctx) => {
  const problem = tileNameProblem(name);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

export const requestSchema = z.discriminatedUnion('op', [
  z.object({ ...base, op: z.literal('ls') }),
  z.object({ ...base, op: z.literal('why'), tile: z.string().min(1) }),
  z.object({ ...base, op: z.literal('send'), tile: z.string().min(1), text: z.string(), enter: z.boolean().default(false) }),
  z.object({ ...base, op: z.literal('add'), spec: z.string().min(1).max(4096), name: tileName.optional(), cwd: z.string().min(1).max(4096).optional(), worktree: z.object({ branch: z.string().min(1).max(255).optional(), base: z.string().min(1).max(255).optional() }).strict().optional() }),
  z.object({
    ...base,
    op: z.literal('answer'),
    tile: z.string().min(1),
    answer: ANSWER_CHOICE,
    /** Deny, then tell the agent what to do instead: typed into its prompt once the dialog is gone;
     * or, with `text`, the answer to a question in the user's own words. */
    message: z.string().min(1).max(4096).regex(/^[^\r\n]*$/, 'one line: it is typed into the agent\'s prompt and submitted').optional(),
    /** The request this answer is for (`ls --json`'s request.id): refused when another stands. */
    request: z.string().min(1).max(64).optional(),
  }),
  /** A session server's clients: the one that typed or resized last, or `all`. */
  z.object({ ...base, op: z.literal('detach'), all: z.boolean().default(false) }),
  z.object({ ...base, op: z.literal('close'), tile: z.string().min(1) }),
  z.object({ ...base, op: z.literal('restart'), tile: z.string().min(1) }),
  z.object({ ...base, op: z.literal('rename'), tile: z.string().min(1), name: tileName }),
  z.object({
    ...base,
    op: z.literal('wait'),
    tile: z.string().min(1),
    for: z.enum(WAIT_TARGETS),
    timeoutMs: z.number().int().positive().max(MAX_DURATION_MS),
    /** The timeout as the user wrote it (`20s`), for the message when it passes. */
    timeoutText: z.string().min(1).max(64).optional(),
  }),
]);
export type ControlRequest = z.infer<typeof requestSchema>;
export type ControlRequestInput = z.input<typeof requestSchema>;
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
/** A request as a client writes it, before the version and id are added. */
export type ControlRequestBody = DistributiveOmit<ControlRequestInput, 'v' | 'id'>;

/** What `ls` reports of one tile. */
export interface TileInfo {
  id: number;
  name: string;
  agent: string;
  state: TileStateName;
  kind?: string;
  source: string;
  confidence: string;
  reason: string;
  /** Milliseconds since the tile entered its state. */
  sinceMs: number;
  /** The folder the tile runs in. */
  cwd?: string;
  /** The git worktree belltower made for it: its branch, the commit it branched from (what its
   * changes are counted against) and the repository it came from. */
  worktree?: { path: string; branch: string; base: string; baseName: string; repository: string };
  /** What its folder changed against that base (else its folder against HEAD), as git counts it:
   * the branch checked out (null: detached), lines added and removed, files. Absent: not counted
   * (not a repository, a remote tile, not yet). */
  changes?: { branch: string | null; added: number; removed: number; files: number };
  /** The agent's own words for its state: the command it asks to approve, its last answer, its
   * error (from hooks, OSC 7501 `msg`, notify). Free text from the agent: show it escaped. */
  says?: string;
  /** From the agent's own log: its model, context in use and window, tokens it wrote, tokens it
   * used in all (prompts and output). */
  facts?: { model?: string; contextTokens?: number; contextWindow?: number; outputTokens?: number; totalTokens?: number };
  /** Once its process has ended: how (`closed`: belltower ended it). A finished command is `done`
   * or `failed`, so this, not the state, says whether the process still runs. */
  exit?: { code: number | null; signal: string | null; error?: string; closed: boolean };
  /** The folder its shell last reported (OSC 7). */
  folder?: string;
  /** What the tile could not set up and how it copes (e.g. no hooks: the title decides). */
  notice?: string;
  /** It shows its screen from before belltower restarted; its program has not drawn yet. */
  restored?: boolean;
  /** belltower's own word about the tile (e.g. its conversation could not be resumed). */
  note?: string;
  /** A line submitted into the tile (`send --enter`, Enter in the grid) that its state does not
   * answer yet: its Enter is still to be pressed, or no verdict came after it. */
  inputPending?: true;
  /** Blocked: the request it puts to the user (tile/pending-request.ts): an id that changes when
   * another request replaces it, the agent's words, and the options its dialog draws now. */
  request?: {
    id: string;
    asks: string;
    /** The tool it asks for, and the command it would run or the file it would change, where the
     * agent named them (`Bash` + `npm test`, `Edit` + `src/app.ts`, Codex's dialog: `command`). */
    tool?: string;
    command?: string;
    path?: string;
    options: readonly { key: string; label: string; answer: Answer | null }[];
  };
  /** It runs on another machine over ssh: the host; whether belltower's hooks reach it over the
   * connection (`connecting`: waiting for the login); `lost`: ssh ended with 255. */
  remote?: { host: string; hooks: 'off' | 'connecting' | 'on'; lost?: true; notFound?: true };
}

export type ControlReply =
  | { v: number; id: number; ok: true; tiles: TileInfo[] }
  | { v: number; id: number; ok: true; sent: true }
  /** detach: how many clients were let go. */
  | { v: number; id: number; ok: true; detached: number }
  | { v: number; id: number; ok: true; reached: TileInfo }
  /** add, restart, rename: the tile as it is now; close: the tile as it was. */
  | { v: number; id: number; ok: true; done: 'added' | 'closed' | 'restarted' | 'renamed'; tile: TileInfo }
  | { v: number; id: number; ok: true; tile: TileInfo; why: WhyEntry[] }
  /** answer: the option it picked, and the tile once the request had gone. */
  | { v: number; id: number; ok: true; answered: string; tile: TileInfo }
  /** `refused`: why an answer was not sent (the request is stale, the tile asks nothing) or did not
   * take (it still asks): scripts tell them apart by it. */
  | { v: number; id: number; ok: false; error: string; timeout?: boolean; refused?: AnswerRefusal };

/** Why an answer did not happen (answer-request.ts): each its own exit status for `belltower answer`. */
export type AnswerRefusal = 'not-asking' | 'stale' | 'no-option' | 'still-asking';

/** Parse one request line; the error names what is wrong so a script author can fix it. */
export function parseRequest(line: string): { ok: true; request: ControlRequest } | { ok: false; id: number; error: string } {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { ok: false, id: 0, error: 'request is not JSON' };
  }
  const id = typeof value === 'object' && value !== null && typeof (value as { id?: unknown }).id === 'number' ? (value as { id: number }).id : 0;
  const v = typeof value === 'object' && value !== null ? (value as { v?: unknown }).v : undefined;
  if (v !== PROTOCOL_VERSION) return { ok: false, id, error: `protocol version ${JSON.stringify(v)} is not supported (this belltower speaks ${PROTOCOL_VERSION})` };
  const result = requestSchema.safeParse(value);
  if (!result.success) {
    return { ok: false, id, error: result.error.issues.map((i) => `${i.path.join('.') || 'request'}: ${i.message}`).join('; ') };
  }
  return { ok: true, request: result.data };
}

/** Does the tile satisfy `wait --for target`? (`any` is answered by the next change.) A finished
 * command is done or failed, and exited too. */
export function reaches(tile: Pick<TileInfo, 'agent' | 'state' | 'exit' | 'inputPending'>, target: WaitTarget): boolean {
  if (target === 'exited') return tile.state === 'exited' || tile.exit !== undefined;
  if (target === 'finished') return hasFinished(tile);
  return target !== 'any' && tile.state === target;
}

/**
 * Has the tile's current command or turn ended (`wait --for finished`), however long it took and
 * however it ended? A command tile: its process exited, with any status. A shell: it is at its
 * prompt again — idle, done or failed (a short command ends idle: only a long one rings). An
 * agent: its turn ended, done or failed. A state from before the last line submitted into the
 * tile (its Enter still to be pressed, or no verdict since) is the previous command's, not the
 * one just sent. A shell or agent that has exited has not finished: it never will.
 */
export function hasFinished(tile: Pick<TileInfo, 'agent' | 'state' | 'exit' | 'inputPending'>): boolean {
  if (tile.agent === 'command') return tile.exit !== undefined;
  if (tile.inputPending || tile.exit !== undefined) return false;
  return tile.state === 'done' || tile.state === 'failed' || (tile.agent === 'shell' && tile.state === 'idle');
}

export const STATE_NAMES = TILE_STATES;
