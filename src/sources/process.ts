/**
 * Process source: the child started, or ended (with its code, its signal, or why it never ran).
 * First-party in the engine's eyes: an exit is a fact, whatever the screen last showed.
 */
import type { SourceSignal } from '../verdict/signals.js';

/** What the session knows about its child (PtySession's ExitInfo has the same shape). */
export type ProcessEvent =
  | { kind: 'spawned' }
  | {
      kind: 'exit';
      code: number | null;
      signal: string | null;
      error?: string;
      /** belltower ended it: the user closed the tile, or quit. */
      closed?: boolean;
      /** Processes of the tile still running when the leader ended. */
      remaining?: number;
      /** Processes that left the tile's session (daemons) and run on. */
      detached?: number;
    };

export function processSignals(event: ProcessEvent): SourceSignal[] {
  if (event.kind === 'spawned') return [{ type: 'spawned', source: 'process' }];
  const exit: SourceSignal = { type: 'exit', source: 'process', code: event.code, signal: event.signal };
  if (event.error !== undefined) exit.error = event.error;
  if (event.closed) exit.closed = true;
  if (event.remaining) exit.remaining = event.remaining;
  if (event.detached) exit.detached = event.detached;
  return [exit];
}
