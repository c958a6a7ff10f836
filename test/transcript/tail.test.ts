/**
 * The tail against real files appended in real time. Correctness waits on predicates, with
 * generous deadlines (the suite must pass on a loaded machine); the only sleeps pace the writer
 * (appends 10 ms apart, as an agent writes a turn's records). How fast a record arrives is
 * measured, not asserted: BELLTOWER_MEASURE=1 prints it. Where a test proves that the watchers
 * (not the poll) delivered, the poll is an hour away, far past any deadline here.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TranscriptTail, type TailOptions } from '../../src/sources/transcript/tail.js';
import { waitFor as waitForWithin } from './wait-for.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const line = (value: unknown) => `${JSON.stringify(value)}\n`;
/** Longer than any test here: with it, only the watchers (and the re-check) can deliver a record. */
const NO_POLL = 3_600_000;
const DEADLINE_MS = 30_000;
const waitFor: typeof waitForWithin = (probe, options) => waitForWithin(probe, { timeoutMs: DEADLINE_MS, ...options });

describe('TranscriptTail', { timeout: 120_000 }, () => {
  let root: string;
  let tails: TranscriptTail[];
  let got: { record: unknown; path: string; at: number }[];
  let logs: { level: string; message: string }[];

  const open = (file: string, extra: Partial<TailOptions> = {}) => {
    const tail = new TranscriptTail({
      path: file,
      onRecord: (record, p) => got.push({ record, path: p, at: performance.now() }),
      logger: (level, message) => logs.push({ level, message }),
      ...extra,
    });
    tails.push(tail);
    return tail;
  };
  const records = () => got.map((g) => g.record);

  beforeEach(() => {
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'bt-tail-')));
    tails = [];
    got = [];
    logs = [];
  });
  afterEach(async () => {
    await Promise.all(tails.map((t) => t.close()));
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('waits for a file whose folders do not exist yet, then reads it', async () => {
    const file = path.join(root, 'projects', '-work-app', 's1.jsonl');
    open(file, { pollMs: NO_POLL }); // prove discovery does not lean on the poll
    await sleep(50);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, line({ n: 1 }));
    await waitFor(() => got.length === 1, { what: 'first record' });
    fs.appendFileSync(file, line({ n: 2 }));
    await waitFor(() => got.length === 2, { what: 'second record' });
    expect(records()).toEqual([{ n: 1 }, { n: 2 }]);
    expect(got[0]?.path).toBe(file);
  });

  async function burstLatencies(file: string, bursts: number): Promise<number[]> {
    const latencies: number[] = [];
    let n = 0;
    for (let b = 0; b < bursts; b++) {
      let lastAt = 0;
      for (let i = 0; i < 10; i++) {
        fs.appendFileSync(file, line({ n: ++n }));
        lastAt = performance.now();
        if (i < 9) await sleep(10);
      }
      const want = n;
      const arrival = await waitFor(() => got.find((g) => (g.record as { n: number }).n === want)?.at, { what: `record ${want}` });
      latencies.push(arrival - lastAt);
      await sleep(30);
    }
    expect(records()).toEqual(Array.from({ length: n }, (_, i) => ({ n: i + 1 })));
    return latencies.sort((a, b) => a - b);
  }

  const report = (label: string, sorted: number[]) => {
    const p50 = sorted[Math.floor(sorted.length / 2)] ?? NaN;
    const max = sorted[sorted.length - 1] ?? NaN;
    if (process.env.BELLTOWER_MEASURE) console.info(`${label}: last-append latency p50 ${p50.toFixed(1)} ms, max ${max.toFixed(1)} ms`);
  };

  // Without the poll, a last append the watchers miss would never arrive: each burst's wait fails.
  // (How soon it arrives is bench material; BELLTOWER_MEASURE=1 prints it.)
  it('sees the LAST append of every 10-ms burst without the poll (fs.watch + chokidar + recheck)', async () => {
    const file = path.join(root, 'burst.jsonl');
    fs.writeFileSync(file, '');
    const tail = open(file, { pollMs: NO_POLL });
    await tail.flush();
    report('fs.watch+chokidar', await burstLatencies(file, 8));
  });

  it('still sees the last append with chokidar alone, thanks to the re-check after the last event', async () => {
    const file = path.join(root, 'burst-chokidar.jsonl');
    fs.writeFileSync(file, '');
    const tail = open(file, { pollMs: NO_POLL, directoryWatch: false });
    await tail.flush();
    report('chokidar+recheck', await burstLatencies(file, 6)); // 60 ms re-check after chokidar's last (throttled) event
  });

  it('buffers a partial last line until it is complete', async () => {
    const file = path.join(root, 'partial.jsonl');
    fs.writeFileSync(file, '{"n":1}\n{"n":');
    const tail = open(file);
    await waitFor(() => got.length === 1);
    await tail.flush();
    expect(records()).toEqual([{ n: 1 }]);
    fs.appendFileSync(file, '2,"t":"日');
    await tail.flush();
    expect(got).toHaveLength(1);
    fs.appendFileSync(file, '本"}\n');
    await waitFor(() => got.length === 2);
    expect(records()).toEqual([{ n: 1 }, { n: 2, t: '日本' }]);
  });

  it('restarts from 0 when the file is truncated', async () => {
    const file = path.join(root, 'trunc.jsonl');
    fs.writeFileSync(file, line({ n: 1 }) + line({ n: 2 }));
    const tail = open(file);
    await waitFor(() => got.length === 2);
    fs.truncateSync(file, 0);
    await tail.flush(); // a truncate-then-regrow faster than any read cannot be told from an append
    fs.appendFileSync(file, line({ n: 3 }));
    await waitFor(() => got.length === 3);
    expect(records()).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
  });

  it('reopens from 0 when the file is replaced (another inode)', async () => {
    const file = path.join(root, 'replace.jsonl');
    fs.writeFileSync(file, line({ n: 1 }) + line({ n: 2 }) + line({ n: 3 }));
    open(file);
    await waitFor(() => got.length === 3);
    const tmp = path.join(root, 'replace.tmp');
    fs.writeFileSync(tmp, line({ fresh: 1 }) + line({ fresh: 2 }) + line({ fresh: 3 }) + line({ fresh: 4 }));
    fs.renameSync(tmp, file);
    await waitFor(() => got.length === 7);
    expect(records().slice(3)).toEqual([{ fresh: 1 }, { fresh: 2 }, { fresh: 3 }, { fresh: 4 }]);
  });

  it('switchTo drains the old file, then follows the new one from its start', async () => {
    const oldFile = path.join(root, 'old.jsonl');
    const newFile = path.join(root, 'later', 'new.jsonl');
    fs.writeFileSync(oldFile, line({ old: 1 }));
    const tail = open(oldFile);
    await waitFor(() => got.length === 1);
    fs.appendFileSync(oldFile, line({ old: 2 }));
    tail.switchTo(newFile);
    expect(tail.path).toBe(newFile);
    fs.mkdirSync(path.dirname(newFile));
    fs.writeFileSync(newFile, line({ new: 1 }));
    await waitFor(() => got.length === 3);
    fs.appendFileSync(oldFile, line({ old: 3 })); // the old file is no longer followed
    fs.appendFileSync(newFile, line({ new: 2 }));
    await waitFor(() => got.length === 4);
    await tail.flush();
    expect(got.map((g) => [g.record, path.basename(g.path)])).toEqual([
      [{ old: 1 }, 'old.jsonl'],
      [{ old: 2 }, 'old.jsonl'],
      [{ new: 1 }, 'new.jsonl'],
      [{ new: 2 }, 'new.jsonl'],
    ]);
  });

  it('logs and skips a corrupt line, never stopping', async () => {
    const file = path.join(root, 'corrupt.jsonl');
    fs.writeFileSync(file, `${line({ n: 1 })}{not json\n\n${line({ n: 2 })}`);
    open(file);
    await waitFor(() => got.length === 2);
    expect(records()).toEqual([{ n: 1 }, { n: 2 }]);
    expect(logs).toContainEqual({ level: 'warn', message: 'transcript: corrupt line skipped' });
  });

  it('fromStart:false skips what the file held, not what comes after', async () => {
    const file = path.join(root, 'resume.jsonl');
    fs.writeFileSync(file, line({ history: 1 }));
    const tail = open(file, { fromStart: false });
    await tail.flush();
    fs.appendFileSync(file, line({ n: 1 }));
    await waitFor(() => got.length === 1);
    expect(records()).toEqual([{ n: 1 }]);
  });

  it('emits nothing after close', async () => {
    const file = path.join(root, 'closed.jsonl');
    fs.writeFileSync(file, line({ n: 1 }));
    const tail = open(file);
    await waitFor(() => got.length === 1);
    await tail.close();
    fs.appendFileSync(file, line({ n: 2 }));
    await sleep(150); // longer than the re-check: nothing may arrive
    expect(got).toHaveLength(1);
  });
});

describe('TranscriptTail discovery race', { timeout: 60_000 }, () => {
  it('finds a file created while the watchers were still starting, without waiting for the poll', async () => {
    const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'bt-tail-race-')));
    const file = path.join(root, 'projects', '-work-app', 's.jsonl');
    const got: unknown[] = [];
    const tail = new TranscriptTail({ path: file, pollMs: NO_POLL, onRecord: (rec) => got.push(rec) });
    try {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, line({ n: 1 }));
      await waitFor(() => got.length === 1, { what: 'record written during start-up' });
    } finally {
      await tail.close();
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
