/**
 * The meaning of Claude Code transcript records (see shared/facts/claude-code.md). Pure: a small
 * state goes in with each record and comes back out with the signals.
 *
 * - `system/turn_duration` is the main loop's end marker: a turn-end (with
 *   `pendingBackgroundAgentCount` as pendingAgents). Claude writes it even while background work
 *   runs, so it is gated exactly like a Stop — by the engine, not here.
 * - An `assistant` record with stop_reason end_turn and no tool awaiting its result ends the turn
 *   only if no turn_duration marker follows. A stream cannot see the future, so the state
 *   remembers the end_turn, a marker settles it, and `claudeTranscriptQuiet` (called when the
 *   file has been quiet for a while) releases it — but only for transcripts that have never
 *   written a marker (older Claude versions). Where markers are written, an end_turn without one
 *   is an interrupt, an error or a blocking Stop hook, never a finished turn.
 * - Working: a user prompt, a tool_use awaiting its result, a tool result awaiting the model.
 * - "[Request interrupted by user…]" → interrupted; an API error record → failed.
 * - `queue-operation` `remove`: a prompt queued mid-turn was taken into the running turn (or
 *   dropped) and starts no turn of its own.
 * - Metadata (file-history-snapshot, last-prompt, mode, permission-mode, attachments, summaries,
 *   local-command echoes, meta and sidechain records) changes nothing: it is appended late, at the
 *   next input, so the last line of the file is often not the meaningful one.
 *
 * VERIFY: record shapes follow the facts page and known 2.x transcripts; no captured transcript
 * was in fixtures/ when this was written. Check them against a real capture.
 */
import type { SignalBody, SourceSignal } from '../../verdict/signals.js';
import { pick } from '../hooks/for-recording.js';
import { isTaskNotification, TASK_NOTIFICATION } from '../task-notification.js';

export interface ClaudeTranscriptState {
  /** tool_use ids still waiting for their tool_result. */
  readonly openTools: readonly string[];
  /** An end_turn seen and not yet settled by a marker or by quiet. */
  readonly pendingEndTurn: boolean;
  /** This transcript writes turn_duration markers. */
  readonly writesMarkers: boolean;
}

export const INITIAL_CLAUDE_TRANSCRIPT: ClaudeTranscriptState = Object.freeze({
  openTools: [],
  pendingEndTurn: false,
  writesMarkers: false,
});

export interface Read {
  state: ClaudeTranscriptState;
  signals: SourceSignal[];
}

export const INTERRUPTED = '[Request interrupted by user';
/** Echoes of local slash commands (/clear, /model, …): the user did not start a model turn. */
const LOCAL_COMMAND = /^<(command-name|command-message|command-args|local-command-stdout|local-command-stderr|local-command-caveat)>/;

export function readClaudeRecord(state: ClaudeTranscriptState, record: unknown): Read {
  if (!isObject(record) || record.isSidechain === true) return unchanged(state);
  switch (record.type) {
    case 'system':
      return system(state, record);
    case 'assistant':
      return assistant(state, record);
    case 'user':
      return user(state, record);
    case 'queue-operation':
      // A prompt typed mid-turn waits in Claude's queue: `dequeue` starts its own turn (its user
      // record follows), `remove` takes it away without one (`absorbed_mid_turn`: fed into the
      // running turn; observed on 2.1.332).
      return record.operation === 'remove' ? emit(state, { type: 'queue-absorbed' }) : unchanged(state);
    default:
      return unchanged(state); // metadata and attachments
  }
}

/** The file has been quiet: an end_turn still unsettled, in a transcript without markers, ends the turn. */
export function claudeTranscriptQuiet(state: ClaudeTranscriptState): Read {
  if (!state.pendingEndTurn || state.writesMarkers || state.openTools.length > 0) return unchanged(state);
  return emit({ ...state, pendingEndTurn: false }, { type: 'turn-end', detail: 'end_turn without a turn_duration marker' });
}

function system(state: ClaudeTranscriptState, record: Record<string, unknown>): Read {
  if (record.subtype === 'turn_duration') {
    const pending = record.pendingBackgroundAgentCount;
    const duration = record.durationMs;
    return emit(
      { openTools: [], pendingEndTurn: false, writesMarkers: true },
      {
        type: 'turn-end',
        ...(typeof pending === 'number' ? { pendingAgents: pending } : {}),
        ...(typeof duration === 'number' ? { detail: `turn took ${Math.round(duration)} ms` } : {}),
      },
    );
  }
  // A retryable API error: Claude is still at it (the final failure is an assistant record).
  if (record.subtype === 'api_error') return emit(state, { type: 'working', detail: 'API error, retrying' });
  return unchanged(state);
}

function assistant(state: ClaudeTranscriptState, record: Record<string, unknown>): Read {
  const message = isObject(record.message) ? record.message : {};
  const blocks = Array.isArray(message.content) ? message.content.filter(isObject) : [];
  if (record.isApiErrorMessage === true) {
    const text = blocks.find((b) => b.type === 'text' && typeof b.text === 'string')?.text;
    return emit(reset(state), { type: 'failed', ...(typeof text === 'string' ? { detail: text.split('\n', 1)[0] } : {}) });
  }
  const tools = blocks.filter((b) => b.type === 'tool_use');
  if (tools.length > 0) {
    const ids = tools.map((b) => b.id).filter((id): id is string => typeof id === 'string');
    const name = tools.map((b) => b.name).find((n): n is string => typeof n === 'string');
    return emit(
      { ...state, openTools: [...state.openTools, ...ids], pendingEndTurn: false },
      { type: 'working', ...(name ? { detail: name } : {}) },
    );
  }
  if (message.stop_reason === 'end_turn' && state.openTools.length === 0) {
    return unchanged({ ...state, pendingEndTurn: true }); // settled by a marker, or by quiet
  }
  return emit(state, { type: 'working' }); // a text or thinking block mid-stream
}

function user(state: ClaudeTranscriptState, record: Record<string, unknown>): Read {
  if (record.isMeta === true || record.isCompactSummary === true) return unchanged(state);
  const content = isObject(record.message) ? record.message.content : undefined;
  const blocks = typeof content === 'string' ? [{ type: 'text', text: content }] : Array.isArray(content) ? content.filter(isObject) : [];
  const text = blocks.find((b) => b.type === 'text' && typeof b.text === 'string')?.text as string | undefined;
  if (text?.startsWith(INTERRUPTED)) return emit(reset(state), { type: 'interrupted' });

  const results = blocks.filter((b) => b.type === 'tool_result').map((b) => b.tool_use_id);
  if (results.length > 0) {
    const openTools = state.openTools.filter((id) => !results.includes(id));
    return emit({ ...state, openTools }, { type: 'working', detail: 'tool result' });
  }
  if (text !== undefined && LOCAL_COMMAND.test(text.trimStart())) return unchanged(state);
  if (blocks.length === 0) return unchanged(state);
  const real = !isTaskNotification(text ?? '');
  return emit(reset(state), { type: 'turn-start', real });
}

function reset(state: ClaudeTranscriptState): ClaudeTranscriptState {
  return { ...state, openTools: [], pendingEndTurn: false };
}

function emit(state: ClaudeTranscriptState, body: SignalBody): Read {
  return { state, signals: [{ ...body, source: 'transcript' }] };
}

function unchanged(state: ClaudeTranscriptState): Read {
  return { state, signals: [] };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The reader in the shape agent profiles take (`{initial, read}`). The quiet rule needs a clock:
 * whoever owns the timer applies `claudeTranscriptQuiet` (ClaudeTranscriptSource live; replay
 * from record times).
 */
export const claudeTranscriptReader = {
  initial: (): ClaudeTranscriptState => INITIAL_CLAUDE_TRANSCRIPT,
  read: readClaudeRecord,
  forRecording: (record: unknown): unknown => claudeRecordForRecording(record),
};

// Flags and numbers the reader looks at, kept as they are.
const KEPT_FIELDS = ['type', 'subtype', 'operation', 'isSidechain', 'isMeta', 'isCompactSummary', 'isApiErrorMessage', 'pendingBackgroundAgentCount', 'durationMs'];

/**
 * A Claude transcript record as a recording keeps it: its kind and flags, the kinds of its content
 * blocks, tool ids and names, the stop reason — and of its text only what the reader looks for (an
 * interrupt, a local command, a task notification; an API error's first line). A transcript holds
 * the whole conversation and the system prompt: none of it is recorded.
 */
export function claudeRecordForRecording(record: unknown): unknown {
  if (!isObject(record)) return null;
  const out = pick(record, KEPT_FIELDS);
  if (isObject(record.attachment) && typeof record.attachment.type === 'string') out.attachment = { type: record.attachment.type };
  if ((record.type === 'user' || record.type === 'assistant') && isObject(record.message)) {
    const message = record.message;
    const apiError = record.isApiErrorMessage === true;
    out.message = {
      ...(Object.hasOwn(message, 'stop_reason') ? { stop_reason: message.stop_reason } : {}),
      ...(Object.hasOwn(message, 'content') ? { content: contentForRecording(message.content, apiError) } : {}),
    };
  }
  return out;
}

function contentForRecording(content: unknown, apiError: boolean): unknown {
  if (typeof content === 'string') return textForRecording(content, apiError);
  if (!Array.isArray(content)) return null;
  return content.map((block: unknown) => {
    if (!isObject(block)) return null;
    switch (block.type) {
      case 'text':
        return { type: 'text', text: typeof block.text === 'string' ? textForRecording(block.text, apiError) : null };
      case 'tool_use':
        return { type: 'tool_use', id: block.id, name: block.name };
      case 'tool_result':
        return { type: 'tool_result', tool_use_id: block.tool_use_id };
      default:
        return { type: block.type };
    }
  });
}

/** What the reader looks for in a text, and nothing else. */
function textForRecording(text: string, apiError: boolean): string {
  if (apiError) return (text.split('\n', 1)[0] ?? '').slice(0, 200);
  if (text.startsWith(INTERRUPTED)) return INTERRUPTED;
  const trimmed = text.trimStart();
  const local = LOCAL_COMMAND.exec(trimmed);
  if (local) return local[0];
  return isTaskNotification(trimmed) ? TASK_NOTIFICATION : '';
}
