/**
 * Claude Code hook calls → signals. Pure: (event, payload) → SourceSignal[].
 *
 * A payload that does not carry what its event needs yields no signal (never a throw): a hook
 * from a newer or older Claude must not take a tile down.
 */
import type { z } from 'zod';
import type { SignalBody, SourceSignal } from '../../verdict/signals.js';
import * as P from './claude-payloads.js';
import { errorDetail, lengthDetail } from './detail.js';

type Body = SignalBody;

const TASK_NOTIFICATION = '<task-notification>';

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
      return on(P.Prompt, payload, (p) => ({ type: 'turn-start', real: !p.prompt.trimStart().startsWith(TASK_NOTIFICATION) }));
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
        kind: 'permission',
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

function notification(p: z.infer<typeof P.Notification>): Body | undefined {
  const type = p.notification_type;
  // idle_prompt fires 60 s after a turn ended: it repeats what the Stop said. No new evidence.
  if (type === 'permission_prompt') return { type: 'blocked', kind: 'permission', ...(p.message ? { detail: p.message } : {}) };
  if (type === 'elicitation_dialog' || type.includes('question')) {
    return { type: 'blocked', kind: 'question', ...(p.message ? { detail: p.message } : {}) };
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
