/**
 * 4. Detection latency: a turn-end claim received → BEL written to the terminal, through the real
 * hook server, engine and UI. Two sources:
 *   hook  `claude` tiles (BELLTOWER_CLAUDE_BIN = programs/fake-claude.mjs) whose hooks the
 *         benchmark posts itself, to the URL and with the token belltower injected:
 *         UserPromptSubmit, then Stop; the clock starts when the Stop request is sent.
 *   psp   command tiles (programs/psp-turns.mjs) told over UDP to print OSC 7501 working, then
 *         done; the clock starts when the "done" datagram is sent.
 * Turns go round-robin over the tiles, one every `slotMs`, so the bells come in the order of the
 * claims (each tile's turns are further apart than the conflict window): the n-th bell is the n-th
 * claim's. The engine holds a fresh done for the conflict window by design; the goal is that
 * nothing else adds more than 10 ms. belltower runs with `--quiet-period 0`: by default a tile that
 * rings again within 30 s is shown, not rung, and here each tile ends a turn every second.
 */
import dgram from 'node:dgram';
import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pty from 'node-pty';
import { startGrid } from '../lib/grid.mjs';
import { percentile, sleep, until } from '../lib/stats.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const FAKE_CLAUDE = path.join(here, '..', 'programs', 'fake-claude.mjs');
const PSP_TURNS = path.join(here, '..', 'programs', 'psp-turns.mjs');
const FLOOR = path.join(here, '..', 'programs', 'bell-floor.mjs');
export const CONFLICT_WINDOW_MS = 750; // the engine's default (src/verdict/timing.ts)

const agent = new http.Agent({ keepAlive: true });

function post({ url, headers }, body) {
  return new Promise((resolve, reject) => {
    const data = JSON.stringify(body);
    const req = http.request(url, { method: 'POST', agent, headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) } }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`bench: ${url} answered ${res.statusCode}`))));
    });
    req.setTimeout(30_000, () => req.destroy(new Error(`bench: ${url} did not answer in 30 s`)));
    req.on('error', reject);
    req.end(data);
  });
}

/**
 * With `strict`, a turn whose bell never rang is an error (the smoke run), not a row of the table
 * that says how many rang.
 */
export async function latency({ source, turns = 200, tiles = 10, slotMs = 100, startGapMs = 30, terminal = { cols: 200, rows: 50 }, strict = false }) {
  const socket = dgram.createSocket('udp4');
  await new Promise((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const peers = [];
  socket.on('message', (m) => peers.push(JSON.parse(m.toString())));
  const config = mkdtempSync(path.join(tmpdir(), 'belltower-bench-claude-'));
  const specs = Array.from({ length: tiles }, () => (source === 'hook' ? 'claude' : `'${process.execPath}' '${PSP_TURNS}'`));
  const grid = startGrid({
    specs,
    cols: terminal.cols,
    rows: terminal.rows,
    // Every turn's done rings: by default a tile that rang in the last 30 s is shown, not rung.
    args: ['--quiet-period', '0'],
    env: { BENCH_UDP: String(socket.address().port), BELLTOWER_CLAUDE_BIN: FAKE_CLAUDE, CLAUDE_CONFIG_DIR: config },
  });
  const sent = [];
  try {
    await grid.firstFrame();
    const reported = () => {
      const failed = peers.find((p) => p.error);
      if (failed) throw new Error(`bench: latency (${source}): tile ${failed.tile ?? '?'}: ${failed.error}`);
      if (grid.exited) throw new Error(`bench: latency (${source}): belltower exited (code ${grid.exitCode}) before every tile reported in`);
      return peers.length === tiles;
    };
    await until(reported, 'every tile to report in', 60_000);
    await sleep(500);
    const bells0 = grid.bells.length;
    const udp = (peer, word) => new Promise((resolve) => socket.send(word, peer.port, '127.0.0.1', resolve));
    const begin = performance.now();
    for (let i = 0; i < turns; i++) {
      const peer = peers[i % tiles];
      const slot = begin + i * slotMs;
      await sleep(Math.max(0, slot - performance.now()));
      if (source === 'hook') await post(peer.prompt, { session_id: peer.sessionId, hook_event_name: 'UserPromptSubmit', prompt: `turn ${i}` });
      else await udp(peer, 'working');
      await sleep(startGapMs);
      const t0 = performance.now();
      sent.push(t0);
      if (source === 'hook') await post(peer.stop, { session_id: peer.sessionId, hook_event_name: 'Stop', last_assistant_message: 'done' });
      else await udp(peer, 'done');
    }
    const rang = () => grid.bells.length - bells0;
    await until(() => rang() >= turns, `${turns} bells`, CONFLICT_WINDOW_MS * 4 + 10_000).catch(() => {});
    if (strict && rang() < turns) throw new Error(`bench: latency (${source}): timed out waiting for ${turns} bells, ${rang()} rang`);
    const bells = grid.bells.slice(bells0);
    const lat = sent.slice(0, bells.length).map((t0, i) => bells[i] - t0);
    return {
      source,
      turns,
      bells: bells.length,
      p50: percentile(lat, 50),
      p99: percentile(lat, 99),
      max: Math.max(...lat),
      windowMs: CONFLICT_WINDOW_MS,
    };
  } finally {
    socket.close();
    await grid.stop();
    rmSync(config, { recursive: true, force: true });
  }
}

/**
 * The same turns against the least any program could do (programs/bell-floor.mjs: one timer per
 * POST, then a BEL), in a pty read the same way: what this machine adds by itself.
 */
export async function latencyFloor({ turns = 200, slotMs = 100, startGapMs = 30, strict = false } = {}) {
  const term = pty.spawn(process.execPath, [FLOOR, String(CONFLICT_WINDOW_MS)], { cols: 80, rows: 24, name: 'xterm-256color' });
  let text = '';
  const bells = [];
  term.onData((data) => {
    const now = performance.now();
    text += data;
    for (let i = data.indexOf('\x07'); i !== -1; i = data.indexOf('\x07', i + 1)) bells.push(now);
  });
  try {
    await until(() => /port=\d+/.test(text), 'the floor server to print its port', 30_000);
    const url = `http://127.0.0.1:${/port=(\d+)/.exec(text)[1]}/stop`;
    const sent = [];
    const begin = performance.now();
    for (let i = 0; i < turns; i++) {
      await sleep(Math.max(0, begin + i * slotMs + startGapMs - performance.now()));
      sent.push(performance.now());
      await post({ url, headers: {} }, { hook_event_name: 'Stop' });
    }
    await until(() => bells.length >= turns, 'the floor bells', CONFLICT_WINDOW_MS * 4 + 10_000).catch(() => {});
    if (strict && bells.length < turns) throw new Error(`bench: latency floor: timed out waiting for ${turns} bells, ${bells.length} rang`);
    const lat = sent.slice(0, bells.length).map((t0, i) => bells[i] - t0);
    return { turns, bells: bells.length, p50: percentile(lat, 50), p99: percentile(lat, 99), max: Math.max(...lat), windowMs: CONFLICT_WINDOW_MS };
  } finally {
    term.kill();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (process.argv[2] === 'floor') {
    console.log(await latencyFloor({ turns: Number(process.argv[3] ?? 50) }));
    process.exit(0);
  }
  console.log(await latency({ source: process.argv[2] ?? 'hook', turns: Number(process.argv[3] ?? 50) }));
}
