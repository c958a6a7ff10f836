/**
 * One escape-sequence string may grow to a bound and no further: past it the string is aborted
 * and dropped to its terminator, so a program can only lose its own broken sequence. Chunk
 * boundaries never change the outcome, and what is within the bound passes untouched.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_SEQUENCE_CHARS, SequenceLimiter } from '../../src/session/sequence-limit.js';
import { Owned, waitFor } from './helpers.js';

const owned = new Owned();
afterEach(() => owned.disposeAll());

const run = (limiter: SequenceLimiter, chunks: string[]) => chunks.map((c) => limiter.filter(c)).join('');

describe('SequenceLimiter', () => {
  it('passes every sequence within the bound unchanged, as the same string', () => {
    const text = 'a\x1b]0;title\x07b\x1b]7501;state=working\x1b\\c\x1bPq#0;1\x1b\\\x9d2;t\x9cd\x1b[31me';
    const limiter = new SequenceLimiter(24);
    expect(limiter.filter(text)).toBe(text);
    expect(limiter.cut).toBe(0);
  });

  it('aborts an OSC past the bound with CAN and drops the rest of it up to its terminator', () => {
    const limiter = new SequenceLimiter(8);
    expect(limiter.filter(`x\x1b]2;${'y'.repeat(30)}\x07after`)).toBe(`x\x1b]2;${'y'.repeat(6)}\x18after`);
    expect(limiter.filter(`\x1b]2;${'y'.repeat(30)}\x1b\\after`)).toBe(`\x1b]2;${'y'.repeat(6)}\x18\x1b\\after`);
    expect(limiter.cut).toBe(2);
    // BEL ends an OSC but not a DCS (as in xterm's parser): the DCS goes on being dropped.
    expect(limiter.filter(`\x1bP${'z'.repeat(20)}\x07still\x9cafter`)).toBe(`\x1bP${'z'.repeat(8)}\x18after`);
  });

  it('an unterminated string costs at most the bound, however much follows', () => {
    const limiter = new SequenceLimiter();
    let out = limiter.filter('\x1b]7501;msg=');
    const chunk = 'x'.repeat(64 * 1024);
    for (let i = 0; i < 100 * 16; i++) out += limiter.filter(chunk); // 100 MB
    expect(out.length).toBeLessThanOrEqual(MAX_SEQUENCE_CHARS + 16);
    expect(limiter.filter('\x07visible')).toBe('visible');
  });

  it('gives the same output however the stream is cut into chunks', () => {
    const piece = fc.constantFrom('\x1b', ']', 'P', '0;', 'ab', '\x07', '\x9c', '\x9d', '\x18', '\\', 'xxxxxxxx', '\x1b[1m');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 60 }), fc.array(fc.nat(), { maxLength: 8 }), (pieces, cuts) => {
        const text = pieces.join('');
        const whole = new SequenceLimiter(10).filter(text);
        const points = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
        const chunks: string[] = [];
        let at = 0;
        for (const p of points) {
          chunks.push(text.slice(at, p));
          at = p;
        }
        chunks.push(text.slice(at));
        expect(run(new SequenceLimiter(10), chunks)).toBe(whole);
      }),
    );
  });
});

describe('a 9 MB OSC 7501 from a real program (xterm itself would keep up to 10 MB)', () => {
  it('never reaches the sources; the next status and the text after it do', async () => {
    const script = `process.stdout.write('\\x1b]7501;state=working:msg=' + 'x'.repeat(9 * 1000 * 1000) + '\\x07' + '\\x1b]7501;state=idle\\x07' + 'AFTER-IT\\r\\n'); setTimeout(() => {}, 30000);`;
    const session = owned.session({ file: process.execPath, args: ['-e', script], cols: 80, rows: 10 });
    const payloads: number[] = [];
    session.onOsc((code, payload) => {
      if (code === 7501) payloads.push(payload.length);
    });
    await waitFor(() => session.screen.rowTexts().join('\n').includes('AFTER-IT'), 'the text after the sequence', 60_000);
    expect(payloads).toEqual(['state=idle'.length]);
  }, 90_000);
});
