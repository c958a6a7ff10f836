/**
 * Per-session bearer tokens: 32 random bytes, hex. Compared in constant time so a local process
 * probing the port learns nothing from response timing.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';

export function newToken(): string {
  return randomBytes(32).toString('hex');
}

/** Parses `Authorization: Bearer <token>`; undefined when absent or not a bearer credential. */
export function bearerOf(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  return match?.[1];
}

/** Constant time for equal lengths; a length mismatch is rejected at once (the length is public). */
export function tokenMatches(expected: string, presented: string): boolean {
  const a = Buffer.from(expected, 'utf8');
  const b = Buffer.from(presented, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}
