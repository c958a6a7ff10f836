/**
 * The agent's own words about what it wants or did, read from evidence: the command a permission
 * prompt asks to approve, the last thing a finished turn said, the error a failed turn reported.
 * They tell a user what a tile needs without opening it (its notification, its compact row).
 *
 * Signals stay content-free (their details say how much an agent wrote, not what); these words
 * never reach the engine, a recording or a verdict line. Pure; unknown shapes give nothing.
 */
import type { Evidence } from '../record/format.js';
import { parsePsp } from '../sources/psp.js';
import { codexNotifyWords } from '../sources/hooks/codex-notify.js';

export type WordsFor = 'blocked' | 'done' | 'failed';

export interface AgentWords {
  /** The state these words explain. */
  for: WordsFor;
  text: string;
  /** A reminder of a request (a Notification): no news when a request already stands. */
  reminder?: true;
}

/** Longest text kept: a notification shows a line, not an essay. */
export const WORDS_MAX = 300;

export function agentWords(evidence: Evidence): AgentWords | null {
  switch (evidence.type) {
    case 'hook':
      return hookWords(evidence.event, evidence.payload);
    case 'notify': {
      // The turn's own final message: the hidden title thread's notify carries the title it made.
      const message = codexNotifyWords(evidence.payload);
      return message ? words('done', message) : null;
    }
    case 'osc': {
      if (evidence.code !== 7501 || evidence.payload === '?') return null;
      const parsed = parsePsp(evidence.payload);
      if (!parsed.ok || parsed.record.id !== undefined || !parsed.record.msg) return null;
      const state = parsed.record.state;
      if (state === 'blocked') return words('blocked', parsed.record.msg);
      if (state === 'done') return words('done', parsed.record.msg);
      if (state === 'error') return words('failed', parsed.record.msg);
      return null;
    }
    default:
      return null;
  }
}

function hookWords(event: string, payload: Record<string, unknown>): AgentWords | null {
  switch (event) {
    case 'PermissionRequest': {
      const tool = str(payload.tool_name);
      if (!tool) return null;
      const input = (payload.tool_input ?? {}) as Record<string, unknown>;
      const what = str(input.command) ?? str(input.file_path) ?? str(input.url) ?? str(input.description);
      return words('blocked', what ? `approve ${tool} \`${firstLine(what)}\`` : `approve ${tool}`);
    }
    case 'Notification': {
      // Claude: permission_prompt / elicitation; Gemini: ToolPermission. "Waiting for your input"
      // after a minute of rest is not a request.
      const type = str(payload.notification_type) ?? '';
      const message = str(payload.message);
      if (!message || type === 'idle_prompt') return null;
      const said = words('blocked', message);
      return said ? { ...said, reminder: true } : null;
    }
    case 'Stop': {
      const message = str(payload.last_assistant_message);
      return message ? words('done', message) : null;
    }
    case 'AfterAgent': {
      const response = str(payload.prompt_response);
      return response && response !== '[no response text]' ? words('done', response) : null;
    }
    case 'StopFailure': {
      const error = payload.error;
      const text = (typeof error === 'string' && error !== 'unknown' ? error : undefined) ?? str((error as { message?: unknown } | null)?.message) ?? str(payload.last_assistant_message);
      return text ? words('failed', text) : null;
    }
    default:
      return null;
  }
}

function words(state: WordsFor, text: string): AgentWords | null {
  const line = firstLine(text);
  if (line === '') return null;
  return { for: state, text: line.length > WORDS_MAX ? `${line.slice(0, WORDS_MAX - 1)}…` : line };
}

/** The first line that says something (answers often open with a blank line or a heading mark). */
function firstLine(text: string): string {
  for (const line of text.split('\n')) {
    const trimmed = line.replace(/^[#>*\s-]+/, '').trim();
    if (trimmed !== '') return trimmed;
  }
  return '';
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}
