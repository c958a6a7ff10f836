/**
 * A fake Anthropic Messages API: a real HTTP server on 127.0.0.1 that speaks the wire format the
 * real Claude Code CLI expects (observed against @anthropic-ai/claude-code 2.1.332).
 *
 * - `POST /v1/messages` (Claude Code adds `?beta=true`): SSE when `stream: true`, JSON otherwise.
 * - `POST /v1/messages/count_tokens`: `{ input_tokens }`.
 * - Anything else: `200 {}` and a line in `unknownRequests` (so a test can notice new traffic).
 *
 * Each test gives a *script*: a function, or a queue of replies, consulted once per **main-loop**
 * request (one that carries the user's prompt, a tool result, or a background-task notification).
 * Everything else is classified first and answered without consuming the script: retries of the
 * same request (same reply again), /compact summarisation (`compact`), subagents (`subagent`, a
 * script of their own), helper requests such as titles or recaps (`side`). Every request is
 * recorded for assertions.
 *
 * Usage:
 *   const api = await startFakeAnthropic({ script: [bash('sleep 4'), text('Slept.')] });
 *   … ANTHROPIC_BASE_URL = api.url …
 *   await api.close();
 *
 * What Claude Code 2.1.332 sends for one prompt: a single `POST /v1/messages?beta=true`
 * (model `claude-opus-5-5`, `stream: true`, 13 tools); a tool call adds one request per tool
 * result; a background task adds one when its `<task-notification>` comes back. No start-up
 * traffic, no count_tokens, no side request in the default flows.
 */
import type http from 'node:http';
import {
  chunks,
  fakeApi,
  hangUntilClosed,
  pacing,
  randomId as randomIdOf,
  resolveReply,
  ScriptRunner,
  sleep,
  startFakeServer,
  type FakeApi,
  type FakeServerCore,
  type HangReply,
  type RecordedRequest as BaseRecordedRequest,
  type Script as BaseScript,
} from './fake-server.js';

export type { HangReply } from './fake-server.js';

// ---------------------------------------------------------------------------------------------
// Wire types (only the parts the fake reads or writes)
// ---------------------------------------------------------------------------------------------

export interface TextBlock {
  type: 'text';
  text: string;
}

export interface ToolUseBlock {
  type: 'tool_use';
  id: string;
  name: string;
  input: Record<string, unknown>;
}

export interface ToolResultBlock {
  type: 'tool_result';
  tool_use_id: string;
  content?: string | Array<{ type: string; text?: string }>;
  is_error?: boolean;
}

/** Any content block in a request; unknown kinds keep their `type`. */
export type RequestBlock =
  | TextBlock
  | ToolUseBlock
  | ToolResultBlock
  | { type: string; [key: string]: unknown };

export interface RequestMessage {
  role: 'user' | 'assistant' | 'system' | string;
  content: string | RequestBlock[];
}

export interface MessagesRequest {
  model: string;
  messages: RequestMessage[];
  system?: string | Array<{ type: string; text?: string }>;
  tools?: Array<{ name?: string; type?: string; [key: string]: unknown }>;
  stream?: boolean;
  max_tokens?: number;
  [key: string]: unknown;
}

/** Content of a reply. */
export type ReplyBlock = TextBlock | ToolUseBlock;

export type StopReason = 'end_turn' | 'tool_use' | 'max_tokens' | 'stop_sequence';

export interface MessageReply {
  type: 'message';
  content: ReplyBlock[];
  stopReason: StopReason;
  /** Milliseconds between consecutive SSE deltas (0: all at once). */
  delayMs?: number;
  /** Milliseconds before the first byte of the response. */
  firstByteDelayMs?: number;
  /** Characters per text/JSON delta (default: whole text in one delta unless delayMs is set). */
  chunkSize?: number;
  outputTokens?: number;
}

export interface ErrorReply {
  type: 'error';
  status: number;
  errorType: string;
  message: string;
}

export type Reply = MessageReply | ErrorReply | HangReply;

// ---------------------------------------------------------------------------------------------
// What a script sees
// ---------------------------------------------------------------------------------------------

export interface LastUser {
  /** The last message with role `user` (the first request of a session has a `system` after it). */
  message: RequestMessage | undefined;
  /** The text blocks that are not `<system-reminder>` injections, joined with "\n". */
  text: string;
  /** Every text block, reminders included, joined with "\n". */
  rawText: string;
  /** tool_result blocks: present means "the tool(s) finished". */
  toolResults: ToolResultBlock[];
  /**
   * `<task-notification>…</task-notification>` blocks: a background task (shell, subagent)
   * finished. Claude Code sends them inside a `<system-reminder>` text, so they are not in `text`.
   */
  taskNotifications: string[];
}

/**
 * - `main`: the main loop (a user turn, a tool result, a background-task notification);
 * - `subagent`: a subagent's loop (header `x-claude-code-agent-id`);
 * - `compact`: the /compact (or auto-compact) summarisation request;
 * - `side`: helper requests (title, forked recaps, …);
 * - `count_tokens`, `other` (unknown paths).
 */
export type RequestKind = 'main' | 'subagent' | 'compact' | 'side' | 'count_tokens' | 'other';

export interface RecordedRequest extends BaseRecordedRequest<RequestKind> {
  /** For side requests: why it was classified so. */
  sideReason?: string;
  /**
   * Set on a main (or subagent) request that repeats the previous one (same conversation): Claude
   * Code retries a failed request — after a 400 it tries 5 more times, each with fewer beta
   * features. The same reply is sent again and the script is not consulted.
   */
  retryOf?: number;
  /** For subagent requests: the `x-claude-code-agent-id` header. */
  agentId?: string;
}

export interface ScriptContext {
  request: MessagesRequest;
  lastUser: LastUser;
  /** Index among the requests this script has answered (retries not counted), from 0. */
  turn: number;
  recorded: RecordedRequest;
  /** The requests of the same kind so far (retries not counted), this one included. */
  history: RecordedRequest[];
}

export type ScriptFn = (ctx: ScriptContext) => Reply | Promise<Reply>;
/** A function consulted for every main request, or a queue consumed one reply per main request. */
export type Script = BaseScript<ScriptContext, Reply>;

export interface FakeAnthropicOptions {
  /** Answers main-loop requests. */
  script?: Script;
  /** Answers subagent requests (all subagents share it); default: a short text that ends them. */
  subagent?: Script;
  /** Reply to a /compact (or auto-compact) summarisation request; default `compactSummary()`. */
  compact?: Reply | ScriptFn;
  /** Reply to other side requests (titles, topics, …); default `defaultSideReply`. */
  side?: Reply | ScriptFn;
  /** Reply when the script is exhausted; default a text saying so (and counted in `exhausted`). */
  fallback?: Reply | ScriptFn;
  /** Debug log sink, e.g. `console.error`; also enabled by BELLTOWER_FAKE_API_DEBUG=1. */
  log?: (line: string) => void;
  port?: number;
}

export interface FakeAnthropic extends FakeApi<RecordedRequest, ScriptContext, Reply> {
  /** `http://127.0.0.1:<port>` — use as ANTHROPIC_BASE_URL. */
  readonly url: string;
  /** How many subagent requests found the subagent script empty. */
  readonly subagentExhausted: number;
  /** Replace the subagent script (the queue restarts). */
  setSubagentScript(script: Script): void;
}

// ---------------------------------------------------------------------------------------------
// Reply builders
// ---------------------------------------------------------------------------------------------

const randomId = (length: number): string =>
  randomIdOf('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789', length);

/** A tool_use id shaped like the real ones (`toolu_01` + 22 base62 characters). */
export function toolUseId(): string {
  return `toolu_01${randomId(22)}`;
}

/** A plain text answer that ends the turn. */
export function text(answer: string, opts: Partial<Omit<MessageReply, 'type' | 'content'>> = {}): MessageReply {
  return { type: 'message', content: [{ type: 'text', text: answer }], stopReason: 'end_turn', ...opts };
}

/** Streams `answer` in `chunkSize`-character deltas spaced by `delayMs` (default 200 ms, 8 chars). */
export function slowText(answer: string, delayMs = 200, chunkSize = 8): MessageReply {
  return text(answer, { delayMs, chunkSize });
}

/** A call of any tool (`stop_reason: tool_use`), optionally preceded by a text block. */
export function toolUse(
  name: string,
  input: Record<string, unknown>,
  opts: { preamble?: string; id?: string } & Partial<Omit<MessageReply, 'type' | 'content' | 'stopReason'>> = {},
): MessageReply {
  const { preamble, id, ...rest } = opts;
  const content: ReplyBlock[] = [];
  if (preamble !== undefined) content.push({ type: 'text', text: preamble });
  content.push({ type: 'tool_use', id: id ?? toolUseId(), name, input });
  return { type: 'message', content, stopReason: 'tool_use', ...rest };
}

export interface BashOptions {
  description?: string;
  /** Bash tool timeout in ms. */
  timeout?: number;
  runInBackground?: boolean;
  preamble?: string;
}

/**
 * A Bash tool call, e.g. `bash('sleep 4')`. Commands Claude Code deems read-only (`sleep`, `echo`,
 * `ls`, …) run without asking whatever the allow rules say; others need an allow rule or prompt.
 */
export function bash(command: string, opts: BashOptions = {}): MessageReply {
  const input: Record<string, unknown> = { command, description: opts.description ?? `Run ${command}` };
  if (opts.timeout !== undefined) input.timeout = opts.timeout;
  if (opts.runInBackground) input.run_in_background = true;
  return toolUse('Bash', input, opts.preamble !== undefined ? { preamble: opts.preamble } : {});
}

/** A Bash call with `run_in_background: true`: the turn can end while it still runs. */
export function backgroundBash(command: string, opts: Omit<BashOptions, 'runInBackground'> = {}): MessageReply {
  return bash(command, { ...opts, runInBackground: true });
}

/**
 * A Bash call that needs the user's permission: any command not covered by the allow rules in
 * the test's settings. The default writes a file, which no read-only auto-approval covers.
 */
export function permissionBash(command = 'touch belltower-needs-permission.txt', opts: BashOptions = {}): MessageReply {
  return bash(command, { description: 'Create a file', ...opts });
}

/** An API error with the real error body shape (`{type:"error",error:{type,message},request_id}`). */
export function apiError(
  status = 400,
  message = 'Fake API error requested by the test',
  errorType = status === 400 ? 'invalid_request_error' : status === 529 ? 'overloaded_error' : 'api_error',
): ErrorReply {
  return { type: 'error', status, errorType, message };
}

/** The answer to a compaction request: the summary inside `<summary>…</summary>`. */
export function compactSummary(summary = 'The user and the assistant exchanged a few test messages.'): MessageReply {
  return text(`<analysis>Nothing to analyse.</analysis>\n<summary>\n${summary}\n</summary>`);
}

/**
 * The default answer to a side request: JSON when the request asks for it (session title with a
 * JSON schema, kebab-case name), a short text otherwise.
 */
export function defaultSideReply(ctx: ScriptContext): Reply {
  const req = ctx.request as MessagesRequest & {
    output_format?: { schema?: { properties?: Record<string, unknown> } };
    output_config?: { format?: { schema?: { properties?: Record<string, unknown> } } };
  };
  const schema = req.output_config?.format?.schema ?? req.output_format?.schema;
  if (schema?.properties) {
    const out: Record<string, string> = {};
    for (const key of Object.keys(schema.properties)) out[key] = `Fake ${key}`;
    return text(JSON.stringify(out));
  }
  const lastText = ctx.lastUser.rawText;
  if (/kebab-case name/.test(lastText)) return text('{"name":"fake-session-name"}');
  if (/\[SUGGESTION MODE:/.test(lastText)) return text('nothing to suggest');
  return text('Fake side answer.');
}

/** A reply that never comes (for interrupt tests). */
export function hang(): HangReply {
  return { type: 'hang' };
}

// ---------------------------------------------------------------------------------------------
// Request reading
// ---------------------------------------------------------------------------------------------

function blocksOf(message: RequestMessage | undefined): RequestBlock[] {
  if (!message) return [];
  if (typeof message.content === 'string') return [{ type: 'text', text: message.content }];
  return Array.isArray(message.content) ? message.content : [];
}

function isTextBlock(b: RequestBlock): b is TextBlock {
  return b.type === 'text' && typeof (b as { text?: unknown }).text === 'string';
}

function isToolResultBlock(b: RequestBlock): b is ToolResultBlock {
  return b.type === 'tool_result';
}

/** The last `user` message, its text (without `<system-reminder>` blocks) and its tool results. */
export function lastUserOf(request: Pick<MessagesRequest, 'messages'>): LastUser {
  const messages = Array.isArray(request.messages) ? request.messages : [];
  let message: RequestMessage | undefined;
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i]?.role === 'user') {
      message = messages[i];
      break;
    }
  }
  const blocks = blocksOf(message);
  const texts = blocks.filter(isTextBlock).map((b) => b.text);
  const rawText = texts.join('\n');
  return {
    message,
    text: texts.filter((t) => !t.trimStart().startsWith('<system-reminder>')).join('\n'),
    rawText,
    toolResults: blocks.filter(isToolResultBlock),
    taskNotifications: rawText.match(/<task-notification>[\s\S]*?<\/task-notification>/g) ?? [],
  };
}

/** The text of a tool_result block. */
export function toolResultText(block: ToolResultBlock): string {
  if (typeof block.content === 'string') return block.content;
  if (Array.isArray(block.content)) return block.content.map((c) => c.text ?? '').join('\n');
  return '';
}

/**
 * The conversation, for retry detection: user and assistant messages without `cache_control`
 * markers. Claude Code moves those markers between attempts, and its 400 fallbacks (fewer beta
 * headers, no thinking display, no deferred tools) also rewrite the `role: system` message.
 */
function conversationKey(request: MessagesRequest): string {
  const messages = (Array.isArray(request.messages) ? request.messages : []).filter((m) => m.role !== 'system');
  return JSON.stringify(messages, (key, value: unknown) => (key === 'cache_control' ? undefined : value));
}

function systemText(request: MessagesRequest): string {
  const s = request.system;
  if (typeof s === 'string') return s;
  if (Array.isArray(s)) return s.map((b) => b.text ?? '').join('\n');
  return '';
}

/**
 * The summarisation prompt of /compact (and auto-compact). On 2.1.332 it is the last text block
 * of the last user message (that message may also hold tool_result blocks), and the request is
 * otherwise identical to a main-loop one (same model, system prompt and tools).
 */
export function isCompactionPrompt(text: string): boolean {
  return (
    /create a detailed summary of the conversation/i.test(text) ||
    (/<summary>/.test(text) && /<analysis>/.test(text) && /do not call any tools/i.test(text))
  );
}

/**
 * Side requests that Claude Code 2.1.332 *forks* from the main loop: same model, system prompt and
 * tools as a main request, told apart only by the prompt appended as the last user text (found in
 * the binary; most are off by default or behind server-side flags, and none fired in the runs
 * behind this file, but focus changes, /rename and /btw can trigger some).
 */
export const FORKED_SIDE_PROMPTS: ReadonlyArray<{ name: string; pattern: RegExp }> = [
  { name: 'prompt_suggestion', pattern: /\[SUGGESTION MODE:/ },
  { name: 'away_summary', pattern: /The user stepped away and is coming back/ },
  { name: 'rename_generate_name', pattern: /Generate a short kebab-case name/ },
  { name: 'side_question', pattern: /This is a side question from the user/ },
];

/**
 * Main loop, compaction, or a side request?
 *
 * Observed on 2.1.332: the main loop always sends the full tool list (Bash among them) and a
 * system prompt whose second block is "You are Claude Code, Anthropic's official CLI for Claude."
 * A compaction request is a main-loop request whose last user text asks for `<analysis>` and
 * `<summary>`. Forked helpers are recognised by their prompt (FORKED_SIDE_PROMPTS). A subagent's
 * requests carry the header `x-claude-code-agent-id` (and `cc_is_subagent=true` in the billing
 * line of the system prompt; its system prompt is "You are a Claude agent, built on Anthropic's
 * Claude Agent SDK."). Tool-free helpers (session title, tool-use summary, …) carry no Bash tool.
 */
export function classifyMessagesRequest(
  request: MessagesRequest,
  headers: http.IncomingHttpHeaders = {},
): { kind: 'main' | 'subagent' | 'compact' | 'side'; reason: string } {
  const last = lastUserOf(request);
  if (isCompactionPrompt(last.rawText)) {
    return { kind: 'compact', reason: 'last user text asks for an <analysis> and a <summary> of the conversation' };
  }
  const lastText = blocksOf(last.message).filter(isTextBlock).at(-1)?.text ?? '';
  for (const fork of FORKED_SIDE_PROMPTS) {
    if (fork.pattern.test(lastText)) return { kind: 'side', reason: `forked helper ${fork.name}` };
  }
  if (headers['x-claude-code-agent-id'] !== undefined || /cc_is_subagent=true/.test(systemText(request))) {
    return { kind: 'subagent', reason: `subagent ${String(headers['x-claude-code-agent-id'] ?? '?')}` };
  }
  const tools = Array.isArray(request.tools) ? request.tools : [];
  const hasBash = tools.some((t) => t.name === 'Bash');
  if (!hasBash) {
    return { kind: 'side', reason: `no Bash tool (model ${request.model}, ${tools.length} tools)` };
  }
  if (!/You are Claude Code/.test(systemText(request))) {
    return { kind: 'side', reason: 'system prompt is not the main one' };
  }
  return { kind: 'main', reason: 'Bash tool and main system prompt' };
}

// ---------------------------------------------------------------------------------------------
// Server
// ---------------------------------------------------------------------------------------------

function summarize(reply: Reply): string {
  if (reply.type === 'error') return `error ${reply.status} ${reply.errorType}`;
  if (reply.type === 'hang') return 'hang';
  const parts = reply.content.map((b) =>
    b.type === 'text' ? `text(${JSON.stringify(b.text.slice(0, 40))})` : `tool_use(${b.name} ${JSON.stringify(b.input).slice(0, 60)})`,
  );
  return `${reply.stopReason}: ${parts.join(', ')}`;
}


export async function startFakeAnthropic(options: FakeAnthropicOptions = {}): Promise<FakeAnthropic> {
  const unknownRequests: RecordedRequest[] = [];
  const mainRunner = new ScriptRunner<ScriptContext, Reply>(
    options.script ?? [],
    options.fallback ?? text('(fake-anthropic: the test script has no reply for this request)'),
  );
  const subagentRunner = new ScriptRunner<ScriptContext, Reply>(options.subagent ?? [], text('Subagent finished (fake-anthropic default).'));
  /** Per script, per agent id ('' for the main loop): the last request answered, for retry detection. */
  const lastAnswered = new Map<ScriptRunner<ScriptContext, Reply>, Map<string, { key: string; reply: Reply; seq: number }>>([
    [mainRunner, new Map()],
    [subagentRunner, new Map()],
  ]);

  const core = await startFakeServer<RequestKind>(
    { name: 'fake-anthropic', log: options.log, port: options.port },
    'other',
    async (entry: RecordedRequest, req, res, server, raw) => {
      const { log, requests } = server;
      const { url, path, body } = entry;

      if (req.method === 'POST' && path === '/v1/messages/count_tokens') {
        entry.kind = 'count_tokens';
        entry.reply = 'count_tokens';
        server.record(entry);
        log?.(`[fake-api +${entry.t}ms] POST ${url} → count_tokens`);
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ input_tokens: Math.max(1, Math.ceil(raw.length / 4)) }));
        return;
      }

      if (req.method === 'POST' && path === '/v1/messages' && typeof body === 'object' && body !== null) {
        const request = body as MessagesRequest;
        const { kind, reason } = classifyMessagesRequest(request, req.headers);
        entry.kind = kind;
        if (kind === 'compact' || kind === 'side') entry.sideReason = reason;
        const agentHeader = req.headers['x-claude-code-agent-id'];
        if (kind === 'subagent') entry.agentId = Array.isArray(agentHeader) ? agentHeader[0] : agentHeader;
        const scripted = kind === 'main' ? mainRunner : kind === 'subagent' ? subagentRunner : undefined;
        const last = scripted ? lastAnswered.get(scripted) : undefined;
        const conversation = scripted ? conversationKey(request) : '';
        const previous = last?.get(entry.agentId ?? '');
        if (previous !== undefined && previous.key === conversation) entry.retryOf = previous.seq;
        server.record(entry);
        const history = (requests as RecordedRequest[]).filter((r) => r.kind === kind && r.retryOf === undefined);
        const ctx: ScriptContext = { request, lastUser: lastUserOf(request), turn: history.length - 1, recorded: entry, history };
        let reply: Reply;
        try {
          if (previous !== undefined && entry.retryOf !== undefined) reply = previous.reply;
          else if (scripted) reply = await scripted.next(ctx);
          else if (kind === 'compact') reply = await resolveReply(options.compact ?? compactSummary(), ctx);
          else reply = await resolveReply(options.side ?? defaultSideReply, ctx);
        } catch (err) {
          reply = apiError(500, `fake-anthropic script threw: ${String(err)}`, 'api_error');
        }
        last?.set(entry.agentId ?? '', { key: conversation, reply, seq: entry.retryOf ?? entry.seq });
        entry.reply = summarize(reply);
        log?.(
          `[fake-api +${entry.t}ms] POST ${url} ${kind}${entry.agentId ? ` ${entry.agentId}` : ''}${entry.retryOf !== undefined ? ` (retry of #${entry.retryOf})` : ''}${entry.sideReason ? ` (${entry.sideReason})` : ''} model=${request.model} → ${entry.reply}`,
        );
        await send(res, request, reply, server);
        return;
      }

      // Unknown: answer harmlessly, and keep a note.
      unknownRequests.push(entry);
      entry.reply = '200 {}';
      server.record(entry);
      log?.(`[fake-api +${entry.t}ms] ${entry.method} ${url} → unknown path, 200 {}`);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    },
  );

  return fakeApi(core, mainRunner, unknownRequests, {
    url: core.origin,
    get subagentExhausted() {
      return subagentRunner.exhausted;
    },
    setSubagentScript: (next: Script) => subagentRunner.set(next),
  });
}

function writeSse(res: http.ServerResponse, event: string, data: Record<string, unknown>): void {
  if (res.destroyed || res.writableEnded) return;
  res.write(`event: ${event}\ndata: ${JSON.stringify({ type: event, ...data })}\n\n`);
}

async function send(res: http.ServerResponse, request: MessagesRequest, reply: Reply, core: FakeServerCore<RequestKind>): Promise<void> {
  if (reply.type === 'hang') return hangUntilClosed(res, core);
  if (reply.type === 'error') {
    const requestId = `req_01${randomId(22)}`;
    res.writeHead(reply.status, { 'content-type': 'application/json', 'request-id': requestId, 'x-should-retry': 'false' });
    res.end(
      JSON.stringify({ type: 'error', error: { type: reply.errorType, message: reply.message }, request_id: requestId }),
    );
    return;
  }
  const id = `msg_01${randomId(22)}`;
  const model = typeof request.model === 'string' ? request.model : 'claude-fake';
  const inputTokens = 25;
  const outputTokens = reply.outputTokens ?? Math.max(1, Math.ceil(JSON.stringify(reply.content).length / 4));
  if (reply.firstByteDelayMs) await sleep(reply.firstByteDelayMs);
  if (request.stream !== true) {
    res.writeHead(200, { 'content-type': 'application/json', 'request-id': `req_${id}` });
    res.end(
      JSON.stringify({
        id,
        type: 'message',
        role: 'assistant',
        model,
        content: reply.content,
        stop_reason: reply.stopReason,
        stop_sequence: null,
        usage: { input_tokens: inputTokens, output_tokens: outputTokens, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
      }),
    );
    return;
  }
  core.track(res);
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    'request-id': `req_${id}`,
  });
  const { size: chunkSize, pause } = pacing(reply, res, core);
  writeSse(res, 'message_start', {
    message: {
      id,
      type: 'message',
      role: 'assistant',
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: inputTokens, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    },
  });
  writeSse(res, 'ping', {});
  for (const [index, block] of reply.content.entries()) {
    if (block.type === 'text') {
      writeSse(res, 'content_block_start', { index, content_block: { type: 'text', text: '' } });
      for (const piece of chunks(block.text, chunkSize)) {
        if (!(await pause())) return;
        writeSse(res, 'content_block_delta', { index, delta: { type: 'text_delta', text: piece } });
      }
    } else {
      writeSse(res, 'content_block_start', {
        index,
        content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} },
      });
      const json = JSON.stringify(block.input);
      for (const piece of chunks(json, chunkSize ?? Math.max(1, Math.ceil(json.length / 2)))) {
        if (!(await pause())) return;
        writeSse(res, 'content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: piece } });
      }
    }
    writeSse(res, 'content_block_stop', { index });
  }
  if (!(await pause())) return;
  writeSse(res, 'message_delta', {
    delta: { stop_reason: reply.stopReason, stop_sequence: null },
    usage: { output_tokens: outputTokens },
  });
  writeSse(res, 'message_stop', {});
  res.end();
}
