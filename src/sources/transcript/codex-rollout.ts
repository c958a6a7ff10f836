/**
 * The meaning of Codex rollout records (`$CODEX_HOME/sessions/YYYY/MM/DD/rollout-…-<thread>.jsonl`,
 * observed on 0.171.0). Pure and stateless: each turn is bracketed by explicit events.
 *
 *   {"type":"event_msg","payload":{"type":"task_started",…}}   → turn-start
 *   {"type":"event_msg","payload":{"type":"task_complete","duration_ms":…}} → turn-end
 *   {"type":"event_msg","payload":{"type":"turn_aborted","reason":"interrupted"}} → interrupted
 *
 * A command still running when Codex hands back to the model (a background job) is a tool output
 * that says `Process running with session ID N`; its `item_completed` (CommandExecution, the call
 * id as its id) comes when the process ends — after `task_complete` when the turn ended first, which
 * Codex does (and says `done`) while the job runs. Each such job is a child that gates the done.
 */
import type { SourceSignal } from '../../verdict/signals.js';
import { pick } from '../hooks/for-recording.js';

const STILL_RUNNING = /Process running with session ID \d+/;

export function codexRolloutSignals(record: unknown): SourceSignal[] {
  if (!isObject(record) || !isObject(record.payload)) return [];
  // Every record says when Codex wrote it (`timestamp`, ISO 8601 with milliseconds): the tail reads
  // it later — 90 ms later for the first records, which wait for SessionStart to name the file —
  // sometimes after OSC 7501 has said something newer.
  const wall = typeof record.timestamp === 'string' ? Date.parse(record.timestamp) : Number.NaN;
  const signals = meaning(record.type, record.payload);
  return Number.isFinite(wall) ? signals.map((signal) => ({ ...signal, wall })) : signals;
}

function meaning(type: unknown, payload: Record<string, unknown>): SourceSignal[] {
  if (type === 'response_item') return responseItem(payload);
  if (type !== 'event_msg') return [];
  switch (payload.type) {
    case 'task_started':
      return [{ type: 'turn-start', real: true, source: 'transcript' }];
    case 'task_complete': {
      const ms = payload.duration_ms;
      return [{ type: 'turn-end', ...(typeof ms === 'number' ? { detail: `turn took ${Math.round(ms)} ms` } : {}), source: 'transcript' }];
    }
    case 'turn_aborted':
      return [{ type: 'interrupted', source: 'transcript' }];
    case 'item_completed': {
      const item = payload.item;
      if (!isObject(item) || item.type !== 'CommandExecution' || typeof item.id !== 'string') return [];
      // Closing a command that never ran in the background changes nothing.
      return [{ type: 'child', id: item.id, open: false, detail: 'command finished', source: 'transcript' }];
    }
    default:
      return [];
  }
}

function responseItem(payload: Record<string, unknown>): SourceSignal[] {
  if (payload.type !== 'function_call_output' || typeof payload.call_id !== 'string') return [];
  const text = outputText(payload.output);
  if (!STILL_RUNNING.test(text)) return [];
  return [{ type: 'child', id: payload.call_id, open: true, detail: 'a command still running', source: 'transcript' }];
}

/** A tool output is a string, or content items with text. */
function outputText(output: unknown): string {
  if (typeof output === 'string') return output;
  if (Array.isArray(output)) return output.map((item) => (isObject(item) && typeof item.text === 'string' ? item.text : '')).join('\n');
  if (isObject(output) && typeof output.content === 'string') return output.content;
  return '';
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

/**
 * A rollout record as a recording keeps it: its type and timestamp; its event's type, duration and
 * reason; a tool output's call id and, of its text, only the "still running" marker; a completed
 * command's id. Commands, outputs and messages are never recorded.
 */
export function codexRecordForRecording(record: unknown): unknown {
  if (!isObject(record)) return null;
  const timestamp = typeof record.timestamp === 'string' ? { timestamp: record.timestamp } : {};
  const payload = isObject(record.payload) ? record.payload : undefined;
  const kept = payload ? pick(payload, ['type', 'duration_ms', 'reason', 'call_id']) : {};
  if (payload) {
    if (payload.type === 'function_call_output') kept.output = STILL_RUNNING.exec(outputText(payload.output))?.[0] ?? '';
    if (isObject(payload.item) && payload.item.type === 'CommandExecution') kept.item = { type: payload.item.type, id: payload.item.id };
  }
  return { ...timestamp, type: record.type, ...(payload ? { payload: kept } : {}) };
}
