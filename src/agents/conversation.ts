/**
 * The agent's own conversation a tile carries on, so that a restored tile resumes it: the id
 * belltower gives a fresh Claude Code or Gemini CLI session, or the one an agent reports (Codex's
 * thread, Claude's new session after /clear), and the arguments that start it fresh or resume it.
 *
 * Checked on the pinned binaries, offline against the fake APIs (the resumed agent sent the
 * earlier messages with the next prompt):
 *
 *   claude --session-id <uuid>   claude --resume <uuid>       unknown: exit 1, "No conversation found with session ID: …"
 *   codex  (picks its own id)    codex resume <thread-id>     unknown: exit 1, "ERROR: No saved session found with ID …"
 *   gemini --session-id <uuid>   gemini --resume <uuid>       unknown: exit 42, "Error resuming session: Invalid session identifier …"
 *
 * (Claude Code 2.1.332, Codex 0.171.0, Gemini CLI 0.61.0.)
 */
import { randomUUID } from 'node:crypto';
import type { Evidence } from '../record/format.js';
import type { AgentName } from './profile.js';

export interface Conversation {
  /** The agent's session (Claude, Gemini) or thread (Codex) id. */
  id: string;
  /** Resume it (a restored tile), rather than start it under this id. */
  resume: boolean;
}

/** What an id from an agent's payload must look like before it goes on a command line. */
const ID_SHAPE = /^[A-Za-z0-9][A-Za-z0-9-]{7,63}$/;

export function isConversationId(id: unknown): id is string {
  return typeof id === 'string' && ID_SHAPE.test(id);
}

/** The conversation a fresh tile starts: an id of belltower's choosing where the agent takes one. */
export function freshConversation(agent: AgentName, newId: () => string = randomUUID): Conversation | null {
  return agent === 'claude' || agent === 'gemini' ? { id: newId(), resume: false } : null;
}

/** The arguments that start or resume `conversation` (before the user's own). */
export function conversationArgs(agent: AgentName, conversation: Conversation | null): string[] {
  if (!conversation) return [];
  switch (agent) {
    case 'claude':
    case 'gemini':
      return conversation.resume ? ['--resume', conversation.id] : ['--session-id', conversation.id];
    case 'codex':
      // A subcommand: it goes after the global options (-c) and before the user's.
      return conversation.resume ? ['resume', conversation.id] : [];
    case 'shell':
    case 'command':
      return [];
  }
}

const TITLE_THREAD = 'Generate a concise, single-line task title';

/**
 * The conversation id the agent reports in this evidence, if any: `session_id` in Claude's and
 * Gemini's hook payloads (a /clear starts a new one) and in Codex's hooks; `thread-id` in Codex's
 * notify, except for the hidden title thread of its first turn.
 */
export function reportedConversation(agent: AgentName, evidence: Evidence): string | null {
  if (evidence.type === 'hook' && (agent === 'claude' || agent === 'gemini' || agent === 'codex')) {
    const id = evidence.payload.session_id;
    return isConversationId(id) ? id : null;
  }
  if (evidence.type === 'notify' && agent === 'codex') {
    const inputs = evidence.payload['input-messages'];
    const first = Array.isArray(inputs) ? inputs[0] : undefined;
    if (typeof first === 'string' && first.trimStart().startsWith(TITLE_THREAD)) return null;
    const id = evidence.payload['thread-id'];
    return isConversationId(id) ? id : null;
  }
  return null;
}

/**
 * Whether a conversation the agent just reported already holds a prompt. Codex reports a thread
 * only once it has one (its SessionStart hook fires at a thread's first prompt, its notify at a
 * turn's end); Claude and Gemini report theirs at start-up and after /clear, still empty.
 */
export function reportedWhenUsed(agent: AgentName): boolean {
  return agent === 'codex';
}

/** Options that take a value, per agent (from each pinned binary's --help). */
const VALUE_OPTIONS: Readonly<Partial<Record<AgentName, ReadonlySet<string>>>> = {
  claude: new Set(
    (
      '--add-dir --agent --agents --append-system-prompt --autocompact --betas --debug-file --effort --environment ' +
      '--fallback-model --file --input-format --json-schema --max-budget-usd --mcp-config --model -n --name ' +
      '--output-format --permission-mode --permission-prompts --plugin-dir --plugin-url ' +
      '--remote-control-session-name-prefix --session-id --setting-sources --settings --system-prompt ' +
      '--system-prompt-snapshot --tools --resume -r'
    ).split(' '),
  ),
  codex: new Set('-c --config --enable --disable --remote --remote-auth-token-env -i --image -m --model --local-provider -p --profile -s --sandbox -C --cd --add-dir -a --ask-for-approval'.split(' ')),
  gemini: new Set(
    (
      '-m --model -p --prompt -i --prompt-interactive -w --worktree --approval-mode --policy --admin-policy ' +
      '--allowed-mcp-server-names --allowed-tools -e --extensions -r --resume --session-file --session-id ' +
      '--delete-session --include-directories -o --output-format'
    ).split(' '),
  ),
};

/** Options whose value is a prompt to submit (Gemini's `-i "fix the tests"`). */
const PROMPT_OPTIONS: Readonly<Partial<Record<AgentName, ReadonlySet<string>>>> = {
  gemini: new Set(['-i', '--prompt-interactive']),
};

/**
 * The user's arguments for a resumed conversation: without the prompt they started it with
 * (`claude "fix the tests"`), which the resumed agent would otherwise submit a second time.
 */
export function argsForResume(agent: AgentName, args: readonly string[]): string[] {
  const values = VALUE_OPTIONS[agent] ?? new Set<string>();
  const prompts = PROMPT_OPTIONS[agent] ?? new Set<string>();
  const kept: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!;
    if (word === '--') break; // everything after it is positional
    if (!word.startsWith('-')) continue; // a positional: the prompt
    if (prompts.has(word)) {
      i++;
      continue;
    }
    kept.push(word);
    if (values.has(word) && i + 1 < args.length) kept.push(args[++i]!);
  }
  return kept;
}
