/**
 * The recorder owns one recording file: the header, then one line per evidence and verdict, each
 * written as it happens (a crash loses nothing already seen). Raw keystrokes are never recorded.
 */
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Evidence, RecordingHeader, VerdictLine } from './format.js';
import { RECORDING_FORMAT, RECORDING_VERSION } from './format.js';

export type HeaderFields = Omit<RecordingHeader, 'type' | 'format' | 'version'>;
export type VerdictFields = Omit<VerdictLine, 'type' | 't' | 'seq'>;

export class Recorder {
  private fd: number | null;
  private seq = 0;
  /** pty output is large: recorded only when output capture is on. */
  readonly captureOutput: boolean;

  constructor(
    readonly path: string,
    header: HeaderFields,
    options: { captureOutput?: boolean } = {},
  ) {
    this.captureOutput = options.captureOutput ?? false;
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    this.fd = openSync(path, 'w', 0o600);
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
