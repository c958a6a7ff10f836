/**
 * One session floods 100 MB while another prints a timestamp every 100 ms: the quiet one's output
 * must still be parsed all through the flood, and memory must stay bounded (flow control pauses
 * the flooding pty instead of queueing its output — xterm would throw "write data discarded" at
 * 50 MB). Not starving is told by the flood's progress, not by a clock: ticks must be parsed in
 * every quarter of the flood's bytes, before its last byte. How promptly (the gaps and delays in
 * the report) is measured, not asserted: a loaded machine may stretch them.
 */
import { afterEach, expect, it } from 'vitest';
import { DEFAULT_FLOW_LIMITS } from '../../src/session/flow-control.js';
import { Owned, exitOf } from './helpers.js';

const owned = new Owned();
afterEach(() => owned.disposeAll());

const FLOOD_BYTES = 100 * 1024 * 1024;
const MB = 1024 * 1024;
const LINE = String.raw`\033[31mred \033[32mgreen \033[1;4mbold\033[0m 漢字 😀 \033[38;2;10;20;30mrgb\033[0m \033[7minverse\033[0m`;

it('a 100 MB flood neither starves another session nor grows memory without bound', { timeout: 300_000 }, async () => {
  global.gc?.();
  const rssBefore = process.memoryUsage.rss();

  // The ticker: an OSC 9 carrying the child's clock, every 100 ms. The OSC listener runs as the
  // screen parses it, so "now − payload" is the end-to-end delay, pty and parser included.
  const ticker = owned.session({
    file: 'sh',
    args: ['-c', String.raw`while :; do printf '\033]9;%s\007tick\r\n' "$(date +%s%3N)"; sleep 0.1; done`],
    cols: 80,
    rows: 24,
  });
  const arrivals: number[] = [];
  const delays: number[] = [];
  /** How much of the flood had arrived when each tick was parsed. */
  const progress: number[] = [];
  let received = 0;
  ticker.onOsc((code, payload) => {
    if (code !== 9) return;
    const now = Date.now();
    arrivals.push(now);
    delays.push(now - Number(payload));
    progress.push(received);
  });

  const flood = owned.session({
    file: 'sh',
    // Colour changes and wide glyphs on every line: parsing this is slower than the pty delivers it.
    // stty -onlcr: no \n → \r\n translation, so what arrives can be counted against what was sent.
    args: ['-c', `stty -onlcr; yes "$(printf '${LINE}')" | head -c ${FLOOD_BYTES}; sleep 0.3`],
    cols: 120,
    rows: 40,
  });
  let biggestChunk = 0;
  flood.onOutput((data) => {
    received += Buffer.byteLength(data);
    biggestChunk = Math.max(biggestChunk, data.length);
  });
  let peakRss = rssBefore;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage.rss());
  }, 20);

  const t0 = Date.now();
  const floodStart = arrivals.length;
  const exit = await exitOf(flood);
  const seconds = (Date.now() - t0) / 1000;
  clearInterval(sampler);

  const during = arrivals.slice(floodStart);
  const gaps = during.slice(1).map((t, i) => t - (during[i] as number));
  const worstGap = Math.max(...gaps);
  const worstDelay = Math.max(...delays.slice(floodStart));
  // The quarters of the flood (by bytes arrived) in which a tick was parsed, before its end.
  const quarters = [...new Set(progress.slice(floodStart).filter((bytes) => bytes < FLOOD_BYTES).map((bytes) => Math.floor((bytes / FLOOD_BYTES) * 4)))].sort((a, b) => a - b);
  const { pauses, maxPending } = flood.flowStats;
  const report = {
    floodMB: +(received / MB).toFixed(1),
    seconds: +seconds.toFixed(1),
    throughputMBps: +(received / MB / seconds).toFixed(1),
    tickerLinesDuringFlood: during.length,
    tickQuarters: quarters.join(''),
    worstGapMs: worstGap,
    worstDelayMs: worstDelay,
    maxPendingKB: Math.round(maxPending / 1024),
    biggestChunkKB: Math.round(biggestChunk / 1024),
    pauses,
    rssBeforeMB: Math.round(rssBefore / MB),
    peakRssMB: Math.round(peakRss / MB),
  };
  console.log('flood report', JSON.stringify(report));

  expect(exit).toEqual({ code: 0, signal: null });
  expect(received).toBe(FLOOD_BYTES);
  expect(during.length).toBeGreaterThan(5);
  // Parsed all along the flood: a session that hogged the loop until its flood was done would leave
  // the ticks to the end (or to the flood's last quarter, were it only slow to yield).
  expect(quarters, JSON.stringify(report)).toEqual([0, 1, 2, 3]);
  // The backlog stays bounded: below the high watermark, or one read chunk above it when paused.
  expect(maxPending).toBeLessThan(DEFAULT_FLOW_LIMITS.high + 64 * 1024);
  expect(peakRss - rssBefore).toBeLessThan(200 * MB);
  void pauses;
});

// Above, xterm usually keeps up (it parses in 12 ms slices between reads, and the kernel's pty
// buffer holds the child back meanwhile), so the watermarks may never be crossed. Here they are
// set low enough that they must be, to prove that pausing bounds the backlog and loses nothing.
it('pauses and resumes the pty around the watermarks without losing output', { timeout: 60_000 }, async () => {
  const limits = { high: 32 * 1024, low: 8 * 1024 };
  const bytes = 8 * MB;
  const flood = owned.session({
    file: 'sh',
    args: ['-c', `stty -onlcr; yes "$(printf '${LINE}')" | head -c ${bytes}; printf '\\033]9;end\\007'; sleep 0.3`],
    cols: 120,
    rows: 40,
    flow: limits,
  });
  let received = 0;
  let biggestChunk = 0;
  flood.onOutput((data) => {
    received += Buffer.byteLength(data);
    biggestChunk = Math.max(biggestChunk, data.length);
  });
  let ended = false;
  flood.onOsc((code, payload) => (ended ||= code === 9 && payload === 'end'));
  expect(await exitOf(flood)).toEqual({ code: 0, signal: null });
  const { pauses, maxPending } = flood.flowStats;
  console.log('watermark report', JSON.stringify({ pauses, maxPendingKB: Math.round(maxPending / 1024), biggestChunkKB: Math.round(biggestChunk / 1024) }));
  expect(pauses).toBeGreaterThan(0);
  expect(maxPending).toBeLessThanOrEqual(limits.high + biggestChunk);
  // Every byte of the flood arrived, and the marker after it.
  expect(received).toBe(bytes + '\x1b]9;end\x07'.length);
  expect(ended).toBe(true);
  expect(flood.flow).toEqual({ pending: 0, paused: false });
});
