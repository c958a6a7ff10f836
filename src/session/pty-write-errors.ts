/**
 * node-pty reports a write that failed for good (EBADF: the program exited with input still
 * queued for it, as in a terminal-query flood) with `console.error('Unhandled pty write error',
 * err)` — straight onto the terminal: the headless mode's stderr, where a user or a script reads
 * belltower's own messages. Those lines go to belltower's log instead; every other console.error
 * is left as it is.
 */
import type { Logger } from '../platform/logger.js';

const NODE_PTY_WRITE_ERROR = 'Unhandled pty write error';

let logger: Logger | undefined;
let installed = false;

/** From now on node-pty's write errors go to `log` (the latest logger given wins). */
export function routePtyWriteErrors(log: Logger): void {
  logger = log;
  if (installed) return;
  installed = true;
  const original = console.error.bind(console);
  console.error = (...args: unknown[]) => {
    if (args[0] === NODE_PTY_WRITE_ERROR && logger) {
      const error = args[1];
      logger('warn', 'a write to a program that had exited was dropped', { error: error instanceof Error ? error.message : String(error) });
      return;
    }
    original(...args);
  };
}
