/**
 * Fuzzing, bounded to seconds and seeded (a failure prints its seed and shrunk input to replay):
 * - mutated recordings into `replay`: exit 0, 1 or 2, never a throw, never a hang;
 * - random bytes and OSC payloads into a screen and a tile's pipeline: no throw, bounded state;
 * - random hook requests into the hook server: 200 or a 4xx, never a 500, and it keeps serving.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { profileFor } from '../../src/agents/registry.js';
import { replayCommand } from '../../src/cli/replay-command.js';
import { Screen } from '../../src/session/screen.js';
import { HookServer, type HookRegistration } from '../../src/sources/hooks/hook-server.js';
import { TilePipeline } from '../../src/tile/tile-pipeline.js';
import { DEFAULT_TIMING } from '../../src/verdict/timing.js';

const SEED = Number(process.env.BELLTOWER_FUZZ_SEED ?? 20261201);
const fixtures = join(import.meta.dirname, '..', '..', 'fixtures');
const BASES = [
  'scenarios/plain-turn.jsonl',
  'scenarios/background-shell.jsonl',
  'scenarios/title-only-claude.jsonl',
  'scenarios/psp-only.jsonl',
  'codex-0.171.0/permission.jsonl',
].map((file) => readFileSync(join(fixtures, file), 'utf8').trimEnd().split('\n'));

const ESC = '\x1b';
const NASTY_NUMBERS = [-1, 0, 1, 2 ** 31, 2 ** 53, 1e308, -0, 0.5, 65536, 100_000];

/** One edit to a recording's lines. */
const mutation = fc.oneof(
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('duplicate' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('swap' as const), at: fc.nat(), with: fc.nat() }),
  fc.record({ kind: fc.constant('cut' as const), at: fc.nat(), length: fc.nat() }),
  fc.record({ kind: fc.constant('char' as const), at: fc.nat(), position: fc.nat(), char: fc.constantFrom('{', '}', '"', ',', ':', '0', '\\', ESC, '\u0000', 'é') }),
  fc.record({ kind: fc.constant('number' as const), at: fc.nat(), key: fc.constantFrom('t', 'seq', 'cols', 'rows', 'code', 'version', 'conflictWindowMs'), value: fc.constantFrom(...NASTY_NUMBERS) }),
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), line: fc.oneof(fc.json(), fc.string(), fc.constantFrom('{"type":"end","t":1,"seq":999999}', '{"type":"pty","t":1,"seq":999998,"data":"\\u001b]7501;state=done\\u0007"}')) }),
  fc.record({ kind: fc.constant('version' as const), version: fc.constantFrom(1, 2, 3) }),
  fc.record({ kind: fc.constant('header' as const), key: fc.constantFrom('cols', 'rows', 'conflictWindowMs', 'heldReleaseQuietMs'), value: fc.constantFrom(...NASTY_NUMBERS) }),
);

type Mutation = typeof mutation extends fc.Arbitrary<infer T> ? T : never;

function mutate(lines: string[], edits: Mutation[]): string {
  const out = [...lines];
  for (const edit of edits) {
    const i = 'at' in edit ? edit.at % Math.max(1, out.length) : 0;
    switch (edit.kind) {
      case 'delete':
        out.splice(i, 1);
        break;
      case 'duplicate':
        out.splice(i, 0, out[i] ?? '');
        break;
      case 'swap': {
        const j = edit.with % Math.max(1, out.length);
        [out[i], out[j]] = [out[j] ?? '', out[i] ?? ''];
        break;
      }
      case 'cut':
        out[i] = (out[i] ?? '').slice(0, edit.length % Math.max(1, (out[i] ?? '').length));
        break;
      case 'char': {
        const line = out[i] ?? '';
        const p = edit.position % Math.max(1, line.length);
        out[i] = line.slice(0, p) + edit.char + line.slice(p + 1);
        break;
      }
      case 'number':
        out[i] = (out[i] ?? '').replace(new RegExp(`"${edit.key}":-?[0-9.e+]+`), `"${edit.key}":${edit.value}`);
        break;
      case 'insert':
        out.splice(i, 0, edit.line);
        break;
      case 'version':
        out[0] = (out[0] ?? '').replace(/"version":\d+/, `"version":${edit.version}`);
        break;
      case 'header':
        out[0] = (out[0] ?? '').replace(new RegExp(`"${edit.key}":-?[0-9.e+]+`), `"${edit.key}":${edit.value}`);
        break;
    }
  }
  return out.join('\n') + (edits.length % 2 === 0 ? '\n' : '');
}

describe('fuzz', () => {
  let dir = '';
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'bt-fuzz-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('mutated recordings: replay exits 0, 1 or 2 and never throws', { timeout: 60_000 }, async () => {
    const file = join(dir, 'mutated.jsonl');
    await fc.assert(
      fc.asyncProperty(fc.nat(BASES.length - 1), fc.array(mutation, { minLength: 1, maxLength: 4 }), fc.boolean(), async (base, edits, check) => {
        writeFileSync(file, mutate(BASES[base] as string[], edits));
        const errors: string[] = [];
        const code = await replayCommand(file, { check, json: !check }, { line: () => {}, error: (text) => errors.push(text) });
        expect([0, 1, 2]).toContain(code);
        for (const message of errors) expect(message).not.toMatch(/^\s+at /m);
      }),
      { seed: SEED, numRuns: 300 },
    );
  });

  it('random output and OSC payloads through a screen and a tile pipeline: no throw, bounded state', { timeout: 60_000 }, async () => {
    const fragment = fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.string({ unit: 'binary', maxLength: 40 }),
      fc.constantFrom(`${ESC}]7501;`, `${ESC}]0;`, `${ESC}]2;`, `${ESC}]9;`, '\x07', `${ESC}\\`, `${ESC}[c`, `${ESC}[6n`, `${ESC}P$qm${ESC}\\`, `${ESC}]7501;?\x07`, '\r\n', '✻ Worked for 3s', '◐ ', '✳ '),
      fc.tuple(fc.constantFrom('working', 'done', 'idle', 'blocked', 'error', 'clear', 'bogus'), fc.string({ unit: 'grapheme-ascii', maxLength: 12 }), fc.nat(200)).map(
        ([state, id, n]) => `${ESC}]7501;state=${state}:id=${id || n}:msg=${Buffer.from(id).toString('base64')}\x07`,
      ),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(fragment, { maxLength: 30 }).map((parts) => parts.join('')), { minLength: 1, maxLength: 12 }), fc.constantFrom('claude', 'codex', 'gemini', 'shell'), async (chunks, agent) => {
        const profile = profileFor(agent);
        const screen = new Screen({ cols: 40, rows: 10, onReply: () => {} });
        const pipeline = new TilePipeline({ profile, timing: { ...DEFAULT_TIMING }, screenDerived: true });
        screen.onOsc((code, payload) => pipeline.oscParsed(code, payload));
        try {
          let t = 0;
          for (const chunk of chunks) {
            t += 100;
            pipeline.ptyReceived(chunk, t);
            await new Promise<void>((resolve) => screen.write(chunk, () => (pipeline.ptyParsed(), resolve())));
          }
          pipeline.finish(t + 10_000_000);
          const state = pipeline.state;
          expect(pipeline.pending).toBe(false);
          expect(Object.keys(state.gate.children).length).toBeLessThanOrEqual(state.options.maxTracked);
          expect(state.why.length).toBeLessThanOrEqual(state.options.whyDepth);
        } finally {
          screen.dispose();
        }
      }),
      { seed: SEED, numRuns: 60 },
    );
  });

  describe('the hook server', () => {
    let server: HookServer;
    let tile: HookRegistration;
    beforeAll(async () => {
      server = await HookServer.start({ requestTimeoutMs: 500 });
      tile = server.register('tile-1', () => {});
    });
    afterAll(async () => {
      await server.close();
    });

    function exchange(bytes: Buffer): Promise<number> {
      return new Promise((resolve) => {
        const socket = net.connect({ host: '127.0.0.1', port: server.port });
        let received = '';
        socket.on('connect', () => socket.end(bytes));
        socket.on('data', (chunk) => (received += chunk.toString('latin1')));
        socket.on('error', () => {});
        socket.on('close', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(received)?.[1] ?? 0)));
      });
    }

    it('random requests: 200 or a 4xx (or a closed connection), never a 500', { timeout: 60_000 }, async () => {
      const body = fc.oneof(
        fc.json({ depthSize: 'medium' }),
        fc.string({ unit: 'binary', maxLength: 200 }),
        fc.nat(20_000).map((n) => `{"hook_event_name":"Stop","session_id":"s","x":${'['.repeat(n % 6_000)}${']'.repeat(n % 6_000)}}`),
        fc.record({ hook_event_name: fc.constantFrom('Stop', 'UserPromptSubmit', 'Notification', ''), session_id: fc.string(), prompt: fc.string() }).map((v) => JSON.stringify(v)),
      );
      const target = fc.oneof(fc.constant('/hook/tile-1'), fc.constant('/hook/tile-1?event=notify'), fc.string({ unit: 'grapheme-ascii', maxLength: 20 }).map((s) => `/${s}`), fc.constantFrom('//[', 'http://[', '*', '/hook/../hook/tile-1'));
      const auth = fc.oneof(fc.constant(`Bearer ${tile.token}`), fc.constant('Bearer nope'), fc.constant(''), fc.string({ unit: 'grapheme-ascii', maxLength: 30 }));
      await fc.assert(
        fc.asyncProperty(fc.constantFrom('POST', 'GET', 'PUT'), target, auth, body, fc.boolean(), async (method, path, authorization, text, chunked) => {
          const payload = Buffer.from(text, 'utf8');
          const headers = [`${method} ${path.replace(/[\r\n ]/g, '')} HTTP/1.1`, 'Host: x', ...(authorization ? [`Authorization: ${authorization.replace(/[\r\n]/g, '')}`] : [])];
          const framed = chunked
            ? Buffer.concat([Buffer.from([...headers, 'Transfer-Encoding: chunked', '', ''].join('\r\n')), Buffer.from(`${payload.length.toString(16)}\r\n`), payload, Buffer.from('\r\n0\r\n\r\n')])
            : Buffer.concat([Buffer.from([...headers, `Content-Length: ${payload.length}`, '', ''].join('\r\n')), payload]);
          const status = await exchange(framed);
          expect(status === 0 || status === 200 || (status >= 400 && status < 500)).toBe(true);
        }),
        { seed: SEED, numRuns: 250 },
      );
      // Still serving.
      const stop = '{"hook_event_name":"Stop","session_id":""}';
      expect(await exchange(Buffer.from(`POST /hook/tile-1 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${tile.token}\r\nContent-Length: ${stop.length}\r\n\r\n${stop}`))).toBe(200);
    });
  });
});
