/**
 * Codex `notify` JSON → signals. Pure. (Observed on 0.171.0; see shared/facts/other-agents.md.)
 *
 * Codex runs the notify program at each turn end with one JSON argument. The first turn also
 * fires one for a hidden title thread (another thread-id) whose first input asks for a task
 * title: that is not the user's turn ending, so it is dropped.
 */
import { z } from 'zod';
import type { SourceSignal } from '../../verdict/signals.js';
import { lengthDetail } from './detail.js';

const TITLE_REQUEST = 'Generate a concise, single-line task title';

const TurnComplete = z.object({
  type: z.literal('agent-turn-complete'),
  'input-messages': z.array(z.unknown()).optional(),
  'last-assistant-message': z.string().nullable().optional(),
});

export function codexNotifySignals(payload: unknown): SourceSignal[] {
  const parsed = TurnComplete.safeParse(payload);
  if (!parsed.success) return [];
  const first = parsed.data['input-messages']?.[0];
  if (typeof first === 'string' && first.trimStart().startsWith(TITLE_REQUEST)) return [];
  const detail = lengthDetail('last message', parsed.data['last-assistant-message']);
  return [{ type: 'turn-end', ...(detail ? { detail } : {}), source: 'notify' }];
}
