/**
 * The meaning of Codex rollout records (`$CODEX_HOME/sessions/YYYY/MM/DD/rollout-…-<thread>.jsonl`,
 * observed on 0.171.0). Pure and stateless: each turn is bracketed by explicit events.
 *
 *   {"type":"event_msg","payload":{"type":"task_started",…}}   → turn-start
 *   {"type":"event_msg","payload":{"type":"task_complete","duration_ms":…}} → turn-end
 *   {"type":"event_msg","payload":{"type":"turn_aborted","reason":"interrupted"}} → interrupted
 *
 * Records can follow the end marker (a background job's completion): they say nothing here.
 */
import type { SourceSignal } from '../../verdict/signals.js';

export function codexRolloutSignals(record: unknown): SourceSignal[] {
  if (!isObject(record) || record.type !== 'event_msg' || !isObject(record.payload)) return [];
  const payload = record.payload;
  switch (payload.type) {
    case 'task_started':
      return [{ type: 'turn-start', real: true, source: 'transcript' }];
    case 'task_complete': {
      const ms = payload.duration_ms;
      return [{ type: 'turn-end', ...(typeof ms === 'number' ? { detail: `turn took ${Math.round(ms)} ms` } : {}), source: 'transcript' }];
    }
    case 'turn_aborted':
      return [{ type: 'interrupted', source: 'transcript' }];
    default:
      return [];
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The reader in the shape agent profiles take (`{initial, read}`); rollouts need no state. */
export const codexRolloutReader = {
  initial: (): null => null,
  read: (state: null, record: unknown) => ({ state, signals: codexRolloutSignals(record) }),
  forRecording: (record: unknown): unknown => codexRecordForRecording(record),
};

/** A rollout record as a recording keeps it: its type, and its event's type, duration and reason. */
export function codexRecordForRecording(record: unknown): unknown {
  if (!isObject(record)) return null;
  const payload = isObject(record.payload) ? record.payload : undefined;
  const kept: Record<string, unknown> = {};
  if (payload) for (const key of ['type', 'duration_ms', 'reason']) if (Object.hasOwn(payload, key)) kept[key] = payload[key];
  return { type: record.type, ...(payload ? { payload: kept } : {}) };
}
