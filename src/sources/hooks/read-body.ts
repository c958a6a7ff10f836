/**
 * Reads a request body with a size cap and a deadline, never buffering past the cap.
 *
 * Why the deadline: a client that sends headers and then stalls mid-body would otherwise hold a
 * socket and its buffered chunks forever. Why the cap: hook payloads are a few KB; anything past
 * the cap is refused without being kept (Node discards the unread rest as the response closes).
 */
import type { IncomingMessage } from 'node:http';

export type BodyResult =
  | { ok: true; body: Buffer }
  | { ok: false; reason: 'too-large' | 'timeout' | 'aborted' };

export function readLimitedBody(req: IncomingMessage, limit: number, timeoutMs: number): Promise<BodyResult> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return Promise.resolve({ ok: false, reason: 'too-large' });

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
    const timer = setTimeout(() => {
      finish({ ok: false, reason: 'timeout' });
      req.destroy();
    }, timeoutMs);
    req.on('data', (chunk: Buffer) => {
      if (done) return;
      size += chunk.length;
      if (size > limit) return finish({ ok: false, reason: 'too-large' });
      chunks.push(chunk);
    });
    req.on('end', () => finish({ ok: true, body: Buffer.concat(chunks, size) }));
    req.on('error', () => finish({ ok: false, reason: 'aborted' }));
    req.on('close', () => finish({ ok: false, reason: 'aborted' }));
  });
}
