/**
 * The recorder owns one recording file: the header, then one line per evidence and verdict, each
 * written as it happens (a crash loses nothing already seen). Raw keystrokes are never recorded.
 *
 * The file is always a new one, 0600, never reached through a symlink (O_CREAT|O_EXCL|O_NOFOLLOW):
 * a --record folder may be shared, and a link or file planted there under the name belltower will
 * use must neither receive the recording nor be overwritten by it. A name that is taken gets a
 * `-2`, `-3`… suffix.
 */
import { closeSync, constants, fchmodSync, openSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { ensureOwnDir } from '../platform/private-dir.js';
import type { Evidence, RecordingHeader, VerdictLine } from './format.js';
import { RECORDING_FORMAT, RECORDING_VERSION } from './format.js';

export type HeaderFields = Omit<RecordingHeader, 'type' | 'format' | 'version'>;
export type VerdictFields = Omit<VerdictLine, 'type' | 't' | 'seq'>;

export class RecorderError extends Error {
  override name = 'RecorderError';
}

/** How many suffixed names are tried when the wanted one is taken. */
const MAX_SUFFIX = 100;

export class Recorder {
  private fd: number | null;
  private seq = 0;
  /** Where the recording is (the path asked for, or a suffixed one when that was taken). */
  readonly path: string;
  /** pty output is large: recorded only when output capture is on. */
  readonly captureOutput: boolean;

  constructor(path: string, header: HeaderFields, options: { captureOutput?: boolean } = {}) {
    this.captureOutput = options.captureOutput ?? false;
    ensureOwnDir(dirname(path));
    const opened = openNew(path);
    this.path = opened.path;
    this.fd = opened.fd;
    this.write({ type: 'header', format: RECORDING_FORMAT, version: RECORDING_VERSION, ...header });
  }

  /** Append an evidence line at `t` (ms since startedAt); returns its seq. */
  evidence(evidence: Evidence, t: number): number {
    if (evidence.type === 'pty' && !this.captureOutput) return this.seq;
    return this.stamped(evidence, t);
  }

  verdict(fields: VerdictFields, t: number): number {
    return this.stamped({ type: 'verdict', ...fields }, t);
  }

  /** The last line: belltower finished writing this recording (replay tells a recording cut short
   * by a crash from a complete one by it). Closes the file. */
  end(t: number): void {
    if (this.fd === null) return;
    this.stamped({ type: 'end' }, t);
    this.close();
  }

  /** Closes the file without an end line (it then reads as cut short). */
  close(): void {
    if (this.fd === null) return;
    closeSync(this.fd);
    this.fd = null;
  }

  private stamped(line: { type: string }, t: number): number {
    this.seq += 1;
    const { type, ...rest } = line;
    this.write({ type, t: Math.max(0, Math.round(t)), seq: this.seq, ...rest });
    return this.seq;
  }

  private write(value: object): void {
    if (this.fd === null) return;
    writeSync(this.fd, `${JSON.stringify(value)}\n`);
  }
}

/** A new file at `path`, or at the first free suffixed name. */
function openNew(path: string): { fd: number; path: string } {
  const { O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW } = constants;
  const dot = path.endsWith('.jsonl') ? path.length - '.jsonl'.length : path.length;
  for (let n = 1; n <= MAX_SUFFIX; n++) {
    const candidate = n === 1 ? path : `${path.slice(0, dot)}-${n}${path.slice(dot)}`;
    try {
      const fd = openSync(candidate, O_WRONLY | O_CREAT | O_EXCL | (O_NOFOLLOW ?? 0), 0o600);
      fchmodSync(fd, 0o600); // whatever the umask
      return { fd, path: candidate };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EEXIST' || code === 'ELOOP') continue;
      throw new RecorderError(`cannot write the recording ${candidate} (${code ?? String(error)})`);
    }
  }
  throw new RecorderError(`cannot write the recording ${path}: it and ${MAX_SUFFIX - 1} suffixed names are taken`);
}
