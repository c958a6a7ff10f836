#!/usr/bin/env node
/**
 * A stand-in for a busy agent's terminal output: Ink-style redraw frames (cursor up over the last
 * frame, rewrite every line, a few of them changed) at a steady byte rate, forever.
 *
 * With BENCH_KEYS_UDP=<port> it also reads its keyboard raw and reports each read in a UDP
 * datagram to 127.0.0.1:<port>: the moment it read (CLOCK_MONOTONIC, which every process shares:
 * process.hrtime.bigint, 8 bytes) and the bytes, so a benchmark can time keystroke → program.
 *
 *   node bench/programs/redraw-stream.mjs <bytes-per-second> [lines-per-frame]
 */
import dgram from 'node:dgram';

const rate = Number(process.argv[2] ?? 50_000);
const lines = Number(process.argv[3] ?? 14);
const cols = () => (process.stdout.columns || 80) - 1;
let frame = 0;
const spinner = ['·', '✢', '*', '✶', '✻', '✽'];
const words = 'the quick brown fox jumps over the lazy dog while the build runs and tests pass'.split(' ');

function render() {
  const out = [];
  for (let i = 0; i < lines; i++) {
    // About one line in six changes per frame: a spinner, a counter, a growing log line.
    const changing = i === 0 || i === lines - 1 || (frame + i) % 6 === 0;
    const stamp = changing ? `${spinner[frame % spinner.length]} ${frame}` : '·';
    const text = `${stamp} \x1b[38;2;215;119;87m${words[(i + (changing ? frame : 0)) % words.length]}\x1b[0m \x1b[2m${words.slice(0, 8).join(' ')}\x1b[0m`;
    out.push(text.slice(0, cols() + 20));
  }
  return `\x1b[${lines}A\r` + out.map((l) => `\x1b[2K${l}\r\n`).join('');
}

process.stdout.write('\r\n'.repeat(lines));
const sample = Buffer.byteLength(render());
const framesPerSecond = Math.max(1, rate / sample);
setInterval(() => {
  frame++;
  process.stdout.write(render());
}, 1000 / framesPerSecond);
process.on('SIGHUP', () => process.exit(0));

const port = Number(process.env.BENCH_KEYS_UDP);
if (port > 0 && process.stdin.isTTY) {
  const socket = dgram.createSocket('udp4');
  socket.unref();
  process.stdin.setRawMode(true);
  process.stdin.on('data', (data) => {
    const at = Buffer.alloc(8);
    at.writeBigUInt64BE(process.hrtime.bigint());
    socket.send(Buffer.concat([at, data]), port, '127.0.0.1');
  });
}
