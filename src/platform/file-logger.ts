/**
 * A logger that appends to a file in the state folder: the terminal belongs to the UI (or to the
 * verdict stream in headless mode), never to diagnostics.
 *
 * The file is bounded: past `maxBytes` it is renamed to `<file>.1` (replacing the previous one)
 * and a new one begins, so at most twice `maxBytes` is ever on disk — whatever another local user
 * makes belltower log (20k refused hook requests once wrote 3 MB).
 */
import fs from 'node:fs';
import { dirname } from 'node:path';
import type { Logger, LogLevel } from './logger.js';
import { ensurePrivateDir } from './private-dir.js';

export const DEFAULT_LOG_MAX_BYTES = 1024 * 1024;

export interface FileLoggerOptions {
  minLevel?: LogLevel;
  maxBytes?: number;
}

const ORDER: readonly LogLevel[] = ['debug', 'info', 'warn', 'error'];

export function fileLogger(path: string, options: FileLoggerOptions | LogLevel = {}): Logger {
  const { minLevel = 'info', maxBytes = DEFAULT_LOG_MAX_BYTES } = typeof options === 'string' ? { minLevel: options } : options;
  let broken = !prepare(path);
  return (level, message, data) => {
    if (broken || ORDER.indexOf(level) < ORDER.indexOf(minLevel)) return;
    // A full disk must not take the tiles down: stop logging instead.
    if (!appendLogLine(path, level, message, data, maxBytes)) broken = true;
  };
}

/** Appends one JSON line to the log at `path` (rotating it past `maxBytes`); false if it could not. */
export function appendLogLine(path: string, level: LogLevel, message: string, data?: Record<string, unknown>, maxBytes = DEFAULT_LOG_MAX_BYTES): boolean {
  const line = `${JSON.stringify({ time: new Date().toISOString(), pid: process.pid, level, message, ...(data ? { data } : {}) })}\n`;
  try {
    if (!prepare(path)) return false;
    if (sizeOf(path) + Buffer.byteLength(line) > maxBytes) fs.renameSync(path, `${path}.1`);
    const { O_WRONLY, O_APPEND, O_CREAT, O_NOFOLLOW } = fs.constants;
    const fd = fs.openSync(path, O_WRONLY | O_APPEND | O_CREAT | (O_NOFOLLOW ?? 0), 0o600);
    try {
      fs.writeSync(fd, line);
    } finally {
      fs.closeSync(fd);
    }
    return true;
  } catch {
    return false;
  }
}

const prepared = new Set<string>();

function prepare(path: string): boolean {
  const dir = dirname(path);
  if (prepared.has(dir)) return true;
  try {
    ensurePrivateDir(dir);
    prepared.add(dir);
    return true;
  } catch {
    return false;
  }
}

function sizeOf(path: string): number {
  try {
    return fs.lstatSync(path).size;
  } catch {
    return 0;
  }
}
