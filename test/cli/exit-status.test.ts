import { describe, expect, it } from 'vitest';
import { EXIT, exitStatus } from '../../src/platform/exit-codes.js';

const ended = (code: number | null, extra: { signal?: string; error?: string; closed?: boolean } = {}) => ({
  code,
  signal: extra.signal ?? null,
  closed: extra.closed ?? false,
  ...(extra.error ? { error: extra.error } : {}),
});

describe('exit status (README "Exit status")', () => {
  it('0 when every tile ended by itself with 0, or was closed by the user', () => {
    expect(exitStatus(null, [ended(0), ended(0)])).toBe(0);
    expect(exitStatus(null, [ended(0), ended(null, { signal: 'SIGHUP', closed: true }), ended(1, { closed: true })])).toBe(0);
    expect(exitStatus(null, [])).toBe(0);
  });

  it('1 when a tile failed to start, or ended by itself with another status or a signal', () => {
    expect(exitStatus(null, [ended(0), ended(3)])).toBe(EXIT.failure);
    expect(exitStatus(null, [ended(null, { signal: 'SIGSEGV' })])).toBe(1);
    expect(exitStatus(null, [ended(null, { error: 'command not found: nmp' })])).toBe(1);
    expect(exitStatus(null, [ended(null, { error: 'command not found: nmp', closed: true })])).toBe(1);
  });

  it('128 + the signal that ended belltower, whatever the tiles did', () => {
    expect(exitStatus('SIGHUP', [ended(0)])).toBe(129);
    expect(exitStatus('SIGINT', [ended(3)])).toBe(130);
    expect(exitStatus('SIGTERM', [])).toBe(143);
  });
});
