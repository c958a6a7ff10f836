/**
 * A fake Gemini API (generativelanguage v1beta): a real HTTP server on 127.0.0.1 that speaks the
 * wire format the real Gemini CLI expects (observed against @google/gemini-cli 0.61.0, pointed at
 * it with GOOGLE_GEMINI_BASE_URL).
 *
 * - `POST /v1beta/models/<model>:streamGenerateContent?alt=sse`: SSE `data:` chunks of
 *   `{candidates:[{content:{role:"model",parts:[…]},index:0}],…}`, the last one with a
 *   `finishReason` and `usageMetadata`.
 * - `POST /v1beta/models/<model>:generateContent`: one JSON response. When the request asks for
 *   JSON (`responseMimeType: application/json` with a `responseJsonSchema`/`responseSchema`), the
 *   answer is built from the schema — Gemini's model router sends one per prompt asking for
 *   `{complexity_reasoning, complexity_score}`.
 * - `POST …:countTokens`: `{totalTokens}`. Anything else: `404` and a line in `unknownRequests`.
 *
 * Each test gives a *script* consulted once per **main** request: a streamed request that offers
 * the agent's tools (the user's prompt, or a tool result coming back). Everything else is
 * answered without consuming it: `router` (the JSON complexity call), `json` (other schema calls),
 * `side` (plain helper calls such as the session summary written at the next start-up). A main
 * request that repeats the previous one (a retry) gets the same reply again.
 *
 *   const api = await startFakeGemini({ script: [shell('sleep 2'), text('Slept.')] });
 *   … GOOGLE_GEMINI_BASE_URL = api.url, GEMINI_API_KEY = anything (see gemini-home.ts) …
 *   await api.close();
 *
 * What Gemini CLI 0.61.0 sends for one prompt: `gemini-3.5-flash-lite:generateContent` (the
 * router), then `gemini-3.8-flash:streamGenerateContent?alt=sse` with 16 tools, among them
 * `run_shell_command` ({command, description, dir_path, is_background, delay_ms}); a tool call
 * adds one streamed request carrying a `functionResponse` part.
 */
import { randomBytes } from 'node:crypto';
import type http from 'node:http';
import {
  chunks,
  fakeApi,
  hangUntilClosed,
  MainScript,
  pacing,
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

export interface Part {
  text?: string;
  thought?: boolean;
  functionCall?: { name: string; args: Record<string, unknown>; id?: string };
  functionResponse?: { name: string; response: Record<string, unknown>; id?: string };
  [key: string]: unknown;
}

export interface Content {
  role: 'user' | 'model' | string;
  parts: Part[];
}

/** A JSON schema as Gemini sends it (types may be upper case: "OBJECT", "STRING"). */
export interface Schema {
  type?: string | string[];
  properties?: Record<string, Schema>;
  items?: Schema;
  enum?: unknown[];
  minimum?: number;
  [key: string]: unknown;
}

export interface GenerateRequest {
  contents: Content[];
  systemInstruction?: { parts?: Part[] };
  tools?: Array<{ functionDeclarations?: Array<{ name: string; [key: string]: unknown }> }>;
  generationConfig?: { responseMimeType?: string; responseJsonSchema?: Schema; responseSchema?: Schema; [key: string]: unknown };
  [key: string]: unknown;
}

// ---------------------------------------------------------------------------------------------
// Replies
// ---------------------------------------------------------------------------------------------

export interface ContentReply {
  type: 'content';
  /** Text parts and function calls, in order. */
  parts: Array<{ text: string } | { functionCall: { name: string; args: Record<string, unknown> } }>;
  finishReason?: string;
  /** Milliseconds between consecutive chunks (0: all at once). */
  delayMs?: number;
  /** Milliseconds before the first byte of the response. */
  firstByteDelayMs?: number;
  /** Characters per text chunk (default: whole text in one chunk unless delayMs is set). */
  chunkSize?: number;
}

/** An HTTP error with the Google API error body (`{error:{code,message,status}}`). */
export interface ErrorReply {
  type: 'error';
  status: number;
  message: string;
  /** e.g. INVALID_ARGUMENT, RESOURCE_EXHAUSTED, INTERNAL. */
  statusText: string;
}

export type Reply = ContentReply | ErrorReply | HangReply;

/** A plain text answer: the turn ends. */
export function text(answer: string, opts: Omit<ContentReply, 'type' | 'parts'> = {}): ContentReply {
  return { type: 'content', parts: [{ text: answer }], ...opts };
}

/** Any function call, optionally preceded by text: Gemini runs it and asks again. */
export function functionCall(name: string, args: Record<string, unknown>, opts: { preamble?: string } & Omit<ContentReply, 'type' | 'parts'> = {}): ContentReply {
  const { preamble, ...rest } = opts;
  const parts: ContentReply['parts'] = [];
  if (preamble !== undefined) parts.push({ text: preamble });
  parts.push({ functionCall: { name, args } });
  return { type: 'content', parts, ...rest };
}

/** A `run_shell_command` call, e.g. `shell('sleep 2')`. */
export function shell(command: string, opts: { description?: string; background?: boolean; preamble?: string } = {}): ContentReply {
  const args: Record<string, unknown> = { command, description: opts.description ?? `Run ${command}` };
  if (opts.background) args.is_background = true;
  return functionCall('run_shell_command', args, opts.preamble !== undefined ? { preamble: opts.preamble } : {});
}

/** An HTTP error (400 by default: Gemini CLI does not retry it). */
export function apiError(status = 400, message = 'Fake API error requested by the test'): ErrorReply {
  const statusText = status === 400 ? 'INVALID_ARGUMENT' : status === 429 ? 'RESOURCE_EXHAUSTED' : status === 403 ? 'PERMISSION_DENIED' : 'INTERNAL';
  return { type: 'error', status, message, statusText };
}

// ---------------------------------------------------------------------------------------------
// Reading a request
// ---------------------------------------------------------------------------------------------

export interface LastUser {
  /** The last `user` content's text parts (not thoughts), joined with "\n". */
  text: string;
  /** Its last text part: the prompt (the first request also carries a `<session_context>` part). */
  prompt: string;
  /** functionResponse parts: present means "the tool(s) finished". */
  functionResponses: NonNullable<Part['functionResponse']>[];
}

export function lastUserOf(request: Pick<GenerateRequest, 'contents'>): LastUser {
  const contents = Array.isArray(request.contents) ? request.contents : [];
  const last = [...contents].reverse().find((c) => c.role === 'user');
  const parts = last?.parts ?? [];
  const texts = parts.filter((p) => typeof p.text === 'string' && !p.thought).map((p) => p.text as string);
  return {
    text: texts.join('\n'),
    prompt: texts.at(-1) ?? '',
    functionResponses: parts.flatMap((p) => (p.functionResponse ? [p.functionResponse] : [])),
  };
}

/** A value that satisfies `schema`: first enum value, `minimum` or 1 for numbers, "Fake …" strings. */
export function valueFromSchema(schema: Schema | undefined, name = 'value'): unknown {
  if (!schema) return `Fake ${name}`;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  const type = String(Array.isArray(schema.type) ? schema.type[0] : schema.type ?? 'string').toLowerCase();
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [key, sub] of Object.entries(schema.properties ?? {})) out[key] = valueFromSchema(sub, key);
      return out;
    }
    case 'array':
      return [];
    case 'number':
    case 'integer':
      return typeof schema.minimum === 'number' ? schema.minimum : 1;
    case 'boolean':
      return false;
    case 'null':
      return null;
    default:
      return `Fake ${name}`;
  }
}

// ---------------------------------------------------------------------------------------------
// Server
// ---------------------------------------------------------------------------------------------

/**
 * - `main`: a streamed request that offers tools (a user turn or a tool result);
 * - `router`: the model router's JSON complexity call; `json`: any other call with a schema;
 * - `side`: other helper calls; `count_tokens`; `other` (unknown paths).
 */
export type RequestKind = 'main' | 'router' | 'json' | 'side' | 'count_tokens' | 'other';

export type GeminiRequest = RecordedRequest<RequestKind> & {
  /** The model named in the path. */
  model?: string;
  /** Set on a main request that repeats the previous one: the same reply is sent. */
  retryOf?: number;
};

export interface ScriptContext {
  request: GenerateRequest;
  lastUser: LastUser;
  /** Index among the main requests answered (retries not counted), from 0. */
  turn: number;
  recorded: GeminiRequest;
}

export interface FakeGeminiOptions {
  script?: Script<ScriptContext, Reply>;
  /** Reply to `side` requests (default: a short text). */
  side?: Reply;
  /** Reply when the script is exhausted (default: a text saying so; counted in `exhausted`). */
  fallback?: Reply;
  log?: (line: string) => void;
  port?: number;
}

export interface FakeGemini extends FakeApi<GeminiRequest, ScriptContext, Reply> {
  /** `http://127.0.0.1:<port>`: GOOGLE_GEMINI_BASE_URL. */
  readonly url: string;
}

const ROUTE = /^\/v1(?:beta|alpha)?\/models\/([^/:]+):(streamGenerateContent|generateContent|countTokens)$/;

function summarize(reply: Reply): string {
  if (reply.type === 'error') return `error ${reply.status} ${reply.message}`;
  if (reply.type === 'hang') return 'hang';
  return reply.parts.map((p) => ('text' in p ? `text(${JSON.stringify(p.text.slice(0, 40))})` : `${p.functionCall.name}(${JSON.stringify(p.functionCall.args).slice(0, 60)})`)).join(', ');
}

export async function startFakeGemini(options: FakeGeminiOptions = {}): Promise<FakeGemini> {
  const runner = new MainScript<ScriptContext, Reply>(
    options.script ?? [],
    options.fallback ?? text('(fake-gemini: the test script has no reply for this request)'),
    (err) => apiError(500, `fake-gemini script threw: ${String(err)}`),
  );
  const unknownRequests: GeminiRequest[] = [];

  const core = await startFakeServer<RequestKind>({ name: 'fake-gemini', log: options.log, port: options.port }, 'other', async (entry: GeminiRequest, _req, res, server) => {
    const route = ROUTE.exec(entry.path);
    const body = entry.body;
    if (entry.method !== 'POST' || !route || typeof body !== 'object' || body === null) {
      unknownRequests.push(entry);
      entry.reply = '404';
      server.record(entry);
      server.log?.(`[fake-gemini +${entry.t}ms] ${entry.method} ${entry.url} → unknown, 404`);
      sendError(res, apiError(404, `fake-gemini: no route ${entry.method} ${entry.path}`));
      return;
    }
    const [, model, method] = route;
    entry.model = model;
    const request = body as GenerateRequest;
    if (method === 'countTokens') {
      entry.kind = 'count_tokens';
      entry.reply = 'countTokens';
      server.record(entry);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ totalTokens: Math.max(1, Math.ceil(JSON.stringify(body).length / 4)) }));
      return;
    }
    const lastUser = lastUserOf(request);
    const schema = request.generationConfig?.responseJsonSchema ?? request.generationConfig?.responseSchema;
    const hasTools = (request.tools ?? []).some((t) => (t.functionDeclarations ?? []).length > 0);
    let reply: Reply;
    if (method === 'streamGenerateContent' && hasTools) {
      entry.kind = 'main';
      reply = await runner.answer(entry, JSON.stringify(request.contents), server, (turn) => ({ request, lastUser, turn, recorded: entry }));
    } else if (schema) {
      const properties = Object.keys(schema.properties ?? {});
      entry.kind = properties.includes('complexity_score') ? 'router' : 'json';
      server.record(entry);
      reply = text(JSON.stringify(valueFromSchema(schema)));
    } else {
      entry.kind = 'side';
      server.record(entry);
      reply = options.side ?? text('Fake side answer.');
    }
    entry.reply = summarize(reply);
    server.log?.(`[fake-gemini +${entry.t}ms] POST ${entry.url} ${entry.kind}${entry.retryOf !== undefined ? ` (retry of #${entry.retryOf})` : ''} → ${entry.reply}`);
    await send(res, model ?? 'gemini-fake', method === 'streamGenerateContent', reply, server);
  });

  return fakeApi(core, runner, unknownRequests, { url: core.origin });
}

function sendError(res: http.ServerResponse, reply: ErrorReply): void {
  res.writeHead(reply.status, { 'content-type': 'application/json; charset=UTF-8' });
  res.end(JSON.stringify({ error: { code: reply.status, message: reply.message, status: reply.statusText } }));
}

async function send(res: http.ServerResponse, model: string, stream: boolean, reply: Reply, core: FakeServerCore<RequestKind>): Promise<void> {
  if (reply.type === 'hang') return hangUntilClosed(res, core);
  if (reply.type === 'error') return sendError(res, reply);
  if (reply.firstByteDelayMs) await sleep(reply.firstByteDelayMs);
  const responseId = randomBytes(12).toString('base64url');
  const usage = { promptTokenCount: 25, candidatesTokenCount: 5, totalTokenCount: 30 };
  const parts: Part[] = reply.parts.map((p) => ('text' in p ? { text: p.text } : { functionCall: { name: p.functionCall.name, args: p.functionCall.args } }));
  const finishReason = reply.finishReason ?? 'STOP';
  const candidate = (ps: Part[], last: boolean) => ({ content: { role: 'model', parts: ps }, index: 0, ...(last ? { finishReason } : {}) });

  if (!stream) {
    res.writeHead(200, { 'content-type': 'application/json; charset=UTF-8' });
    res.end(JSON.stringify({ candidates: [candidate(parts, true)], usageMetadata: usage, modelVersion: model, responseId }));
    return;
  }
  core.track(res);
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  const { delay, size } = pacing(reply, res, core);
  // One chunk per text piece; a function call travels whole in its own chunk.
  const pieces: Part[] = parts.flatMap((p) => (typeof p.text === 'string' ? chunks(p.text, size).map((t) => ({ text: t })) : [p]));
  for (const [i, piece] of pieces.entries()) {
    if (i > 0 && delay > 0) await sleep(delay);
    if (res.destroyed || core.closed) return;
    const last = i === pieces.length - 1;
    res.write(`data: ${JSON.stringify({ candidates: [candidate([piece], last)], ...(last ? { usageMetadata: usage } : {}), modelVersion: model, responseId })}\r\n\r\n`);
  }
  res.end();
}
