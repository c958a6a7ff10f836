import { describe, expect, it } from 'vitest';
import { encode, HELLO_MAGIC, inputFrames, MAX_CLIENT_FRAME, WIRE_VERSION, WireDecoder, WireError } from '../../src/wire/wire-protocol.js';
import type { WireMessage } from '../../src/wire/wire-protocol.js';

function roundTrip(message: WireMessage, side: 'client' | 'server'): WireMessage[] {
  return new WireDecoder(side).push(encode(message));
}

function rawFrame(type: number, payload: Buffer | string): Buffer {
  const body = typeof payload === 'string' ? Buffer.from(payload, 'utf8') : payload;
  const head = Buffer.alloc(5);
  head.writeUInt32BE(body.length + 1, 0);
  head[4] = type;
  return Buffer.concat([head, body]);
}

describe('the attach protocol', () => {
  it('carries each client message as it was sent', () => {
    const hello = { type: 'hello' as const, wire: WIRE_VERSION, version: '0.1.0', cols: 90, rows: 24, env: { TERM: 'xterm-256color', TMUX: '/tmp/t,1,0' }, options: { bell: 'off', notify: 'osc9', escapeKey: 'ctrl-g' } };
    expect(roundTrip(hello, 'client')).toEqual([hello]);
    expect(roundTrip({ type: 'input', data: 'q\x1b[A→é' }, 'client')).toEqual([{ type: 'input', data: 'q\x1b[A→é' }]);
    expect(roundTrip({ type: 'resize', cols: 45, rows: 20 }, 'client')).toEqual([{ type: 'resize', cols: 45, rows: 20 }]);
    expect(roundTrip({ type: 'detach' }, 'client')).toEqual([{ type: 'detach' }]);
    expect(roundTrip({ type: 'keys', token: 'ab12' }, 'client')).toEqual([{ type: 'keys', token: 'ab12' }]);
  });

  it('carries each server message as it was sent', () => {
    expect(roundTrip({ type: 'welcome', wire: WIRE_VERSION, version: '0.1.0', session: 'proj' }, 'server')).toEqual([{ type: 'welcome', wire: WIRE_VERSION, version: '0.1.0', session: 'proj' }]);
    expect(roundTrip({ type: 'welcome', wire: WIRE_VERSION, version: '0.1.0', session: 'proj', keys: 'ab12' }, 'server')).toEqual([{ type: 'welcome', wire: WIRE_VERSION, version: '0.1.0', session: 'proj', keys: 'ab12' }]);
    // A welcome of a server without a keys socket, or with a token no client would take, names none.
    expect(new WireDecoder('server').push(rawFrame(65, JSON.stringify({ wire: WIRE_VERSION, version: '0.1.0', session: 'proj', keys: 'x'.repeat(200) })))).toEqual([{ type: 'welcome', wire: WIRE_VERSION, version: '0.1.0', session: 'proj' }]);
    expect(roundTrip({ type: 'refused', message: 'no' }, 'server')).toEqual([{ type: 'refused', message: 'no' }]);
    expect(roundTrip({ type: 'output', data: Buffer.from('\x1b[2J┏━\x07') }, 'server')).toEqual([{ type: 'output', data: Buffer.from('\x1b[2J┏━\x07') }]);
    expect(roundTrip({ type: 'exit', reason: 'detached', status: 0 }, 'server')).toEqual([{ type: 'exit', reason: 'detached', status: 0 }]);
    expect(roundTrip({ type: 'exit', reason: 'quit', status: 1, message: 'a tile failed' }, 'server')).toEqual([{ type: 'exit', reason: 'quit', status: 1, message: 'a tile failed' }]);
  });

  it('reads frames however the stream cuts them: a byte at a time, or several in one chunk', () => {
    const bytes = Buffer.concat([encode({ type: 'input', data: 'ab' }), encode({ type: 'resize', cols: 100, rows: 30 }), encode({ type: 'detach' })]);
    const decoder = new WireDecoder('client');
    const got: WireMessage[] = [];
    for (const byte of bytes) got.push(...decoder.push(Buffer.from([byte])));
    expect(got).toEqual([{ type: 'input', data: 'ab' }, { type: 'resize', cols: 100, rows: 30 }, { type: 'detach' }]);
    expect(decoder.pending).toBe(0);
    expect(new WireDecoder('client').push(bytes)).toHaveLength(3);
  });

  it('keeps the hello of another version readable, so the answer can say so', () => {
    const frame = rawFrame(1, `${HELLO_MAGIC}${JSON.stringify({ wire: 99, version: '9.0.0', cols: 80, rows: 24, future: { x: 1 } })}`);
    expect(new WireDecoder('client').push(frame)).toEqual([{ type: 'hello', wire: 99, version: '9.0.0', cols: 80, rows: 24, env: {}, options: {} }]);
  });

  it('keeps only the terminal environment and the options a hello may carry, and sizes in range', () => {
    const options = { bell: 'background', onRing: 'rm -rf ~', escapeKey: 'x'.repeat(100), notify: 7 };
    const frame = rawFrame(1, `${HELLO_MAGIC}${JSON.stringify({ wire: 1, version: 'x', cols: 99999, rows: -3, env: { TERM: 'xterm', LD_PRELOAD: '/evil.so', PATH: '/evil' }, options })}`);
    expect(new WireDecoder('client').push(frame)).toEqual([{ type: 'hello', wire: 1, version: 'x', cols: 1000, rows: 1, env: { TERM: 'xterm' }, options: { bell: 'background' } }]);
  });

  it('splits a long paste into frames a server accepts, never cutting a character', () => {
    const paste = 'é'.repeat(MAX_CLIENT_FRAME); // two bytes each: about two frames' worth
    const frames = inputFrames(paste);
    expect(frames.length).toBeGreaterThan(1);
    const decoder = new WireDecoder('client');
    const joined = frames.flatMap((f) => decoder.push(f)).map((m) => (m.type === 'input' ? m.data : '')).join('');
    expect(joined).toBe(paste);
  });

  it('refuses what is not this protocol', () => {
    const bad: [string, Buffer, 'client' | 'server'][] = [
      ['a frame over the bound', Buffer.from([0x00, 0x10, 0x00, 0x01, 2]), 'client'],
      ['an empty frame', Buffer.from([0, 0, 0, 0]), 'client'],
      ['an unknown type', rawFrame(99, 'x'), 'client'],
      ['a server message from a client', rawFrame(67, 'x'), 'client'],
      ['a client message from a server', rawFrame(2, 'x'), 'server'],
      ['a hello without the magic', rawFrame(1, '{"wire":1}'), 'client'],
      ['a hello that is not JSON', rawFrame(1, `${HELLO_MAGIC}{wire:`), 'client'],
      ['a hello without a version', rawFrame(1, `${HELLO_MAGIC}{"cols":1}`), 'client'],
      ['a resize of the wrong length', rawFrame(3, Buffer.from([0, 80])), 'client'],
      ['a keys frame without a token', rawFrame(5, ''), 'client'],
      ['a keys frame of a token too long', rawFrame(5, 'x'.repeat(129)), 'client'],
      ['an exit without a reason', rawFrame(68, '{"status":0}'), 'server'],
      ['HTTP', Buffer.from('GET / HTTP/1.1\r\nHost: x\r\n\r\n'), 'client'],
    ];
    for (const [what, bytes, side] of bad) expect(() => new WireDecoder(side).push(bytes), what).toThrow(WireError);
  });

  it('holds no more than one frame of a peer that never finishes it', () => {
    const decoder = new WireDecoder('client');
    const head = Buffer.alloc(4);
    head.writeUInt32BE(MAX_CLIENT_FRAME, 0);
    decoder.push(head);
    decoder.push(Buffer.alloc(1000));
    expect(decoder.pending).toBe(1004);
  });
});
