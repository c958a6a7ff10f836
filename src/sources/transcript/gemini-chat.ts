/**
 * The meaning of Gemini CLI chat records (`~/.gemini/tmp/<project>/chats/session-<date>-<id8>.jsonl`,
 * the hooks' `transcript_path`; observed on 0.61.0). Pure and stateless.
 *
 * Only what the hooks cannot say is read here. An API error and the user's Esc both end in
 * AfterAgent with the placeholder response "[no response text]"; the chat file tells them apart,
 * written just before that hook:
 *
 *   {"type":"error","content":"[API Error: {…}]"}          → failed
 *   {"type":"info","content":"Request cancelled."}          → interrupted
 *
 * Everything else (prompts, answers, `$set` updates of the session header) restates the hooks.
 */
import type { SourceSignal } from '../../verdict/signals.js';

const CANCELLED = 'Request cancelled.';
const DETAIL_MAX = 200;

export function geminiChatSignals(record: unknown): SourceSignal[] {
  if (!isObject(record) || typeof record.content !== 'string') return [];
  if (record.type === 'error') {
    const detail = record.content.length > DETAIL_MAX ? `${record.content.slice(0, DETAIL_MAX - 1)}…` : record.content;
    return [{ type: 'failed', detail, source: 'transcript' }];
  }
  if (record.type === 'info' && record.content === CANCELLED) return [{ type: 'interrupted', source: 'transcript' }];
  return [];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A chat record as a recording keeps it: its type, and of its content only what the reader looks
 * at — an error's first line (the stop reason, ≤ 200 characters) and the cancellation marker.
 * Prompts and answers are never recorded.
 */
export function geminiChatForRecording(record: unknown): unknown {
  if (!isObject(record)) return null;
  const type = typeof record.type === 'string' ? record.type : null;
  if (type === 'error' && typeof record.content === 'string') return { type, content: (record.content.split('\n', 1)[0] ?? '').slice(0, DETAIL_MAX) };
  if (type === 'info' && record.content === CANCELLED) return { type, content: CANCELLED };
  return { type, content: '' };
}

/** The reader in the shape agent profiles take (`{initial, read}`); chat records need no state. */
export const geminiChatReader = {
  initial: (): null => null,
  read: (state: null, record: unknown) => ({ state, signals: geminiChatSignals(record) }),
  forRecording: (record: unknown): unknown => geminiChatForRecording(record),
};
