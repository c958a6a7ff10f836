/**
 * Follows an agent's JSONL session log and emits each complete record, in order.
 *
 * Change notifications are triggers, never the truth: chokidar 4/5 throttle `change` per path for
 * 50 ms and DROP the events inside the window (upstream #1455), so with appends < 50 ms apart the
 * final append — the turn's end — is never signalled. On every trigger we read from our offset to
 * EOF, and we re-check `recheckMs` after the last trigger and every `pollMs` regardless.
 *
 * Triggers, fastest first:
 * - fs.watch on the file's folder (measured here: every append delivered; it also sees a
 *   replacement by rename, which a watch on the file itself would miss);
 * - chokidar on the deepest existing ancestor, to discover the file when even its folder does
 *   not exist yet (chokidar 5 watching a path whose parent is missing reports nothing, measured);
 * - a stat poll (default 1 s), the floor under everything.
 *
 * Truncation (size < offset), replacement (another inode) and a rewrite in place (the first bytes
 * already read have changed, even if the file grew past the offset) restart from 0. switchTo()
 * moves to a new file (Claude's /clear starts one) after draining the old one to its end. A
 * corrupt line is logged and skipped.
 *
 * Only a regular file is read, opened without blocking and without following a link: a FIFO at the
 * transcript's path blocked a thread of libuv's pool in open() on every poll until every async file
 * read of the process waited.
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { watch as chokidarWatch, type FSWatcher as ChokidarWatcher } from 'chokidar';
import { silentLogger, type Logger } from '../../platform/logger.js';
import { canonicalPath, isFolder } from '../../platform/paths.js';
import { EMPTY_LINES, feedLines, type LineState } from './line-buffer.js';

export type RecordListener = (record: unknown, path: string) => void;

export interface TailOptions {
  path: string;
  onRecord: RecordListener;
  logger?: Logger;
  /** Re-read this long after the last trigger (catches appends whose events were dropped). Default 60. */
  recheckMs?: number;
  /** Read at least this often whatever the watchers say. Default 1000. */
  pollMs?: number;
  /** false: skip what the file holds when first seen (e.g. a resumed session's history). Default true. */
  fromStart?: boolean;
  /** Lines longer than this are dropped (logged). Default 64 MB. */
  maxLineBytes?: number;
  /** The folder fs.watch trigger; off only to measure chokidar alone or where fs.watch misbehaves. Default true. */
  directoryWatch?: boolean;
}

const READ_CHUNK = 256 * 1024;
/** How much of the file's start is kept to notice a rewrite in place. */
const HEAD_BYTES = 4096;

export class TranscriptTail {
  private target: string;
  private readonly onRecord: RecordListener;
  private readonly logger: Logger;
  private readonly recheckMs: number;
  private readonly maxLineBytes: number;
  private readonly directoryWatch: boolean;
  private skipExisting: boolean;

  private offset = 0;
  private identity: { dev: number; ino: number } | undefined;
  /** The file's first bytes as last read (up to HEAD_BYTES): if they change, it was rewritten. */
  private head: Buffer = Buffer.alloc(0);
  private refusedType = false;
  private lines: LineState = EMPTY_LINES;
  private nextTarget: string | undefined;

  private dirWatcher: fs.FSWatcher | undefined;
  private chokidar: ChokidarWatcher | undefined;
  private recheckTimer: NodeJS.Timeout | undefined;
  private readonly pollTimer: NodeJS.Timeout;
  private pumping: Promise<void> | undefined;
  private dirty = false;
  private closed = false;

  constructor(options: TailOptions) {
    this.target = canonicalPath(options.path);
    this.onRecord = options.onRecord;
    this.logger = options.logger ?? silentLogger;
    this.recheckMs = options.recheckMs ?? 60;
    this.maxLineBytes = options.maxLineBytes ?? 64 * 1024 * 1024;
    this.directoryWatch = options.directoryWatch ?? true;
    this.skipExisting = options.fromStart === false;
    this.pollTimer = setInterval(() => this.trigger(false), options.pollMs ?? 1_000);
    this.pollTimer.unref();
    this.watch();
    this.trigger(false);
  }

  /** The file being followed (canonical spelling). */
  get path(): string {
    return this.nextTarget ?? this.target;
  }

  /** Follow another file from its start, once the current one has been read to its end. */
  switchTo(newPath: string): void {
    const next = canonicalPath(newPath);
    if (next === this.path) return;
    this.nextTarget = next;
    this.trigger(false);
  }

  /** Resolves once the file has been read to its current end (and everything found emitted). */
  async flush(): Promise<void> {
    this.trigger(false);
    while (this.pumping) await this.pumping;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.pollTimer);
    clearTimeout(this.recheckTimer);
    this.unwatch();
    while (this.pumping) await this.pumping;
  }

  /** Something may have changed: read now, and again shortly after the last such hint. */
  private trigger(recheck = true): void {
    if (this.closed) return;
    if (recheck) {
      clearTimeout(this.recheckTimer);
      this.recheckTimer = setTimeout(() => this.trigger(false), this.recheckMs);
    }
    if (this.pumping) {
      this.dirty = true;
      return;
    }
    this.pumping = this.pump()
      .catch((error: unknown) => this.logger('warn', 'transcript: read failed, will retry', { path: this.target, error: String(error) }))
      .finally(() => {
        this.pumping = undefined;
        // A trigger that landed after the loop's last check must not be lost.
        if (this.dirty) this.trigger(false);
      });
  }

  private async pump(): Promise<void> {
    do {
      this.dirty = false;
      // Switch only after a read that began after the switch was asked for: a read already under
      // way may have missed the old file's last append (seen under load: the record before /clear).
      const switching = this.nextTarget !== undefined;
      this.attachDirWatcher();
      await this.readToEnd();
      if (switching && this.nextTarget !== undefined && !this.closed) {
        this.moveTo(this.nextTarget);
        this.dirty = true;
      }
    } while (this.dirty && !this.closed);
  }

  private moveTo(next: string): void {
    if (this.lines.pendingBytes > 0) {
      this.logger('debug', 'transcript: unfinished last line dropped at switch', { path: this.target });
    }
    this.target = next;
    this.nextTarget = undefined;
    this.offset = 0;
    this.identity = undefined;
    this.head = Buffer.alloc(0);
    this.refusedType = false;
    this.lines = EMPTY_LINES;
    this.skipExisting = false; // a switched-to file is new: read it all
    this.unwatch();
    this.watch();
  }

  private async readToEnd(): Promise<void> {
    let handle: fsp.FileHandle;
    try {
      const seen = await fsp.lstat(this.target);
      if (!this.isRegular(seen)) return;
      const { O_RDONLY, O_NONBLOCK, O_NOFOLLOW } = fs.constants;
      handle = await fsp.open(this.target, O_RDONLY | (O_NONBLOCK ?? 0) | (O_NOFOLLOW ?? 0));
    } catch {
      this.skipExisting = false; // absent when first looked for: all it will hold is new
      return; // not there (yet): the watchers or the poll will bring us back
    }
    try {
      const st = await handle.stat();
      if (!this.isRegular(st)) return; // swapped between the look and the open
      this.checkIdentity(st);
      if (st.size < this.offset) {
        this.logger('debug', 'transcript: truncated, reading from the start', { path: this.target });
        this.restart();
      } else if (this.offset > 0 && !(await this.sameHead(handle))) {
        this.logger('debug', 'transcript: rewritten in place, reading from the start', { path: this.target });
        this.restart();
      }
      if (this.skipExisting) {
        this.skipExisting = false;
        this.offset = st.size;
        await this.rememberHead(handle);
        return;
      }
      const buffer = Buffer.allocUnsafe(READ_CHUNK);
      for (;;) {
        const at = this.offset;
        const { bytesRead } = await handle.read(buffer, 0, READ_CHUNK, at);
        if (bytesRead === 0 || this.closed) break;
        // A rewrite landing between the head check above and this read would hand us the middle
        // of the new content as if appended: look at the head again, after the read. A rewrite
        // after this look came after the read too, so the bytes read are the old file's.
        if (at > 0 && !(await this.sameHead(handle))) {
          this.logger('debug', 'transcript: rewritten in place, reading from the start', { path: this.target });
          this.restart();
          continue;
        }
        // The head is kept from the bytes read, not read again afterwards: a rewrite landing in
        // between would become the head and never be seen as one.
        if (at === this.head.length && at < HEAD_BYTES) this.head = Buffer.concat([this.head, buffer.subarray(0, Math.min(bytesRead, HEAD_BYTES - at))]);
        this.offset += bytesRead;
        this.consume(buffer.subarray(0, bytesRead));
      }
      if (this.head.length < HEAD_BYTES && this.offset > this.head.length) await this.rememberHead(handle);
    } finally {
      await handle.close();
    }
  }

  /** A regular file, or (logged once) not one to read. */
  private isRegular(st: fs.Stats): boolean {
    if (st.isFile()) return true;
    if (!this.refusedType) {
      this.refusedType = true;
      this.logger('warn', 'transcript: not a regular file, not reading it', { path: this.target });
    }
    return false;
  }

  private async readHead(handle: fsp.FileHandle, length: number): Promise<Buffer> {
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buffer, 0, length, 0);
    return buffer.subarray(0, bytesRead);
  }

  private async rememberHead(handle: fsp.FileHandle): Promise<void> {
    this.head = await this.readHead(handle, Math.min(this.offset, HEAD_BYTES));
  }

  private async sameHead(handle: fsp.FileHandle): Promise<boolean> {
    if (this.head.length === 0) return true;
    return (await this.readHead(handle, this.head.length)).equals(this.head);
  }

  /** The same path now naming another file (an atomic replace, or deleted and recreated). */
  private checkIdentity(st: fs.Stats): void {
    const seen = { dev: st.dev, ino: st.ino };
    if (this.identity && st.ino !== 0 && (this.identity.ino !== seen.ino || this.identity.dev !== seen.dev)) {
      this.logger('debug', 'transcript: replaced, reading the new file from the start', { path: this.target });
      this.restart();
    }
    this.identity = seen;
  }

  private restart(): void {
    this.offset = 0;
    this.head = Buffer.alloc(0);
    this.lines = EMPTY_LINES;
  }

  private consume(chunk: Buffer): void {
    const fed = feedLines(this.lines, chunk, this.maxLineBytes);
    this.lines = fed.state;
    if (fed.oversized > 0) {
      this.logger('warn', `transcript: ${fed.oversized} line(s) over ${this.maxLineBytes} bytes skipped`, { path: this.target });
    }
    for (const line of fed.lines) {
      if (line.trim() === '') continue;
      let record: unknown;
      try {
        record = JSON.parse(line);
      } catch (error) {
        // The content stays out of the log: transcripts hold the user's code and prompts.
        this.logger('warn', 'transcript: corrupt line skipped', { path: this.target, bytes: line.length, error: String(error) });
        continue;
      }
      if (this.closed) return;
      try {
        this.onRecord(record, this.target);
      } catch (error) {
        this.logger('error', 'transcript: record listener threw', { path: this.target, error: String(error) });
      }
    }
  }

  private watch(): void {
    const target = this.target;
    const { root, depth } = deepestExisting(target);
    const onRoute = (p: string) => p === target || target.startsWith(p.endsWith(path.sep) ? p : p + path.sep);
    this.chokidar = chokidarWatch(root, { ignoreInitial: true, depth, ignored: (p: string) => !onRoute(p) });
    this.chokidar.on('all', () => this.trigger());
    // What appeared during chokidar's initial scan counts as "initial" and is not reported.
    this.chokidar.on('ready', () => this.trigger());
    this.chokidar.on('error', (error) => this.logger('debug', 'transcript: chokidar error', { error: String(error) }));
    this.attachDirWatcher();
  }

  private attachDirWatcher(): void {
    if (!this.directoryWatch || this.dirWatcher || this.closed) return;
    const dir = path.dirname(this.target);
    const name = path.basename(this.target);
    try {
      const watcher = fs.watch(dir, { persistent: false }, (_event, filename) => {
        if (filename === null || filename.toString() === name) this.trigger();
      });
      watcher.on('error', () => {
        // The folder went away: drop the watcher; the poll re-attaches it when the folder is back.
        watcher.close();
        if (this.dirWatcher === watcher) this.dirWatcher = undefined;
      });
      this.dirWatcher = watcher;
    } catch {
      // The folder does not exist yet: chokidar or the poll will tell us when it does.
    }
  }

  private unwatch(): void {
    this.dirWatcher?.close();
    this.dirWatcher = undefined;
    const chokidar = this.chokidar;
    this.chokidar = undefined;
    chokidar?.close().catch((error: unknown) => this.logger('debug', 'transcript: chokidar close failed', { error: String(error) }));
  }
}

/** The nearest existing folder above `file`, and how deep below it the file sits. */
function deepestExisting(file: string): { root: string; depth: number } {
  let dir = path.dirname(file);
  let depth = 0;
  while (!isFolder(dir)) {
    const parent = path.dirname(dir);
    if (parent === dir) break;
    dir = parent;
    depth++;
  }
  return { root: dir, depth };
}
