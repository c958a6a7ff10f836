/**
 * The fake model APIs that codex-headless and gemini-headless run the real CLIs against, checked
 * on their own (no agent needed): the wire shapes, the request classes that never consume the
 * script (Codex's title request, Gemini's router), and retries.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { exec, startFakeOpenAI, text as openaiText, TITLE_REQUEST, type FakeOpenAI } from '../support/fake-openai.js';
import { shell, startFakeGemini, text as geminiText, valueFromSchema, type FakeGemini } from '../support/fake-gemini.js';

let open: Array<FakeOpenAI | FakeGemini> = [];
afterEach(async () => {
  await Promise.all(open.map((api) => api.close()));
  open = [];
});

const userMessage = (text: string) => ({ type: 'message', role: 'user', content: [{ type: 'input_text', text }] });

/** The `data:` payloads of an SSE body. */
function sseData(body: string): Array<Record<string, unknown>> {
  return body
    .split(/\r?\n\r?\n/)
    .map((block) => block.split(/\r?\n/).find((line) => line.startsWith('data: ')))
    .filter((line): line is string => line !== undefined)
    .map((line) => JSON.parse(line.slice('data: '.length)) as Record<string, unknown>);
}

describe('fake OpenAI Responses API', () => {
  it('streams a function call in the Responses event order and answers the title request aside', async () => {
    const api = await startFakeOpenAI({ script: [exec('sleep 1'), openaiText('Done.')] });
    open.push(api);
    const post = (input: unknown[]) =>
      fetch(`${api.baseUrl}/responses`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'gpt-5.5', stream: true, input }) });

    const first = await post([userMessage('<environment_context/>'), userMessage('run it')]);
    expect(first.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events = sseData(await first.text());
    expect(events.map((e) => e.type)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.completed',
    ]);
    const item = (events[5] as { item: { type: string; name: string; arguments: string; call_id: string } }).item;
    expect(item).toMatchObject({ type: 'function_call', name: 'exec_command' });
    expect(JSON.parse(item.arguments)).toEqual({ cmd: 'sleep 1', yield_time_ms: 10_000 });
    expect((events.at(-1) as { response: { usage: { total_tokens: number } } }).response.usage.total_tokens).toBeGreaterThan(0);

    // The hidden title request does not consume the script.
    const title = sseData(await (await post([userMessage(`${TITLE_REQUEST} of at most 36 characters…`)])).text());
    expect(title.find((e) => e.type === 'response.output_text.done')).toMatchObject({ text: 'Fake task title' });

    // The tool result comes back: the next reply in the script; the same input again is a retry.
    const withOutput = [userMessage('run it'), { type: 'function_call', name: 'exec_command', arguments: '{}', call_id: item.call_id }, { type: 'function_call_output', call_id: item.call_id, output: 'ok' }];
    for (let i = 0; i < 2; i++) {
      const done = sseData(await (await post(withOutput)).text());
      expect(done.find((e) => e.type === 'response.output_text.done')).toMatchObject({ text: 'Done.' });
    }
    expect(api.mainRequests().map((r) => r.retryOf)).toEqual([undefined, undefined, 2]); // seq 2: the title request was seq 1
    expect(api.requests.map((r) => r.kind)).toEqual(['main', 'title', 'main', 'main']);
    expect(api.exhausted).toBe(0);
  });

  it('answers an error reply with the OpenAI error body, and unknown paths with 404', async () => {
    const api = await startFakeOpenAI({ script: [{ type: 'error', status: 400, errorType: 'invalid_request_error', code: null, message: 'nope' }] });
    open.push(api);
    const res = await fetch(`${api.baseUrl}/responses`, { method: 'POST', body: JSON.stringify({ model: 'm', input: [userMessage('hi')] }) });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: { message: 'nope', type: 'invalid_request_error', param: null, code: null } });
    expect((await fetch(`${api.baseUrl}/models`)).status).toBe(404);
    expect(api.unknownRequests).toHaveLength(1);
  });
});

describe('fake Gemini API', () => {
  const url = (api: FakeGemini, model: string, method: string) => `${api.url}/v1beta/models/${model}:${method}`;
  const tools = [{ functionDeclarations: [{ name: 'run_shell_command' }] }];

  it('answers the router from its schema and streams the main turn as SSE chunks', async () => {
    const api = await startFakeGemini({ script: [shell('sleep 1'), geminiText('Slept.')] });
    open.push(api);
    const routerBody = {
      contents: [{ role: 'user', parts: [{ text: 'say hello' }] }],
      generationConfig: {
        responseMimeType: 'application/json',
        responseJsonSchema: { type: 'OBJECT', properties: { complexity_reasoning: { type: 'STRING' }, complexity_score: { type: 'INTEGER' } } },
      },
    };
    const router = (await (await fetch(url(api, 'gemini-3.5-flash-lite', 'generateContent'), { method: 'POST', body: JSON.stringify(routerBody) })).json()) as {
      candidates: Array<{ content: { parts: Array<{ text: string }> }; finishReason: string }>;
    };
    expect(JSON.parse(router.candidates[0]?.content.parts[0]?.text ?? '')).toEqual({ complexity_reasoning: 'Fake complexity_reasoning', complexity_score: 1 });
    expect(router.candidates[0]?.finishReason).toBe('STOP');

    const main = { contents: [{ role: 'user', parts: [{ text: '<session_context/>' }, { text: 'sleep' }] }], tools };
    const res = await fetch(`${url(api, 'gemini-3.8-flash', 'streamGenerateContent')}?alt=sse`, { method: 'POST', body: JSON.stringify(main) });
    const chunks = sseData(await res.text()) as Array<{ candidates: Array<{ content: { parts: unknown[] }; finishReason?: string }> }>;
    expect(chunks.at(-1)?.candidates[0]).toMatchObject({ content: { parts: [{ functionCall: { name: 'run_shell_command', args: { command: 'sleep 1' } } }] }, finishReason: 'STOP' });
    expect(api.requests.map((r) => r.kind)).toEqual(['router', 'main']);
    expect(api.requests[1]?.model).toBe('gemini-3.8-flash');
  });

  it('builds a value for any schema: enums, numbers, nested objects', () => {
    expect(valueFromSchema({ type: 'object', properties: { next_speaker: { type: 'string', enum: ['user', 'model'] }, n: { type: 'number', minimum: 5 }, o: { type: 'OBJECT', properties: { b: { type: 'BOOLEAN' } } } } })).toEqual({
      next_speaker: 'user',
      n: 5,
      o: { b: false },
    });
  });
});
