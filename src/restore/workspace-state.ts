/**
 * The workspace state of one belltower session (its `--session` name): what a restart, a crash or
 * a closed terminal needs to bring every tile back — what each tile runs and where, the agent's
 * conversation, its place in the grid, its last verdict and whether the user had seen it, its
 * last screen — and how that belltower ended.
 *
 * Versioned: a reader takes every version up to its own and refuses a newer one with a message
 * that says what to do. Bounded: the text is refused past MAX_STATE_BYTES, a screen past
 * MAX_SCREEN_CHARS, the tiles past MAX_TILES.
 */
import { z } from 'zod';
import { TILE_STATES } from '../verdict/state.js';
import type { TileStateName } from '../verdict/state.js';
import { SOURCE_NAMES } from '../verdict/signals.js';
import { TIMING_KEYS } from '../verdict/timing.js';

export const STATE_FORMAT = 'belltower-workspace-state';
export const STATE_VERSION = 1;

export const MAX_STATE_BYTES = 32 * 1024 * 1024;
export const MAX_TILES = 500;
/** One tile's saved screen, with its scrollback (about 200 lines of a wide, colourful screen). */
export const MAX_SCREEN_CHARS = 512 * 1024;

const AGENTS = ['claude', 'codex', 'gemini', 'shell', 'command'] as const;
/** How belltower ended: `null` while it runs (so a state that still says so was killed). */
export const ENDINGS = ['quit', 'SIGINT', 'SIGTERM', 'SIGHUP', 'crash'] as const;
export type Ending = (typeof ENDINGS)[number];

const savedTile = z.object({
  name: z.string().min(1).max(40),
  /** The SPEC as given (`claude --model opus`, `npm test`). */
  spec: z.string().min(1).max(4096),
  agent: z.enum(AGENTS),
  cwd: z.string().min(1).max(4096),
  /** The tile's own variables (from the workspace file), not belltower's environment. */
  env: z.record(z.string(), z.string()).optional(),
  /** The tile's own timing overrides (names this belltower knows). */
  timing: z
    .record(z.string(), z.number().finite().nonnegative())
    .refine((timing) => Object.keys(timing).every((key) => (TIMING_KEYS as string[]).includes(key)), `timing names are ${TIMING_KEYS.join(', ')}`)
    .optional(),
  bell: z.boolean().optional(),
  notify: z.boolean().optional(),
  escapeKey: z.string().max(32).optional(),
  /** A remote tile's hooks over its ssh connection. */
  remoteHooks: z.boolean().optional(),
  /** The git worktree belltower made for it (its cwd): a restore starts it there again. */
  worktree: z
    .object({ path: z.string().min(1).max(4096), branch: z.string().min(1).max(256), base: z.string().min(1).max(64), baseName: z.string().min(1).max(256), repository: z.string().min(1).max(4096) })
    .optional(),
  /** The agent's session or thread id: what a restore resumes. */
  conversation: z.string().max(64).optional(),
  state: z.enum(TILE_STATES as [TileStateName, ...TileStateName[]]),
  reason: z.string().max(4096),
  source: z.enum(SOURCE_NAMES),
  /** A done, blocked or failed the user had not looked at. */
  unseen: z.boolean(),
  muted: z.boolean(),
  /** Its process had ended by itself: how. */
  exit: z
    .object({ code: z.number().int().nullable(), signal: z.string().max(32).nullable(), error: z.string().max(4096).optional() })
    .optional(),
  /** Its last screen (Screen.snapshot) and the size it had. */
  screen: z
    .object({ cols: z.number().int().min(1).max(2000), rows: z.number().int().min(1).max(1000), data: z.string().max(MAX_SCREEN_CHARS) })
    .optional(),
});
export type SavedTile = z.infer<typeof savedTile>;

const LAYOUTS = ['auto', 'grid', 'rows'] as const;

export const workspaceStateSchema = z.object({
  format: z.literal(STATE_FORMAT),
  version: z.number().int().positive(),
  session: z.string().min(1).max(64),
  /** ISO 8601. */
  savedAt: z.string().refine((s) => !Number.isNaN(Date.parse(s)), 'must be an ISO 8601 date'),
  /** The belltower process that wrote it. */
  pid: z.number().int().positive(),
  ended: z.enum(ENDINGS).nullable(),
  tiles: z.array(savedTile).max(MAX_TILES),
  ui: z.object({
    /** Index of the selected tile. */
    selected: z.number().int().nonnegative(),
    zoomed: z.boolean(),
    layout: z.enum(LAYOUTS),
    hideIdle: z.boolean(),
  }),
});
export type WorkspaceState = z.infer<typeof workspaceStateSchema>;

export type ReadResult = { ok: true; state: WorkspaceState } | { ok: false; error: string; newer?: boolean };

/** Parse a state file's text; the error says what is wrong in one line. */
export function parseWorkspaceState(text: string): ReadResult {
  if (text.length > MAX_STATE_BYTES) return { ok: false, error: `it is larger than ${MAX_STATE_BYTES / 1024 / 1024} MB` };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: `it is not JSON (${(error as Error).message})` };
  }
  const head = z.object({ format: z.literal(STATE_FORMAT), version: z.number().int().positive() }).safeParse(value);
  if (!head.success) return { ok: false, error: `it is not a belltower workspace state (no "format": "${STATE_FORMAT}" with a version)` };
  if (head.data.version > STATE_VERSION) {
    return {
      ok: false,
      newer: true,
      error: `it was written by a newer belltower (state version ${head.data.version}; this one reads up to ${STATE_VERSION}): upgrade belltower`,
    };
  }
  const result = workspaceStateSchema.safeParse(value);
  if (!result.success) {
    const issue = result.error.issues[0];
    return { ok: false, error: `${issue?.path.join('.') || 'the file'}: ${issue?.message ?? 'invalid'}` };
  }
  return { ok: true, state: result.data };
}
