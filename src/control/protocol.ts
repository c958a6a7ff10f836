/**
 * The control protocol: line-delimited JSON over a local socket, one request and one reply per
 * line, matched by `id`. Versioned: a server answers a request of another major version with an
 * error that says so.
 */
import { z } from 'zod';
import { TILE_STATES } from '../verdict/state.js';
import type { TileStateName, WhyEntry } from '../verdict/state.js';

export const PROTOCOL_VERSION = 1;

export const WAIT_TARGETS = ['done', 'blocked', 'idle', 'exited', 'any'] as const;
export type WaitTarget = (typeof WAIT_TARGETS)[number];

const base = { v: z.literal(PROTOCOL_VERSION), id: z.number().int().nonnegative() };

export const requestSchema = z.discriminatedUnion('op', [
  z.object({ ...base, op: z.literal('ls') }),
  z.object({ ...base, op: z.literal('why'), tile: z.string().min(1) }),
  z.object({ ...base, op: z.literal('send'), tile: z.string().min(1), text: z.string(), enter: z.boolean().default(false) }),
  z.object({
    ...base,
    op: z.literal('wait'),
    tile: z.string().min(1),
    for: z.enum(WAIT_TARGETS),
    timeoutMs: z.number().int().positive(),
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
  /** What the tile could not set up and how it copes (e.g. no hooks: the title decides). */
  notice?: string;
}

export type ControlReply =
  | { v: number; id: number; ok: true; tiles: TileInfo[] }
  | { v: number; id: number; ok: true; sent: true }
  | { v: number; id: number; ok: true; reached: TileInfo }
  | { v: number; id: number; ok: true; tile: TileInfo; why: WhyEntry[] }
  | { v: number; id: number; ok: false; error: string; timeout?: boolean };

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

/** Does a tile in `state` satisfy `wait --for target`? (`any` is answered by the next change.) */
export function reaches(state: TileStateName, target: WaitTarget): boolean {
  return target !== 'any' && state === target;
}

export const STATE_NAMES = TILE_STATES;
