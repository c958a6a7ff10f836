/**
 * Gemini CLI hook calls → signals. Pure. (Observed on 0.61.0; see shared/facts/other-agents.md.)
 *
 * AfterAgent is Gemini's most reliable "turn ended". PreCompress fires inside ordinary turns
 * (trigger "auto") and has no end event, so it is not a quiet latch here.
 *
 * A turn that produced no text — an API error, or the user's Esc — still fires AfterAgent, with
 * the placeholder response NO_RESPONSE (seen on 0.61.0 for both; nothing in the hooks tells them
 * apart, the chat file does: transcript/gemini-chat.ts). It stays a turn end, but its detail must
 * not read as an 18-character answer.
 */
import { z } from 'zod';
import type { SignalBody, SourceSignal } from '../../verdict/signals.js';
import { lengthDetail, textLength } from './detail.js';
import { pick } from './for-recording.js';

const Base = z.object({ session_id: z.string() });
const Tool = Base.extend({ tool_name: z.string() });
// A number in a recording: the response's length, which is all that is read of it.
const AfterAgent = Base.extend({ prompt_response: z.union([z.string(), z.number()]).optional() });
const Notification = Base.extend({ notification_type: z.string(), message: z.string().optional(), details: z.object({ type: z.string().optional() }).passthrough().optional() });
const SessionEnd = Base.extend({ reason: z.string() });
const SessionStart = Base.extend({ source: z.string() });

/** Gemini's `prompt_response` when the turn produced no text (packages/core: fireAfterAgentHookSafe). */
export const NO_RESPONSE = '[no response text]';

export function geminiHookSignals(event: string, payload: unknown): SourceSignal[] {
  const body = mapEvent(event, payload);
  return body ? [{ ...body, source: 'hook' }] : [];
}

function mapEvent(event: string, payload: unknown): SignalBody | undefined {
  switch (event) {
    case 'BeforeAgent':
      // Fired as the prompt goes to the model (GeminiClient.sendMessageStream), not as it is typed:
      // a message typed mid-turn waits in the CLI's own queue until the turn ends.
      return Base.safeParse(payload).success ? { type: 'turn-start', real: true, begins: true } : undefined;
    case 'AfterAgent': {
      const p = AfterAgent.safeParse(payload);
      if (!p.success) return undefined;
      const response = p.data.prompt_response;
      const detail = response === NO_RESPONSE ? 'no response text (an API error or an interrupt)' : lengthDetail('response', response);
      return { type: 'turn-end', ...(detail ? { detail } : {}) };
    }
    case 'BeforeTool':
    case 'AfterTool': {
      const p = Tool.safeParse(payload);
      return p.success ? { type: 'working', detail: p.data.tool_name } : undefined;
    }
    case 'Notification': {
      const p = Notification.safeParse(payload);
      if (!p.success || p.data.notification_type !== 'ToolPermission') return undefined;
      // Its ask_user tool (a question with options, 0.61) asks for a "confirmation" too: the
      // details say it is a question.
      const kind = p.data.details?.type === 'ask_user' ? 'question' : 'permission';
      return { type: 'blocked', kind, ...(p.data.message ? { detail: p.data.message } : {}) };
    }
    case 'SessionEnd': {
      const p = SessionEnd.safeParse(payload);
      if (!p.success) return undefined;
      return p.data.reason === 'clear' ? { type: 'quiet-latch', why: 'clear', phase: 'begin' } : { type: 'session-end', reason: p.data.reason };
    }
    case 'SessionStart': {
      const p = SessionStart.safeParse(payload);
      if (!p.success) return undefined;
      if (p.data.source === 'clear') return { type: 'quiet-latch', why: 'clear', phase: 'end' };
      if (p.data.source === 'startup' || p.data.source === 'resume') return { type: 'at-rest', detail: `session ${p.data.source}` };
      return undefined;
    }
    default:
      return undefined;
  }
}

/** A Gemini hook payload as a recording keeps it: the fields mapEvent reads, the response as its
 * length (the no-response placeholder as it is). It maps to the same signals as the payload. */
export function geminiHookForRecording(_event: string, payload: Record<string, unknown>): Record<string, unknown> {
  const out = pick(payload, ['session_id', 'hook_event_name', 'tool_name', 'notification_type', 'reason', 'source']);
  // What a confirmation is about (`exec`, `edit`, `ask_user`: a question), never its words.
  const details = payload.details;
  if (typeof details === 'object' && details !== null && typeof (details as { type?: unknown }).type === 'string') out.details = { type: (details as { type: string }).type };
  if ('prompt_response' in payload) {
    const response = payload.prompt_response;
    out.prompt_response = response === NO_RESPONSE ? NO_RESPONSE : textLength(response);
  }
  return out;
}
