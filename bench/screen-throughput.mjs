#!/usr/bin/env node
/**
 * pty → screen throughput, as a ratio against raw node-pty on the same stream in the same run.
 *
 * The machine is shared and noisy, so absolute MB/s mean little; the ratio says what the screen
 * (parsing, flow control) costs on top of the pty. Runs the BUILT output:
 *
 *   npx tsc -p tsconfig.build.json && node bench/screen-throughput.mjs [MB] [runs]
 *
 * For each stream (plain text; colour- and wide-glyph-heavy lines like an agent's UI), it times:
 *   raw     node-pty alone: spawn `cat file`, count characters until all arrived
 *   session Session (pty → flow control → headless xterm): until the last chunk is parsed
 *   screen  Screen alone, no pty: write the same text in 16 KB chunks until parsed
 * and reports medians of `runs` alternating runs.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pty from 'node-pty';

const here = path.dirname(fileURLToPath(import.meta.url));
const dist = path.join(here, '..', 'dist', 'session');
const { Session } = await import(path.join(dist, 'session.js')).catch(() => {
  console.error('bench: dist/ is missing or stale — run `npx tsc -p tsconfig.build.json` first');
  process.exit(1);
});
const { Screen } = await import(path.join(dist, 'screen.js'));

const MB = 1024 * 1024;
const sizeMB = Number(process.argv[2] ?? 32);
const runs = Number(process.argv[3] ?? 3);
const COLS = 120;
const ROWS = 40;

const STREAMS = {
  plain: (i) => `${i} the quick brown fox jumps over the lazy dog; lorem ipsum dolor sit amet, consectetur\n`,
  agent: (i) =>
    `\x1b[2m${i}\x1b[0m \x1b[38;2;215;119;87m✻\x1b[0m \x1b[1mWorking\x1b[0m… \x1b[38;5;246m(5s · ↓ 23 tokens)\x1b[0m ` +
    `漢字 😀 \x1b[32m+ added line\x1b[0m \x1b[31m- removed\x1b[0m \x1b[7m inverse \x1b[0m\x1b[K\n`,
};

function makeFile(dir, name, line) {
  const parts = [];
  let length = 0;
  for (let i = 0; length < sizeMB * MB; i++) {
    const l = line(i);
    parts.push(l);
    length += Buffer.byteLength(l);
  }
  const file = path.join(dir, `${name}.txt`);
  writeFileSync(file, parts.join(''));
  return { file, chars: readFileSync(file, 'utf8').length, bytes: length };
}

// `stty -onlcr`: no \n → \r\n translation, so the character count is known in advance. The
// trailing sleep keeps the pty open until everything is read (node-pty can lose the last bytes
// before an exit); timing stops at the last character, not at the exit.
const command = (file) => ['-c', `stty -onlcr; cat '${file}'; sleep 1`];

function timeRaw({ file, chars }) {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const child = pty.spawn('sh', command(file), { cols: COLS, rows: ROWS, name: 'xterm-256color' });
    let got = 0;
    child.onData((data) => {
      got += data.length;
      if (got >= chars) {
        resolve(performance.now() - t0);
        child.kill('SIGKILL');
      }
    });
  });
}

function timeSession({ file, chars }) {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const session = Session.start({ file: 'sh', args: command(file), cols: COLS, rows: ROWS });
    let parsed = 0;
    session.onChunkParsed((data) => {
      parsed += data.length;
      if (parsed >= chars) {
        resolve({ ms: performance.now() - t0, pauses: session.flowStats.pauses, maxPendingKB: Math.round(session.flowStats.maxPending / 1024) });
        session.dispose();
      }
    });
  });
}

function timeScreen({ file }) {
  const text = readFileSync(file, 'utf8');
  return new Promise((resolve) => {
    const screen = new Screen({ cols: COLS, rows: ROWS, onReply: () => {} });
    const t0 = performance.now();
    const CHUNK = 16 * 1024;
    for (let i = 0; i < text.length; i += CHUNK) screen.write(text.slice(i, i + CHUNK));
    screen.flush().then(() => {
      resolve(performance.now() - t0);
      screen.dispose();
    });
  });
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const mbps = (bytes, ms) => +(bytes / MB / (ms / 1000)).toFixed(1);

const dir = mkdtempSync(path.join(tmpdir(), 'belltower-bench-'));
try {
  const results = {};
  for (const [name, line] of Object.entries(STREAMS)) {
    const stream = makeFile(dir, name, line);
    const raw = [];
    const session = [];
    const screen = [];
    let flow;
    for (let i = 0; i < runs; i++) {
      raw.push(await timeRaw(stream));
      const s = await timeSession(stream);
      session.push(s.ms);
      flow = s;
      screen.push(await timeScreen(stream));
    }
    const rawMBps = mbps(stream.bytes, median(raw));
    const sessionMBps = mbps(stream.bytes, median(session));
    results[name] = {
      MB: +(stream.bytes / MB).toFixed(1),
      rawPtyMBps: rawMBps,
      sessionMBps,
      screenOnlyMBps: mbps(stream.bytes, median(screen)),
      ratioSessionToRaw: +(sessionMBps / rawMBps).toFixed(2),
      lastRunPauses: flow.pauses,
      lastRunMaxPendingKB: flow.maxPendingKB,
    };
  }
  console.log(JSON.stringify({ bench: 'screen-throughput', runs, cols: COLS, rows: ROWS, results }, null, 2));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
