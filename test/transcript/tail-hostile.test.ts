/**
 * The tail against files that are not what a transcript should be: a FIFO (or a device) where the
 * transcript should be, and a transcript rewritten in place.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TranscriptTail, type TailOptions } from '../../src/sources/transcript/tail.js';
import { waitFor } from './wait-for.js';

const line = (value: unknown) => `${JSON.stringify(value)}\n`;
const within = <T>(ms: number, promise: Promise<T>): Promise<T | 'hung'> =>
  Promise.race([promise, new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), ms).unref())]);

describe('TranscriptTail on hostile files', () => {
  let root: string;
  let tails: TranscriptTail[];
  let got: unknown[];
  let logs: string[];
  const open = (file: string, extra: Partial<TailOptions> = {}) => {
    const tail = new TranscriptTail({ path: file, onRecord: (record) => got.push(record), logger: (_level, message) => logs.push(message), ...extra });
    tails.push(tail);
    return tail;
  };

  beforeEach(() => {
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'bt-tail-hostile-')));
    tails = [];
    got = [];
    logs = [];
  });
  afterEach(async () => {
    await Promise.all(tails.map((t) => within(3_000, t.close())));
    fs.rmSync(root, { recursive: true, force: true });
  });

  it.skipIf(process.platform === 'win32')('a FIFO where the transcript should be blocks no file read of the process', async () => {
    const fifo = path.join(root, 'session.jsonl');
    execFileSync('mkfifo', [fifo]);
    const tail = open(fifo, { pollMs: 20 });
    try {
      // Each read used to block a thread of libuv's pool in open() until a writer came: after four,
      // every async file operation of the process waited.
      for (let i = 0; i < 6; i++) expect(await within(3_000, tail.flush())).not.toBe('hung');
      const reads = Promise.all(Array.from({ length: 8 }, () => fsp.readFile(import.meta.filename)));
      expect(await within(3_000, reads)).not.toBe('hung');
      expect(logs.some((message) => /not a regular file/.test(message))).toBe(true);
      expect(got).toEqual([]);
    } finally {
      // Release any reader still blocked (before the fix): a writer that opens and closes at once.
      for (let i = 0; i < 8; i++) {
        try {
          fs.closeSync(fs.openSync(fifo, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK));
        } catch {
          break; // no reader left
        }
      }
    }
  });

  it('a transcript rewritten in place that grows past the read offset is read again from its start', async () => {
    const file = path.join(root, 'session.jsonl');
    fs.writeFileSync(file, line({ n: 1 }) + line({ n: 2 }));
    const tail = open(file, { pollMs: 60_000 });
    await waitFor(() => got.length === 2, { what: 'the first records' });
    // Same file (same inode), not truncated: new content written over it from byte 0, longer.
    const rewritten = [{ rewritten: 1, pad: 'x'.repeat(40) }, { rewritten: 2 }, { rewritten: 3 }];
    const fd = fs.openSync(file, 'r+');
    fs.writeSync(fd, rewritten.map(line).join(''), 0);
    fs.closeSync(fd);
    await tail.flush();
    await waitFor(() => got.length >= 5, { what: 'the rewritten records' });
    expect(got).toEqual([{ n: 1 }, { n: 2 }, ...rewritten]);
    expect(logs.some((message) => /rewritten in place/.test(message))).toBe(true);
  });

  it('a rewrite in place landing while a long read is under way: not one record of the new content is read from the middle', async () => {
    const file = path.join(root, 'session.jsonl');
    fs.writeFileSync(file, line({ n: 1 }) + line({ n: 2 }));
    const tail = open(file, {
      pollMs: 60_000,
      onRecord: (record) => {
        got.push(record);
        // Between two chunks of one read: the rewrite lands after the head was checked.
        if ((record as { old?: number }).old === 10) {
          const fd = fs.openSync(file, 'r+');
          fs.writeSync(fd, rewritten.map(line).join(''), 0);
          fs.closeSync(fd);
        }
      },
    });
    const pad = 'x'.repeat(200);
    const rewritten = Array.from({ length: 6000 }, (_, i) => ({ rewritten: i, pad }));
    await waitFor(() => got.length === 2, { what: 'the first records' });
    fs.appendFileSync(file, Array.from({ length: 5000 }, (_, i) => line({ old: i, pad })).join(''));
    await tail.flush();
    await waitFor(() => got.some((r) => (r as { rewritten?: number }).rewritten === rewritten.length - 1), { what: 'the rewritten records' });
    await tail.flush();
    const firstNew = got.findIndex((r) => 'rewritten' in (r as object));
    const old = got.slice(2, firstNew) as Array<{ old: number }>;
    expect(old.map((r) => r.old)).toEqual(old.map((_, i) => i)); // the first chunk's, in order
    expect(got.slice(firstNew)).toEqual(rewritten);
  });

  it('appends alone are never mistaken for a rewrite', async () => {
    const file = path.join(root, 'session.jsonl');
    fs.writeFileSync(file, line({ n: 1 }));
    const tail = open(file, { pollMs: 60_000 });
    for (let n = 2; n <= 50; n++) {
      fs.appendFileSync(file, line({ n, pad: 'y'.repeat(n * 10) }));
      if (n % 10 === 0) await tail.flush();
    }
    await tail.flush();
    await waitFor(() => got.length === 50, { what: 'every record' });
    expect(got.map((r) => (r as { n: number }).n)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect(logs.filter((message) => /rewritten/.test(message))).toEqual([]);
  });
});
