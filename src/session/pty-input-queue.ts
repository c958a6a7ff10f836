/**
 * What node-pty still holds for the child's input, and a way to drop it.
 *
 * node-pty 1.1 (lib/unixTerminal.js, CustomWriteStream) queues every write to the pty and retries
 * on EAGAIN until the child reads: a child that asks terminal questions without end and never
 * reads its input grew belltower by 415 MB for 2M queries, and when the pty closed with writes
 * still queued, node-pty printed "Unhandled pty write error … EBADF" on the user's terminal.
 * node-pty offers neither the queue's length nor a way to empty it, so these two functions reach
 * into its private fields, in this one place; test/session/reply-queue.test.ts fails if an
 * upgrade moves them. Where the fields are absent (Windows' ConPTY), they report undefined and do
 * nothing.
 */
import type { IPty } from 'node-pty';

interface QueuedWrite {
  buffer: Buffer;
  offset: number;
}

// node-pty's private write stream (unixTerminal.js): the shape this module relies on.
interface PrivateWriteStream {
  _writeQueue?: QueuedWrite[];
  dispose?: () => void;
}

function writeStream(pty: IPty): PrivateWriteStream | undefined {
  const stream = (pty as unknown as { _writeStream?: PrivateWriteStream })._writeStream;
  return stream && Array.isArray(stream._writeQueue) ? stream : undefined;
}

/** Writes to the pty the child has not taken yet, in O(1) (undefined: cannot be known here). */
export function pendingWrites(pty: IPty): number | undefined {
  return writeStream(pty)?._writeQueue?.length;
}

/** Bytes written to the pty that the child has not taken yet (undefined: cannot be known here). */
export function pendingInput(pty: IPty): number | undefined {
  const queue = writeStream(pty)?._writeQueue;
  if (!queue) return undefined;
  let bytes = 0;
  for (const write of queue) bytes += write.buffer.byteLength - write.offset;
  return bytes;
}

/** Forget what the child has not taken yet and stop retrying it: for a pty about to close. */
export function dropPendingInput(pty: IPty): void {
  const stream = writeStream(pty);
  if (!stream?._writeQueue) return;
  stream._writeQueue.length = 0;
  stream.dispose?.(); // cancels the scheduled retry
}
