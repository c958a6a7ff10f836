/**
 * A logger that appends to a file in the state folder: the terminal belongs to the UI (or to the
 * verdict stream in headless mode), never to diagnostics.
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Logger } from './logger.js';

export function fileLogger(path: string, minLevel: 'debug' | 'info' | 'warn' | 'error' = 'info'): Logger {
  const order = ['debug', 'info', 'warn', 'error'];
  let broken = false;
  try {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  } catch {
    broken = true;
  }
  return (level, message, data) => {
    if (broken || order.indexOf(level) < order.indexOf(minLevel)) return;
    const line = JSON.stringify({ time: new Date().toISOString(), pid: process.pid, level, message, ...(data ? { data } : {}) });
    try {
      appendFileSync(path, `${line}\n`, { mode: 0o600 });
    } catch {
      broken = true; // a full disk must not take the tiles down
    }
  };
}
