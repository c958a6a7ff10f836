/**
 * Codex `notify` JSON → signals. Pure. (Observed on 0.171.0; see shared/facts/other-agents.md.)
 *
 * Codex runs the notify program at each turn end with one JSON argument. The first turn also
 * fires one for a hidden title thread (another thread-id) whose first input asks for a task
 * title: that is not the user's turn ending, so it is dropped.
 */
import { z } from 'zod';
import type { SourceSignal } from '../../verdict/signals.js';
import { lengthDetail, textLength } from './detail.js';
import { pick } from './for-recording.js';

/** How the first input of Codex's hidden title thread starts. */
export const TITLE_REQUEST = 'Generate a concise, single-line task title';

const TurnComplete = z.object({
  type: z.literal('agent-turn-complete'),
  'input-messages': z.array(z.unknown()).optional(),
  // A number in a recording: the message's length, which is all that is read of it.
  'last-assistant-message': z.union([z.string(), z.number()]).nullable().optional(),
});

/** Codex's own request for a thread title: a turn of its own, not the user's. */
function isTitleRequest(input: unknown): boolean {
  return typeof input === 'string' && input.trimStart().startsWith(TITLE_REQUEST);
}

export function codexNotifySignals(payload: unknown): SourceSignal[] {
  const parsed = TurnComplete.safeParse(payload);
  if (!parsed.success) return [];
  const first = parsed.data['input-messages']?.[0];
  if (isTitleRequest(first)) return [];
  const detail = lengthDetail('last message', parsed.data['last-assistant-message']);
  return [{ type: 'turn-end', ...(detail ? { detail } : {}), source: 'notify' }];
}

/**
 * The turn's own final message, for the tile's words (`says`, the notification): the
 * `last-assistant-message` of the user's thread only. The hidden title thread's notify carries the
 * generated title there ("Fake task title" against the fake API) and comes during the first turn
 * — before its end, or after it (3 of 7 live runs): taken as words, the title replaced the answer.
 * Null when the payload is no turn end, is the title thread's, or has no message.
 */
export function codexNotifyWords(payload: unknown): string | null {
  const parsed = TurnComplete.safeParse(payload);
  if (!parsed.success || isTitleRequest(parsed.data['input-messages']?.[0])) return null;
  const message = parsed.data['last-assistant-message'];
  return typeof message === 'string' && message.length > 0 ? message : null;
}

/** A notify payload as a recording keeps it: its type and ids, whether its first input is the
 * title request, and the last message's length. It maps to the same signals as the payload. */
export function codexNotifyForRecording(payload: Record<string, unknown>): Record<string, unknown> {
  const out = pick(payload, ['type', 'thread-id', 'turn-id']);
  if ('input-messages' in payload) {
    const inputs = payload['input-messages'];
    const first: unknown = Array.isArray(inputs) ? inputs[0] : undefined;
    out['input-messages'] = !Array.isArray(inputs) ? null : inputs.length === 0 ? [] : [isTitleRequest(first) ? TITLE_REQUEST : ''];
  }
  if ('last-assistant-message' in payload) out['last-assistant-message'] = textLength(payload['last-assistant-message']);
  return out;
}

/**
 * A Codex hook as a recording keeps it (belltower adds only SessionStart, to learn its rollout):
 * the event, the session, where it started from, and the rollout file's name — never the folder
 * path (it names the user and the project).
 */
export function codexHookForRecording(_event: string, payload: Record<string, unknown>): Record<string, unknown> {
  const out = pick(payload, ['session_id', 'hook_event_name', 'source']);
  const path = payload.transcript_path;
  if (typeof path === 'string') out.transcript_path = path.split(/[\\/]/).at(-1) ?? '';
  return out;
}
