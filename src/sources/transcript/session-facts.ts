/**
 * What a session's own log says about it besides its state: the model, how much it has written,
 * and how full its context is. Read from Claude transcripts (an `assistant` record's
 * `message.model` and `message.usage`), Codex rollouts (`turn_context.model`, `event_msg`
 * `token_count`) and Gemini CLI chats (a `gemini` message's `model` and `tokens`). Pure; records that do not fit change nothing. Never feeds the engine.
 */

export interface SessionFacts {
  model?: string;
  /** Tokens the last model call read (the prompt, cached or not): the context in use. */
  contextTokens?: number;
  /** The model's context window, where the log says it or the model name implies it. */
  contextWindow?: number;
  /** Tokens the agent wrote in this session. */
  outputTokens?: number;
  /** Tokens this session used: every model call's prompt (cached or not) and what it wrote, as
   * the agent's log counts them (Codex: its `total_tokens`). */
  totalTokens?: number;
  /** Message ids already counted (Claude writes one record per content block of a message). */
  counted?: readonly string[];
}

/** Claude's default context window; a `[1m]` model has a million. */
const CLAUDE_WINDOW = 200_000;
const CLAUDE_LONG_WINDOW = 1_000_000;
/** Enough to dedupe a turn's blocks without growing with the session. */
const COUNTED_KEPT = 64;

export function readFacts(facts: SessionFacts, record: unknown): SessionFacts {
  if (!isObject(record)) return facts;
  if (record.type === 'assistant' && isObject(record.message) && record.isSidechain !== true) return claudeFacts(facts, record.message);
  if (record.type === 'turn_context' && isObject(record.payload) && typeof record.payload.model === 'string') return { ...facts, model: record.payload.model };
  if (record.type === 'event_msg' && isObject(record.payload) && record.payload.type === 'token_count') return codexTokens(facts, record.payload);
  if (record.type === 'gemini' && isObject(record.tokens)) return geminiFacts(facts, record, record.tokens);
  return facts;
}

/** A Gemini CLI chat message (`{type: "gemini", id, model, tokens: {input, output, cached,
 * thoughts, tool, total}}`, 0.61's ChatRecordingService): written again whenever it changes, its
 * tokens set once — so each id counts once, when it first carries them. */
function geminiFacts(facts: SessionFacts, record: Record<string, unknown>, tokens: Record<string, unknown>): SessionFacts {
  const id = typeof record.id === 'string' ? record.id : null;
  const counted = facts.counted ?? [];
  if (id !== null && counted.includes(id)) return facts;
  return {
    ...facts,
    ...(typeof record.model === 'string' && record.model !== '' ? { model: record.model } : {}),
    ...(num(tokens.input) > 0 ? { contextTokens: num(tokens.input) } : {}),
    outputTokens: (facts.outputTokens ?? 0) + num(tokens.output),
    totalTokens: (facts.totalTokens ?? 0) + (num(tokens.total) || num(tokens.input) + num(tokens.output)),
    ...(id !== null ? { counted: [...counted, id].slice(-COUNTED_KEPT) } : {}),
  };
}

function claudeFacts(facts: SessionFacts, message: Record<string, unknown>): SessionFacts {
  const model = typeof message.model === 'string' && message.model !== '<synthetic>' ? message.model : facts.model;
  const usage = isObject(message.usage) ? message.usage : null;
  const next: SessionFacts = { ...facts, ...(model ? { model, contextWindow: model.includes('[1m]') ? CLAUDE_LONG_WINDOW : CLAUDE_WINDOW } : {}) };
  if (!usage) return next;
  const context = num(usage.input_tokens) + num(usage.cache_read_input_tokens) + num(usage.cache_creation_input_tokens);
  const id = typeof message.id === 'string' ? message.id : null;
  const counted = facts.counted ?? [];
  const fresh = id === null || !counted.includes(id);
  return {
    ...next,
    ...(context > 0 ? { contextTokens: context } : {}),
    outputTokens: (facts.outputTokens ?? 0) + (fresh ? num(usage.output_tokens) : 0),
    totalTokens: (facts.totalTokens ?? 0) + (fresh ? context + num(usage.output_tokens) : 0),
    ...(id !== null && fresh ? { counted: [...counted, id].slice(-COUNTED_KEPT) } : {}),
  };
}

function codexTokens(facts: SessionFacts, payload: Record<string, unknown>): SessionFacts {
  const info = isObject(payload.info) ? payload.info : null;
  if (!info) return facts;
  const total = isObject(info.total_token_usage) ? info.total_token_usage : null;
  const last = isObject(info.last_token_usage) ? info.last_token_usage : null;
  const window = num(info.model_context_window);
  return {
    ...facts,
    ...(last ? { contextTokens: num(last.input_tokens) } : {}),
    ...(total ? { outputTokens: num(total.output_tokens), totalTokens: num(total.total_tokens) || num(total.input_tokens) + num(total.output_tokens) } : {}),
    ...(window > 0 ? { contextWindow: window } : {}),
  };
}

/** `opus-5-5 · 12% context · 48k tokens` — the short form for a tile's header. */
export function describeFacts(facts: SessionFacts | undefined): string | null {
  if (!facts?.model && facts?.contextTokens === undefined) return null;
  const model = facts.model?.replace(/^claude-/, '').replace(/-\d{8}$/, '');
  const fill = facts.contextTokens !== undefined && facts.contextWindow ? `${Math.min(100, Math.round((facts.contextTokens / facts.contextWindow) * 100))}% context` : null;
  const used = facts.totalTokens ? `${tokenCount(facts.totalTokens)} tokens` : null;
  return [model, fill, used].filter((p): p is string => !!p).join(' · ') || null;
}

/** `950`, `48k`, `1.2M`: a token count as people read it (k and M of 1000). */
export function tokenCount(n: number): string {
  if (n < 1000) return String(Math.round(n));
  if (n < 1_000_000) return `${n < 10_000 ? (n / 1000).toFixed(1).replace(/\.0$/, '') : Math.round(n / 1000)}k`;
  return `${n < 10_000_000 ? (n / 1_000_000).toFixed(1).replace(/\.0$/, '') : Math.round(n / 1_000_000)}M`;
}

function num(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : 0;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
