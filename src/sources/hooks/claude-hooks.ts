/**
 * Claude Code hook calls → signals. Pure: (event, payload) → SourceSignal[].
 *
 * A payload that does not carry what its event needs yields no signal (never a throw): a hook
 * from a newer or older Claude must not take a tile down.
 */
import type { z } from 'zod';
import type { SignalBody, SourceSignal } from '../../verdict/signals.js';
import * as P from './claude-payloads.js';
import { errorDetail, firstLine, lengthDetail, textLength } from './detail.js';
import { pick, tasksForRecording } from './for-recording.js';
import { isTaskNotification, TASK_NOTIFICATION } from '../task-notification.js';

type Body = SignalBody;

export function claudeHookSignals(event: string, payload: unknown): SourceSignal[] {
  return mapEvent(event, payload).map((body) => ({ ...body, source: 'hook' as const }));
}

/**
 * The transcript a SessionStart points at. /clear starts a new file (a new session id), and the
 * startup SessionStart corrects a precomputed path; other events may arrive late from the old
 * session, so only SessionStart moves the tail.
 */
export function claudeTranscriptSwitch(event: string, payload: unknown): string | undefined {
  if (event !== 'SessionStart') return undefined;
  return parse(P.SessionStart, payload)?.transcript_path;
}

function mapEvent(event: string, payload: unknown): Body[] {
  switch (event) {
    case 'UserPromptSubmit':
      return on(P.Prompt, payload, (p) => ({ type: 'turn-start', real: !isTaskNotification(p.prompt) }));
    case 'PreToolUse':
    case 'PostToolUse':
    case 'PostToolUseFailure':
      return on(P.Tool, payload, (p) => ({ type: 'working', detail: p.tool_name }));
    case 'Stop':
      return on(P.Stop, payload, (p) => {
        const background = P.runningTasks(p.background_tasks);
        const detail = lengthDetail(p.stop_hook_active ? 'last message (after a Stop hook)' : 'last message', p.last_assistant_message);
        return { type: 'turn-end', ...(background ? { background } : {}), ...(detail ? { detail } : {}) };
      });
    case 'StopFailure':
      return on(P.StopFailure, payload, (p) => ({ type: 'failed', detail: errorDetail(p.error, p.last_assistant_message) }));
    case 'PermissionRequest':
      return on(P.PermissionRequest, payload, (p) => ({
        type: 'blocked',
        // AskUserQuestion goes through the permission flow too; it is a question. Said first by
        // this hook or by OSC 7501 (kind=question), whichever the load lets arrive first.
        kind: p.tool_name === 'AskUserQuestion' ? 'question' : 'permission',
        ...(p.tool_name ? { detail: `approve ${p.tool_name}` } : {}),
      }));
    case 'Notification':
      return on(P.Notification, payload, notification);
    case 'SessionEnd':
      return on(P.SessionEnd, payload, (p) =>
        p.reason === 'clear' ? { type: 'quiet-latch', why: 'clear', phase: 'begin' } : { type: 'session-end', reason: p.reason },
      );
    case 'SessionStart':
      return on(P.SessionStart, payload, sessionStart);
    case 'PreCompact':
      return on(P.Base, payload, () => ({ type: 'quiet-latch', why: 'compact', phase: 'begin' }));
    case 'PostCompact':
      return on(P.Base, payload, () => ({ type: 'quiet-latch', why: 'compact', phase: 'end' }));
    case 'SubagentStart':
      return on(P.Subagent, payload, (p) => ({ type: 'subagent-start', id: p.agent_id }));
    case 'SubagentStop':
      return on(P.Subagent, payload, (p) => {
        const background = P.runningTasks(p.background_tasks, p.agent_id);
        return { type: 'subagent-stop', id: p.agent_id, ...(background ? { background } : {}) };
      });
    case 'TeammateIdle':
      return on(P.TeammateIdle, payload, (p) => ({ type: 'teammate-idle', name: p.teammate_name }));
    default:
      return [];
  }
}

/**
 * A Notification without a `notification_type` (Claude Code before 2.0.37: 1.0.128 sends
 * `{message: "Claude needs your permission to use Bash"}` ~6 s after drawing the dialog, and "Claude
 * is waiting for your input" 60 s after a turn) is read by its words: only the permission one
 * says anything new.
 */
const UNTYPED_PERMISSION = 'Claude needs your permission';

/** The fixed words of an untyped permission Notification, or undefined: all that is read of it
 * (the tool named after them is the agent's text; the tile's words come from the evidence). */
function untypedPermission(message: unknown): string | undefined {
  return typeof message === 'string' && /^Claude needs your permission\b/.test(message) ? UNTYPED_PERMISSION : undefined;
}

function notification(p: z.infer<typeof P.Notification>): Body | undefined {
  const type = p.notification_type;
  if (type === undefined) {
    const words = untypedPermission(p.message);
    return words ? { type: 'blocked', kind: 'permission', reminder: true, detail: words } : undefined;
  }
  // idle_prompt fires 60 s after a turn ended: it repeats what the Stop said. No new evidence.
  // A reminder: before Claude Code had PermissionRequest it was the request's only hook, and it
  // still is for a dialog no other hook announces; once a request stands it adds nothing.
  if (type === 'permission_prompt') return { type: 'blocked', kind: 'permission', reminder: true, ...(p.message ? { detail: p.message } : {}) };
  if (type === 'elicitation_dialog' || type.includes('question')) {
    return { type: 'blocked', kind: 'question', reminder: true, ...(p.message ? { detail: p.message } : {}) };
  }
  return undefined;
}

function sessionStart(p: z.infer<typeof P.SessionStart>): Body | undefined {
  switch (p.source) {
    case 'clear':
      return { type: 'quiet-latch', why: 'clear', phase: 'end' };
    case 'compact':
      return { type: 'quiet-latch', why: 'compact', phase: 'end' };
    case 'startup':
    case 'resume':
      // At start-up the agent sits at its prompt: at rest, but no finished turn to announce.
      return { type: 'at-rest', detail: `session ${p.source}` };
    default:
      return undefined;
  }
}

function parse<S extends z.ZodType>(schema: S, payload: unknown): z.infer<S> | undefined {
  const result = schema.safeParse(payload);
  return result.success ? result.data : undefined;
}

function on<S extends z.ZodType>(schema: S, payload: unknown, map: (p: z.infer<S>) => Body | undefined): Body[] {
  const parsed = parse(schema, payload);
  if (parsed === undefined) return [];
  const body = map(parsed);
  return body ? [body] : [];
}

/**
 * A Claude hook payload as a recording keeps it: the fields mapEvent reads, with each free text
 * reduced to what is read of it — a prompt to whether it is a task notification, a last message
 * to its length, an error to its first line. It maps to the same signals as the payload.
 */
export function claudeHookForRecording(event: string, payload: Record<string, unknown>): Record<string, unknown> {
  const out = pick(payload, ['session_id', 'hook_event_name', 'belltower_truncated']);
  switch (event) {
    case 'UserPromptSubmit':
      if ('prompt' in payload) out.prompt = typeof payload.prompt === 'string' ? (isTaskNotification(payload.prompt) ? TASK_NOTIFICATION : '') : null;
      break;
    case 'PreToolUse':
    case 'PostToolUse':
    case 'PostToolUseFailure':
    case 'PermissionRequest':
      Object.assign(out, pick(payload, ['tool_name']));
      break;
    case 'Stop':
      Object.assign(out, pick(payload, ['stop_hook_active']), tasksForRecording(payload));
      if ('last_assistant_message' in payload) out.last_assistant_message = textLength(payload.last_assistant_message);
      break;
    case 'StopFailure':
      if ('error' in payload) out.error = errorForRecording(payload.error);
      if ('last_assistant_message' in payload) {
        const last = payload.last_assistant_message;
        out.last_assistant_message = typeof last === 'string' ? firstLine(last) : null;
      }
      break;
    case 'Notification':
      Object.assign(out, pick(payload, ['notification_type']));
      // Without a type the words are what is read: keep the fixed words that mean something.
      if (!('notification_type' in payload) && untypedPermission(payload.message)) out.message = untypedPermission(payload.message);
      break;
    case 'SessionEnd':
      Object.assign(out, pick(payload, ['reason']));
      break;
    case 'SessionStart':
      Object.assign(out, pick(payload, ['source']));
      break;
    case 'SubagentStart':
    case 'SubagentStop':
      Object.assign(out, pick(payload, ['agent_id']), tasksForRecording(payload));
      break;
    case 'TeammateIdle':
      Object.assign(out, pick(payload, ['teammate_name']));
      break;
  }
  return out;
}

function errorForRecording(error: unknown): unknown {
  if (typeof error === 'string') return firstLine(error);
  if (typeof error === 'object' && error !== null) {
    const message = (error as { message?: unknown }).message;
    return typeof message === 'string' ? { message: firstLine(message) } : {};
  }
  return error;
}
