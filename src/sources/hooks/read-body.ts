/**
 * Reads a request body with a size cap and a deadline, never buffering past the cap.
 *
 * Why the deadline: a client that sends headers and then stalls mid-body would otherwise hold a
 * socket and its buffered chunks forever. Why the cap: nothing legitimate is larger; past it the
 * body is refused — except for its first `headBytes`, kept so that a hook too long to read whole
 * (a Stop whose last message is megabytes long) can still say which event it was. Nothing past
 * the head is read: Node discards the unread rest as the response closes the connection.
 */
import type { IncomingMessage } from 'node:http';

export type BodyResult =
  | { ok: true; body: Buffer }
  | { ok: false; reason: 'too-large'; head: Buffer }
  | { ok: false; reason: 'timeout' | 'aborted' };

export function readLimitedBody(req: IncomingMessage, limit: number, timeoutMs: number, headBytes = 0): Promise<BodyResult> {
  const declared = Number(req.headers['content-length']);
  const declaredTooLarge = Number.isFinite(declared) && declared > limit;

  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (result: BodyResult): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      chunks.length = 0;
      resolve(result);
    };
    const tooLarge = (): void => {
      // Only the head is kept: copied once, up to its length, not the whole body first.
      finish({ ok: false, reason: 'too-large', head: Buffer.concat(chunks, Math.min(headBytes, size)) });
      req.pause(); // read no more of it
    };
    const timer = setTimeout(() => {
      finish({ ok: false, reason: 'timeout' });
      req.destroy();
    }, timeoutMs);
    if (declaredTooLarge && headBytes === 0) return tooLarge();
    req.on('data', (chunk: Buffer) => {
      if (done) return;
      size += chunk.length;
      chunks.push(chunk);
      if (size > limit || (declaredTooLarge && size >= headBytes)) tooLarge();
    });
    req.on('end', () => (declaredTooLarge ? tooLarge() : finish({ ok: true, body: Buffer.concat(chunks, size) })));
    req.on('error', () => finish({ ok: false, reason: 'aborted' }));
    req.on('close', () => finish({ ok: false, reason: 'aborted' }));
  });
}
