/**
 * A fake OpenAI Responses API: a real HTTP server on 127.0.0.1 that speaks the wire format the
 * real Codex CLI expects (observed against @openai/codex 0.171.0, `wire_api = "responses"`).
 *
 * - `POST /v1/responses`: always streamed (Codex sends `stream: true`) as SSE, with the events and
 *   fields of the real API: `response.created`, `response.in_progress`,
 *   `response.output_item.added`, `response.content_part.added`, `response.output_text.delta`,
 *   `response.output_text.done`, `response.content_part.done`,
 *   `response.function_call_arguments.delta/.done`, `response.output_item.done`, then
 *   `response.completed` (or `response.failed`).
 * - Anything else: `404` with an OpenAI error body, and a line in `unknownRequests`.
 *
 * Each test gives a *script* consulted once per **main** request (the user's prompt, or a tool
 * result coming back). Codex's hidden title request — its own thread, sent at the first prompt of
 * a session, whose last user text starts "Generate a concise, single-line task title" — is
 * answered with `title` and never consumes the script. A request whose input repeats the previous
 * main request's (a retry) gets the same reply again.
 *
 *   const api = await startFakeOpenAI({ script: [exec('sleep 2'), text('Slept.')] });
 *   … base_url = api.baseUrl (…/v1) in CODEX_HOME/config.toml (see codex-home.ts) …
 *   await api.close();
 *
 * What Codex 0.171.0 sends (model "gpt-5.5"): tools `exec_command` ({cmd, yield_time_ms, …}),
 * `write_stdin`, `apply_patch`, `request_user_input`, … ; `store: false`, so every request carries
 * the whole conversation as `input` (developer messages, an `<environment_context>` user message,
 * the user's messages, earlier `function_call`s and their `function_call_output`s). Models of the
 * GPT-6 family get a different tool set (a JavaScript `exec` in "code mode"): keep gpt-5.5.
 */
import type http from 'node:http';
import {
  chunks,
  fakeApi,
  hangUntilClosed,
  MainScript,
  pacing,
  randomId as randomIdOf,
  sleep,
  startFakeServer,
  type FakeApi,
  type FakeServerCore,
  type HangReply,
  type RecordedRequest,
  type Script,
} from './fake-server.js';

export { hang } from './fake-server.js';
export type { HangReply, RecordedRequest } from './fake-server.js';

// ---------------------------------------------------------------------------------------------
// Wire types (only the parts the fake reads or writes)
// ---------------------------------------------------------------------------------------------

export interface InputText {
  type: 'input_text' | 'output_text';
  text: string;
}

export interface InputMessage {
  type: 'message';
  role: 'user' | 'assistant' | 'developer' | 'system' | string;
  content: string | Array<InputText | { type: string; [key: string]: unknown }>;
  id?: string;
}

export interface FunctionCallItem {
  type: 'function_call';
  name: string;
  /** JSON text. */
  arguments: string;
  call_id: string;
  id?: string;
}

export interface FunctionCallOutputItem {
  type: 'function_call_output';
  call_id: string;
  output: string | Array<{ type: string; text?: string }>;
}

/** Any input item; unknown kinds keep their `type`. */
export type InputItem = InputMessage | FunctionCallItem | FunctionCallOutputItem | { type: string; [key: string]: unknown };

export interface ResponsesRequest {
  model: string;
  input: InputItem[];
  tools?: Array<{ type?: string; name?: string; [key: string]: unknown }>;
  stream?: boolean;
  [key: string]: unknown;
}

// ---------------------------------------------------------------------------------------------
// Replies
// ---------------------------------------------------------------------------------------------

export type OutputItem = { type: 'message'; text: string } | { type: 'function_call'; name: string; arguments: Record<string, unknown>; callId: string };

export interface ResponseReply {
  type: 'response';
  output: OutputItem[];
  /** Milliseconds between consecutive SSE deltas (0: all at once). */
  delayMs?: number;
  /** Milliseconds before the first byte of the response. */
  firstByteDelayMs?: number;
  /** Characters per delta (default: whole text in one delta unless delayMs is set). */
  chunkSize?: number;
}

/** An HTTP error with the OpenAI error body (`{error:{message,type,param,code}}`). */
export interface ErrorReply {
  type: 'error';
  status: number;
  errorType: string;
  code: string | null;
  message: string;
}

/** A 200 stream that ends in `response.failed` (the model failed mid-response). */
export interface FailedReply {
  type: 'failed';
  code: string;
  message: string;
}

export type Reply = ResponseReply | ErrorReply | FailedReply | HangReply;

const randomId = (length: number): string => randomIdOf('abcdefghijklmnopqrstuvwxyz0123456789', length);

/** A call id shaped like the real ones (`call_` + 24 characters). */
export function callId(): string {
  return `call_${randomId(24)}`;
}

/** A plain text answer: the turn ends. */
export function text(answer: string, opts: Omit<ResponseReply, 'type' | 'output'> = {}): ResponseReply {
  return { type: 'response', output: [{ type: 'message', text: answer }], ...opts };
}

/** Any function call, optionally preceded by a message: Codex runs it and asks again. */
export function functionCall(
  name: string,
  args: Record<string, unknown>,
  opts: { preamble?: string; callId?: string } & Omit<ResponseReply, 'type' | 'output'> = {},
): ResponseReply {
  const { preamble, callId: id, ...rest } = opts;
  const output: OutputItem[] = [];
  if (preamble !== undefined) output.push({ type: 'message', text: preamble });
  output.push({ type: 'function_call', name, arguments: args, callId: id ?? callId() });
  return { type: 'response', output, ...rest };
}

export interface ExecOptions {
  /** How long Codex waits for output before it yields back to the model (default 10 000 ms). */
  yieldTimeMs?: number;
  /** `require_escalated` asks for approval under `approval_policy = "on-request"`. */
  sandboxPermissions?: 'use_default' | 'require_escalated';
  /** The approval question shown with `require_escalated`. */
  justification?: string;
  preamble?: string;
}

/** An `exec_command` call (Codex's shell tool), e.g. `exec('sleep 2')`. */
export function exec(cmd: string, opts: ExecOptions = {}): ResponseReply {
  const args: Record<string, unknown> = { cmd, yield_time_ms: opts.yieldTimeMs ?? 10_000 };
  if (opts.sandboxPermissions) args.sandbox_permissions = opts.sandboxPermissions;
  if (opts.justification) args.justification = opts.justification;
  return functionCall('exec_command', args, opts.preamble !== undefined ? { preamble: opts.preamble } : {});
}

/** An HTTP error (400 by default: not retried). */
export function apiError(status = 400, message = 'Fake API error requested by the test', code: string | null = null): ErrorReply {
  const errorType = status === 400 ? 'invalid_request_error' : status === 429 ? 'rate_limit_exceeded' : 'server_error';
  return { type: 'error', status, errorType, code, message };
}

/** A stream that fails after `response.created`. */
export function failed(message = 'Fake response failure requested by the test', code = 'server_error'): FailedReply {
  return { type: 'failed', code, message };
}

// ---------------------------------------------------------------------------------------------
// Reading a request
// ---------------------------------------------------------------------------------------------

export const TITLE_REQUEST = 'Generate a concise, single-line task title';

function textOf(message: InputMessage): string {
  if (typeof message.content === 'string') return message.content;
  return message.content
    .filter((c): c is InputText => (c.type === 'input_text' || c.type === 'output_text') && typeof (c as { text?: unknown }).text === 'string')
    .map((c) => c.text)
    .join('\n');
}

function isUserMessage(item: InputItem): item is InputMessage {
  return item.type === 'message' && (item as InputMessage).role === 'user';
}

export interface LastInput {
  /** The text of the last user message (an `<environment_context>` message counts only if last). */
  userText: string;
  /** Function outputs after the last user message: present means "the tool(s) finished". */
  functionOutputs: FunctionCallOutputItem[];
}

export function lastInputOf(request: Pick<ResponsesRequest, 'input'>): LastInput {
  const input = Array.isArray(request.input) ? request.input : [];
  let last = -1;
  for (let i = input.length - 1; i >= 0; i--) {
    const item = input[i];
    if (item && isUserMessage(item)) {
      last = i;
      break;
    }
  }
  const user = last >= 0 ? (input[last] as InputMessage) : undefined;
  const after = input.slice(last + 1);
  return {
    userText: user ? textOf(user) : '',
    functionOutputs: after.filter((i): i is FunctionCallOutputItem => i.type === 'function_call_output'),
  };
}

/** The text of a function_call_output. */
export function functionOutputText(item: FunctionCallOutputItem): string {
  if (typeof item.output === 'string') return item.output;
  return item.output.map((c) => c.text ?? '').join('\n');
}

// ---------------------------------------------------------------------------------------------
// Server
// ---------------------------------------------------------------------------------------------

/** `main`: the user's turn or a tool result; `title`: the hidden title request; `other`: unknown. */
export type RequestKind = 'main' | 'title' | 'other';

export interface ScriptContext {
  request: ResponsesRequest;
  last: LastInput;
  /** Index among the main requests answered (retries not counted), from 0. */
  turn: number;
  recorded: OpenAIRequest;
}

export type OpenAIRequest = RecordedRequest<RequestKind> & {
  /** Set on a main request whose input repeats the previous one: the same reply is sent. */
  retryOf?: number;
};

export interface FakeOpenAIOptions {
  script?: Script<ScriptContext, Reply>;
  /** Reply to the hidden title request (default: a short title). */
  title?: Reply;
  /** Reply when the script is exhausted (default: a text saying so; counted in `exhausted`). */
  fallback?: Reply;
  log?: (line: string) => void;
  port?: number;
}

export interface FakeOpenAI extends FakeApi<OpenAIRequest, ScriptContext, Reply> {
  /** `http://127.0.0.1:<port>/v1`: the provider's `base_url`. */
  readonly baseUrl: string;
}

function summarize(reply: Reply): string {
  if (reply.type === 'error') return `error ${reply.status} ${reply.message}`;
  if (reply.type === 'failed') return `failed ${reply.code}`;
  if (reply.type === 'hang') return 'hang';
  return reply.output
    .map((o) => (o.type === 'message' ? `text(${JSON.stringify(o.text.slice(0, 40))})` : `${o.name}(${JSON.stringify(o.arguments).slice(0, 60)})`))
    .join(', ');
}

export async function startFakeOpenAI(options: FakeOpenAIOptions = {}): Promise<FakeOpenAI> {
  const runner = new MainScript<ScriptContext, Reply>(
    options.script ?? [],
    options.fallback ?? text('(fake-openai: the test script has no reply for this request)'),
    (err) => apiError(500, `fake-openai script threw: ${String(err)}`),
  );
  const unknownRequests: OpenAIRequest[] = [];

  const core = await startFakeServer<RequestKind>({ name: 'fake-openai', log: options.log, port: options.port }, 'other', async (entry: OpenAIRequest, _req, res, server) => {
    const body = entry.body;
    if (entry.method !== 'POST' || entry.path !== '/v1/responses' || typeof body !== 'object' || body === null) {
      unknownRequests.push(entry);
      entry.reply = '404';
      server.record(entry);
      server.log?.(`[fake-openai +${entry.t}ms] ${entry.method} ${entry.url} → unknown, 404`);
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `fake-openai: no route ${entry.method} ${entry.path}`, type: 'invalid_request_error', param: null, code: null } }));
      return;
    }
    const request = body as ResponsesRequest;
    const last = lastInputOf(request);
    let reply: Reply;
    if (last.userText.trimStart().startsWith(TITLE_REQUEST)) {
      entry.kind = 'title';
      server.record(entry);
      reply = options.title ?? text('Fake task title');
    } else {
      entry.kind = 'main';
      reply = await runner.answer(entry, JSON.stringify(request.input), server, (turn) => ({ request, last, turn, recorded: entry }));
    }
    entry.reply = summarize(reply);
    server.log?.(`[fake-openai +${entry.t}ms] POST ${entry.url} ${entry.kind}${entry.retryOf !== undefined ? ` (retry of #${entry.retryOf})` : ''} → ${entry.reply}`);
    await send(res, request, reply, server);
  });

  return fakeApi(core, runner, unknownRequests, { baseUrl: `${core.origin}/v1` });
}

async function send(res: http.ServerResponse, request: ResponsesRequest, reply: Reply, core: FakeServerCore<RequestKind>): Promise<void> {
  if (reply.type === 'hang') return hangUntilClosed(res, core);
  if (reply.type === 'error') {
    res.writeHead(reply.status, { 'content-type': 'application/json', 'x-request-id': `req_${randomId(32)}` });
    res.end(JSON.stringify({ error: { message: reply.message, type: reply.errorType, param: null, code: reply.code } }));
    return;
  }
  if (reply.type === 'response' && reply.firstByteDelayMs) await sleep(reply.firstByteDelayMs);
  core.track(res);
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive', 'x-request-id': `req_${randomId(32)}` });
  let sequence = 0;
  const event = (type: string, data: Record<string, unknown>): boolean => {
    if (res.destroyed || res.writableEnded || core.closed) return false;
    res.write(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequence++, ...data })}\n\n`);
    return true;
  };
  const id = `resp_${randomId(48)}`;
  const model = typeof request.model === 'string' ? request.model : 'gpt-fake';
  const response = (status: string, output: unknown[], extra: Record<string, unknown> = {}): Record<string, unknown> => ({
    id,
    object: 'response',
    created_at: Math.floor(Date.now() / 1000),
    status,
    error: null,
    model,
    output,
    parallel_tool_calls: false,
    tool_choice: 'auto',
    usage: null,
    ...extra,
  });
  event('response.created', { response: response('in_progress', []) });
  event('response.in_progress', { response: response('in_progress', []) });
  if (reply.type === 'failed') {
    event('response.failed', { response: response('failed', [], { error: { code: reply.code, message: reply.message } }) });
    res.end();
    return;
  }

  const { size, pause } = pacing(reply, res, core);
  const done: unknown[] = [];
  for (const [index, out] of reply.output.entries()) {
    if (out.type === 'message') {
      const itemId = `msg_${randomId(48)}`;
      const part = (t: string) => ({ type: 'output_text', text: t, annotations: [], logprobs: [] });
      event('response.output_item.added', { output_index: index, item: { id: itemId, type: 'message', status: 'in_progress', role: 'assistant', content: [] } });
      event('response.content_part.added', { item_id: itemId, output_index: index, content_index: 0, part: part('') });
      for (const piece of chunks(out.text, size)) {
        if (!(await pause())) return;
        event('response.output_text.delta', { item_id: itemId, output_index: index, content_index: 0, delta: piece, logprobs: [] });
      }
      event('response.output_text.done', { item_id: itemId, output_index: index, content_index: 0, text: out.text, logprobs: [] });
      event('response.content_part.done', { item_id: itemId, output_index: index, content_index: 0, part: part(out.text) });
      const item = { id: itemId, type: 'message', status: 'completed', role: 'assistant', content: [part(out.text)] };
      event('response.output_item.done', { output_index: index, item });
      done.push(item);
    } else {
      const itemId = `fc_${randomId(48)}`;
      const args = JSON.stringify(out.arguments);
      const item = (status: string, a: string) => ({ id: itemId, type: 'function_call', status, arguments: a, call_id: out.callId, name: out.name });
      event('response.output_item.added', { output_index: index, item: item('in_progress', '') });
      for (const piece of chunks(args, size)) {
        if (!(await pause())) return;
        event('response.function_call_arguments.delta', { item_id: itemId, output_index: index, delta: piece });
      }
      event('response.function_call_arguments.done', { item_id: itemId, output_index: index, arguments: args });
      event('response.output_item.done', { output_index: index, item: item('completed', args) });
      done.push(item('completed', args));
    }
  }
  if (!(await pause())) return;
  const inputTokens = Math.max(1, Math.ceil(JSON.stringify(request.input ?? []).length / 4));
  const outputTokens = Math.max(1, Math.ceil(JSON.stringify(done).length / 4));
  event('response.completed', {
    response: response('completed', done, {
      usage: {
        input_tokens: inputTokens,
        input_tokens_details: { cached_tokens: 0 },
        output_tokens: outputTokens,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: inputTokens + outputTokens,
      },
    }),
  });
  res.end();
}
