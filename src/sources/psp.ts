/**
 * PSP source: OSC 7501, the Program Status Protocol (revision 0.2), from any program that speaks
 * it — Claude Code when the terminal answers its query, Codex unasked.
 *
 *   ESC ] 7501 ; key=value(:key=value)* ST      keys [a-z]+, values [A-Za-z0-9_.,+/=-]*
 *
 * A payload is parsed strictly (a malformed record is an error value with the reason, never an
 * exception and never a guess) and mapped to signals. Keys this revision does not define are
 * ignored, so a program speaking a later revision still reports its state.
 */
import type { BlockedKind, SourceSignal } from '../verdict/signals.js';

export const PSP_OSC_CODE = 7501;

export const PSP_STATES = ['idle', 'working', 'done', 'blocked', 'error', 'clear'] as const;
export type PspState = (typeof PSP_STATES)[number];

export const PSP_KINDS = ['permission', 'question', 'auth'] as const;
export type PspKind = (typeof PSP_KINDS)[number];

/** The protocol's size limits, in bytes unless named otherwise. */
export const PSP_LIMITS = Object.freeze({
  /** A whole sequence, ESC ] 7501 ; … ST. */
  sequence: 4096,
  id: 128,
  appChars: 32,
  /** Decoded. */
  title: 192,
  /** Decoded. */
  msg: 2048,
});

// `ESC ] 7501 ;` and the shorter terminator (BEL): the payload gets the rest of the 4096.
const SEQUENCE_OVERHEAD = 8;

export interface PspRecord {
  state: PspState;
  /** A child record's path (a background task, a subagent). */
  id?: string;
  kind?: PspKind;
  /** 0–100. */
  progress?: number;
  app?: string;
  /** Decoded from base64. */
  title?: string;
  /** Decoded from base64. */
  msg?: string;
}

export type PspParse = { ok: true; record: PspRecord } | { ok: false; reason: string };

const KEY = /^[a-z]+$/;
const VALUE = /^[A-Za-z0-9_.,+/=-]*$/;
const PROGRESS = /^\d{1,3}(\.\d+)?$/;

/** The feature query `ESC ] 7501 ; ? ST` (the terminal answers it; see Screen). */
export function isPspQuery(payload: string): boolean {
  return payload === '?';
}

const fail = (reason: string): PspParse => ({ ok: false, reason: `OSC 7501: ${reason}` });

/** Parse one OSC 7501 payload (what follows `7501;`). */
export function parsePsp(payload: string): PspParse {
  if (payload.length + SEQUENCE_OVERHEAD > PSP_LIMITS.sequence) {
    return fail(`sequence longer than ${PSP_LIMITS.sequence} bytes`);
  }
  if (payload === '') return fail('empty payload (state is required)');
  if (isPspQuery(payload)) return fail('this is the feature query, not a status record');

  const fields = new Map<string, string>();
  for (const field of payload.split(':')) {
    const eq = field.indexOf('=');
    if (eq < 0) return fail(`field "${field}" is not key=value`);
    const key = field.slice(0, eq);
    const value = field.slice(eq + 1);
    if (!KEY.test(key)) return fail(`key "${key}" is not [a-z]+`);
    if (!VALUE.test(value)) return fail(`value of ${key} has characters outside [A-Za-z0-9_.,+/=-]`);
    if (fields.has(key)) return fail(`key "${key}" appears twice`);
    fields.set(key, value);
  }

  const state = fields.get('state');
  if (state === undefined) return fail('state is required');
  if (!(PSP_STATES as readonly string[]).includes(state)) {
    return fail(`unknown state "${state}" (expected ${PSP_STATES.join('|')})`);
  }
  const record: PspRecord = { state: state as PspState };

  const id = fields.get('id');
  if (id !== undefined) {
    if (id === '') return fail('id is empty');
    if (id.length > PSP_LIMITS.id) return fail(`id longer than ${PSP_LIMITS.id} bytes`);
    record.id = id;
  }
  const kind = fields.get('kind');
  if (kind !== undefined) {
    if (!(PSP_KINDS as readonly string[]).includes(kind)) {
      return fail(`unknown kind "${kind}" (expected ${PSP_KINDS.join('|')})`);
    }
    record.kind = kind as PspKind;
  }
  const progress = fields.get('progress');
  if (progress !== undefined) {
    const n = Number(progress);
    if (!PROGRESS.test(progress) || n > 100) return fail(`progress "${progress}" is not a number from 0 to 100`);
    record.progress = n;
  }
  const app = fields.get('app');
  if (app !== undefined) {
    if (app.length > PSP_LIMITS.appChars) return fail(`app longer than ${PSP_LIMITS.appChars} characters`);
    record.app = app;
  }
  for (const key of ['title', 'msg'] as const) {
    const encoded = fields.get(key);
    if (encoded === undefined) continue;
    const bytes = decodeBase64(encoded);
    if (typeof bytes === 'string') return fail(`${key} is not valid base64: ${bytes}`);
    const limit = PSP_LIMITS[key];
    if (bytes.length > limit) return fail(`${key} longer than ${limit} bytes decoded`);
    record[key] = new TextDecoder().decode(bytes);
  }
  return { ok: true, record };
}

/**
 * The signals a record means.
 *
 * Without an id, the record is the program's own status. With an id it is a child record (a
 * background task or subagent the program tracks): only a child that is `working` or `blocked`
 * is open and gates the program's done. A child's `done`/`error` is its final word — it ended;
 * per the spec those records outlive the process as results, they are not running work — and an
 * `idle` child has no work in flight, so gating on either would hold a done for nothing. A
 * child's `error` is not the program's failed turn.
 */
export function pspRecordSignals(record: PspRecord): SourceSignal[] {
  const detail = describe(record);
  if (record.id !== undefined) {
    const open = record.state === 'working' || record.state === 'blocked';
    return [{ type: 'child', source: 'psp', id: record.id, open, detail }];
  }
  switch (record.state) {
    case 'idle':
      return [{ type: 'at-rest', source: 'psp', detail }];
    case 'working':
      return [{ type: 'working', source: 'psp', detail }];
    case 'done':
      return [{ type: 'turn-end', source: 'psp', detail }];
    case 'blocked':
      // Claude sends `blocked` without a kind for dialogs that are neither (e.g. "Auto mode can't
      // check actions"): still needs the user.
      return [{ type: 'blocked', source: 'psp', kind: (record.kind ?? 'other') satisfies BlockedKind, detail }];
    case 'error':
      return [{ type: 'failed', source: 'psp', detail }];
    case 'clear':
      // The program withdrew its status (Claude and Codex send it at exit): nothing in flight.
      return [{ type: 'at-rest', source: 'psp', detail }];
  }
}

/** Parse and map in one step; a malformed payload yields no signal and the reason. */
export function pspSignals(payload: string): { signals: SourceSignal[]; error?: string } {
  const parsed = parsePsp(payload);
  return parsed.ok ? { signals: pspRecordSignals(parsed.record) } : { signals: [], error: parsed.reason };
}

function describe(record: PspRecord): string {
  const parts = [`OSC 7501 ${record.state}`];
  if (record.kind) parts.push(record.kind);
  if (record.progress !== undefined) parts.push(`${record.progress}%`);
  const text = record.msg ?? record.title;
  return text ? `${parts.join(' ')}: ${text}` : parts.join(' ');
}

const BASE64_DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Standard or URL-safe base64, padded or not; the bytes, or why not. */
export function decodeBase64(text: string): Uint8Array | string {
  const padding = /=*$/.exec(text)?.[0].length ?? 0;
  const body = text.slice(0, text.length - padding).replace(/-/g, '+').replace(/_/g, '/');
  if (padding > 2) return 'too much padding';
  if (padding > 0 && text.length % 4 !== 0) return 'padding does not complete a 4-character group';
  if (body.length % 4 === 1) return 'truncated (length is 1 more than a multiple of 4)';
  const bytes = new Uint8Array(Math.floor((body.length * 3) / 4));
  let acc = 0;
  let bits = 0;
  let out = 0;
  for (const ch of body) {
    const digit = BASE64_DIGITS.indexOf(ch);
    if (digit < 0) return `"${ch}" is not a base64 digit`;
    acc = ((acc << 6) | digit) & 0xffff; // only the last 14 bits are ever read
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes[out++] = (acc >> bits) & 0xff;
    }
  }
  return bytes;
}

/**
 * An OSC 7501 payload as a recording keeps it: the record without its `title` and `msg` (free
 * text), re-written from what was parsed; a payload that does not parse becomes empty (it meant
 * nothing then, and means nothing now); the feature query stays as it is.
 */
export function pspForRecording(payload: string): string {
  if (isPspQuery(payload)) return payload;
  const parsed = parsePsp(payload);
  if (!parsed.ok) return '';
  const { state, id, kind, progress, app } = parsed.record;
  const fields = [`state=${state}`];
  if (id !== undefined) fields.push(`id=${id}`);
  if (kind !== undefined) fields.push(`kind=${kind}`);
  if (progress !== undefined) fields.push(`progress=${progress}`);
  if (app !== undefined) fields.push(`app=${app}`);
  return fields.join(':');
}
