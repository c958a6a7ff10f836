/**
 * The recording format, version 2 (docs/recording-format.md): one JSON object per line, a header
 * first, then evidence and verdict lines with `t` (ms since startedAt) and `seq` (strictly
 * increasing), and an `end` line when belltower finished writing it. This module validates lines
 * and names the line number of anything wrong. Version 1 recordings (no end line; evidence as
 * received) are read as they always were.
 */
import { z } from 'zod';
import { TERMINAL_SIZE } from '../session/terminal-size.js';
import { LOGIN_PROMPTS, SOURCE_NAMES } from '../verdict/signals.js';
import { TILE_STATES } from '../verdict/state.js';
import { resolveTiming, TimingError } from '../verdict/timing.js';
import type { TileStateName } from '../verdict/state.js';

export const RECORDING_FORMAT = 'belltower-recording';
export const RECORDING_VERSION = 2;
/** From this version on, a recording that belltower finished writing ends with an `end` line. */
export const END_LINE_VERSION = 2;


// The same bound as live (src/session/terminal-size.ts): a recording may not ask replay for a
// screen live belltower would refuse to make.
const cols = z.number().int().min(TERMINAL_SIZE.minCols).max(TERMINAL_SIZE.maxCols);
const rows = z.number().int().min(TERMINAL_SIZE.minRows).max(TERMINAL_SIZE.maxRows);

export const headerSchema = z.object({
  type: z.literal('header'),
  format: z.literal(RECORDING_FORMAT),
  version: z.number().int().positive(),
  agent: z.string().min(1),
  agentVersion: z.string().optional(),
  cols,
  rows,
  startedAt: z.string().refine((s) => !Number.isNaN(Date.parse(s)), 'must be an ISO 8601 date'),
  timing: z.record(z.string(), z.number()).optional(),
  /** Optional, version 1 additions: what the session was set up with. */
  name: z.string().optional(),
  psp: z.boolean().optional(),
  hooks: z.boolean().optional(),
  /** The host a remote tile ran on, over ssh (its exit 255 is the connection's). */
  remote: z.string().optional(),
  /** Version 2: the agents' text was recorded as received (--record-text). */
  text: z.boolean().optional(),
  /** Optional (versions 1 and 2): a tile restored after belltower restarted starts showing this
   * verdict (with no edge into it, so no ring). */
  restored: z
    .object({
      state: z.enum(['done', 'failed', 'exited']),
      reason: z.string(),
      source: z.enum(SOURCE_NAMES),
      exit: z.object({ code: z.number().int().nullable(), signal: z.string().nullable(), error: z.string().optional() }).optional(),
      ended: z.boolean(),
    })
    .optional(),
});
export type RecordingHeader = z.infer<typeof headerSchema>;

const stamp = { t: z.number().finite().nonnegative(), seq: z.number().int().nonnegative() };
const jsonObject = z.record(z.string(), z.unknown());

const ptyLine = z.object({ type: z.literal('pty'), ...stamp, data: z.string() });
const oscLine = z.object({ type: z.literal('osc'), ...stamp, code: z.number().int().nonnegative(), payload: z.string() });
const hookLine = z.object({ type: z.literal('hook'), ...stamp, event: z.string().min(1), payload: jsonObject });
const transcriptLine = z.object({ type: z.literal('transcript'), ...stamp, path: z.string(), record: z.unknown() });
const notifyLine = z.object({ type: z.literal('notify'), ...stamp, payload: jsonObject });
const bannerLine = z.object({ type: z.literal('banner'), ...stamp, text: z.string() });
/** A remote tile's ssh asks a login question (its kind only: no host or user name), or stopped. */
const loginLine = z.object({ type: z.literal('login'), ...stamp, prompt: z.enum(LOGIN_PROMPTS).nullable() });
const promptLine = z.object({ type: z.literal('prompt'), ...stamp, local: z.boolean().optional() });
const seenLine = z.object({ type: z.literal('seen'), ...stamp });
/** A shell tile's foreground changed while a command ran: asleep reading the terminal, a full screen. */
const foregroundLine = z.object({ type: z.literal('foreground'), ...stamp, reading: z.boolean(), fullScreen: z.boolean() });
const resizeLine = z.object({ type: z.literal('resize'), ...stamp, cols, rows });
const spawnLine = z.object({ type: z.literal('spawn'), ...stamp });
const exitLine = z.object({
  type: z.literal('exit'),
  ...stamp,
  code: z.number().int().nullable(),
  signal: z.string().nullable(),
  error: z.string().optional(),
  closed: z.boolean().optional(),
  remaining: z.number().int().nonnegative().optional(),
  detached: z.number().int().nonnegative().optional(),
});
const endLine = z.object({ type: z.literal('end'), ...stamp });
const verdictLine = z.object({
  type: z.literal('verdict'),
  ...stamp,
  from: z.enum(TILE_STATES as [TileStateName, ...TileStateName[]]),
  to: z.enum(TILE_STATES as [TileStateName, ...TileStateName[]]),
  source: z.enum(SOURCE_NAMES),
  reason: z.string(),
  kind: z.string().optional(),
});

export const bodyLineSchema = z.discriminatedUnion('type', [
  ptyLine,
  oscLine,
  hookLine,
  transcriptLine,
  notifyLine,
  bannerLine,
  loginLine,
  promptLine,
  seenLine,
  foregroundLine,
  resizeLine,
  spawnLine,
  exitLine,
  verdictLine,
  endLine,
]);
export type RecordingLine = z.infer<typeof bodyLineSchema>;
export type EvidenceLine = Exclude<RecordingLine, { type: 'verdict' | 'end' }>;
export type VerdictLine = Extract<RecordingLine, { type: 'verdict' }>;
/** An evidence line before the recorder stamps it. */
export type Evidence = DistributiveOmit<EvidenceLine, 't' | 'seq'>;
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

export const LINE_TYPES = ['pty', 'osc', 'banner', 'login', 'hook', 'transcript', 'notify', 'prompt', 'seen', 'foreground', 'resize', 'spawn', 'exit', 'verdict', 'end'] as const;

export class RecordingError extends Error {
  override name = 'RecordingError';
  constructor(
    readonly file: string,
    readonly line: number,
    message: string,
  ) {
    super(`${file}:${line}: ${message}`);
  }
}

export interface ParsedRecording {
  header: RecordingHeader;
  lines: RecordingLine[];
  /** Whether belltower finished writing it (an end line); null for version 1, which cannot tell. */
  ended: boolean | null;
}

/** Parse a whole recording. Throws RecordingError naming the first bad line: never a partial timeline.
 * A version 2 recording cut short (no end line) parses up to its last complete line: a crash can
 * leave a line half written, and everything before it is still what happened. */
export function parseRecording(text: string, file = 'recording'): ParsedRecording {
  const rows = text.split('\n');
  const complete = rows.at(-1) === '';
  if (complete) rows.pop();
  if (rows.length === 0) throw new RecordingError(file, 1, 'empty file: a recording starts with a header line');

  const header = parseHeader(rows[0] ?? '', file);
  const endable = header.version >= END_LINE_VERSION;
  // Only a recording whose writer never finished can end in half a line.
  if (endable && !complete && rows.length > 1 && !isJson(rows.at(-1) ?? '')) rows.pop();
  const lines: RecordingLine[] = [];
  let lastSeq = -1;
  let ended = false;
  rows.slice(1).forEach((row, index) => {
    const lineNo = index + 2;
    if (ended) throw new RecordingError(file, lineNo, 'a line after the end line');
    if (row.trim() === '') throw new RecordingError(file, lineNo, 'blank line');
    const value = parseJson(row, file, lineNo);
    const type = typeof value === 'object' && value !== null && 'type' in value ? (value as { type: unknown }).type : undefined;
    if (typeof type !== 'string' || !(LINE_TYPES as readonly string[]).includes(type) || (type === 'end' && !endable)) {
      throw new RecordingError(file, lineNo, `unknown line type ${JSON.stringify(type)} (known: ${LINE_TYPES.join(', ')})`);
    }
    const result = bodyLineSchema.safeParse(value);
    if (!result.success) throw new RecordingError(file, lineNo, `bad ${type} line: ${describeIssues(result.error)}`);
    if (result.data.seq <= lastSeq) throw new RecordingError(file, lineNo, `seq ${result.data.seq} is not greater than the previous ${lastSeq}`);
    lastSeq = result.data.seq;
    if (result.data.type === 'end') ended = true;
    lines.push(result.data);
  });
  return { header, lines, ended: endable ? ended : null };
}

function parseHeader(row: string, file: string): RecordingHeader {
  const value = parseJson(row, file, 1);
  const result = headerSchema.safeParse(value);
  if (!result.success) {
    const first = typeof value === 'object' && value !== null && (value as { type?: unknown }).type;
    if (first !== 'header') throw new RecordingError(file, 1, 'the first line must be the header ({"type":"header","format":"belltower-recording",…})');
    throw new RecordingError(file, 1, `bad header: ${describeIssues(result.error)}`);
  }
  if (result.data.version > RECORDING_VERSION) {
    throw new RecordingError(file, 1, `recording format version ${result.data.version} is newer than this belltower reads (${RECORDING_VERSION}): upgrade belltower`);
  }
  try {
    resolveTiming(result.data.timing ?? {}); // the settings replay will run with: the live rules
  } catch (error) {
    if (error instanceof TimingError) throw new RecordingError(file, 1, `bad header: ${error.message}`);
    throw error;
  }
  return result.data;
}

function isJson(row: string): boolean {
  try {
    JSON.parse(row);
    return true;
  } catch {
    return false;
  }
}

function parseJson(row: string, file: string, lineNo: number): unknown {
  try {
    return JSON.parse(row);
  } catch (error) {
    throw new RecordingError(file, lineNo, `not JSON (${(error as Error).message})${row.length > 0 ? '' : ''}`);
  }
}

function describeIssues(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(line)'}: ${issue.message}`).join('; ');
}
