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
    case 'transcript':
      return transcriptWords(evidence.record);
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
      // Claude asks to leave plan mode with the plan as its input: what is approved is the plan.
      if (tool === 'ExitPlanMode') return words('blocked', 'approve plan');
      if (tool === 'AskUserQuestion') return questionWords((payload.tool_input as { questions?: unknown } | undefined)?.questions);
      const input = (payload.tool_input ?? {}) as Record<string, unknown>;
      const file = str(input.file_path) ?? str(input.notebook_path);
      const what = str(input.command) ?? (file ? relativeTo(str(payload.cwd), file) : undefined) ?? str(input.url) ?? str(input.description);
      return words('blocked', what ? `approve ${tool} \`${firstLine(what)}\`` : `approve ${tool}`);
    }
    case 'Notification': {
      // Claude: permission_prompt / elicitation; Gemini: ToolPermission. "Waiting for your input"
      // after a minute of rest is not a request.
      const type = str(payload.notification_type) ?? '';
      // Gemini's ToolPermission names what it asks in its details (its message only says "Tool
      // Confirm Shell Command requires execution").
      const asked = type === 'ToolPermission' ? geminiAsks(payload.details, str(payload.cwd)) : undefined;
      // A question's confirmation says only "Tool requires confirmation": its words came with BeforeTool.
      if (type === 'ToolPermission' && (payload.details as { type?: unknown } | undefined)?.type === 'ask_user') return null;
      const message = asked ?? str(payload.message);
      if (!message || type === 'idle_prompt') return null;
      const said = words('blocked', message);
      return said ? { ...said, reminder: true } : null;
    }
    case 'BeforeTool': {
      // Gemini's ask_user (0.61): the question it is about to put to the user, with its options.
      return payload.tool_name === 'ask_user' ? questionWords((payload.tool_input as { questions?: unknown } | undefined)?.questions) : null;
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

/** What Gemini CLI's confirmation asks, from its Notification's details (0.61: `{type: "exec",
 * command, rootCommand}`, `{type: "edit", fileName, filePath}`, `{type: "mcp", toolName}`). */
function geminiAsks(details: unknown, cwd: string | undefined): string | undefined {
  if (typeof details !== 'object' || details === null) return undefined;
  const d = details as Record<string, unknown>;
  const command = str(d.command);
  if (d.type === 'exec' && command) return `approve Shell \`${firstLine(command)}\``;
  const file = str(d.filePath) ?? str(d.fileName);
  if (d.type === 'edit' && file) return `approve Edit \`${relativeTo(cwd, file)}\``;
  const tool = str(d.toolName);
  if (d.type === 'mcp' && tool) return `approve ${tool}`;
  return undefined;
}

/** A path inside `cwd` as the user thinks of it there (`src/app.ts`); any other as given. */
function relativeTo(cwd: string | undefined, file: string): string {
  if (!cwd || !file.startsWith('/')) return file;
  const base = cwd.endsWith('/') ? cwd : `${cwd}/`;
  return file.startsWith(base) && file.length > base.length ? file.slice(base.length) : file;
}

/** Codex's request_user_input (0.171), as its rollout records the call: the question it asks. */
function transcriptWords(record: unknown): AgentWords | null {
  const payload = (record as { type?: unknown; payload?: Record<string, unknown> } | null)?.payload;
  if ((record as { type?: unknown } | null)?.type !== 'response_item' || payload?.type !== 'function_call' || payload.name !== 'request_user_input') return null;
  try {
    return questionWords((JSON.parse(String(payload.arguments)) as { questions?: unknown }).questions);
  } catch {
    return null;
  }
}

/** The first question of a list the agent asks (`{question, …}`), and how many more follow. */
function questionWords(questions: unknown): AgentWords | null {
  if (!Array.isArray(questions) || questions.length === 0) return null;
  const first = str((questions[0] as { question?: unknown } | null)?.question);
  if (!first) return null;
  const more = questions.length > 1 ? ` (and ${questions.length - 1} more)` : '';
  return words('blocked', `${firstLine(first)}${more}`);
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
