/**
 * Keystroke latency: types a key into the user's terminal every so often and times its arrival at
 * the program in the focused tile (or pane), which reports each read over UDP with the moment it
 * read (programs/redraw-stream.mjs with BENCH_KEYS_UDP). One clock, CLOCK_MONOTONIC, which every
 * process shares: the time is keystroke → the program's read, not → this process's receipt of the
 * report (its own event loop, busy reading the grid's frames, added up to 3 ms to the p99 alike
 * for belltower and tmux).
 */
import dgram from 'node:dgram';

export async function keyProbe() {
  const socket = dgram.createSocket('udp4');
  await new Promise((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const sent = [];
  const latencies = [];
  socket.on('message', (message) => {
    if (message.length < 8) return;
    const read = message.readBigUInt64BE(0);
    for (let i = 8; i < message.length; i++) {
      const t0 = sent.shift();
      if (t0 !== undefined) latencies.push(Number(read - t0) / 1e6);
    }
  });
  let timer;
  return {
    port: socket.address().port,
    latencies,
    /** Type one key every `everyMs` (±50 %) into `write`: 12 a second, a fast typist. */
    start(write, everyMs = 80) {
      const next = () => {
        timer = setTimeout(() => {
          sent.push(process.hrtime.bigint());
          write('x');
          next();
        }, everyMs * (0.5 + Math.random()));
      };
      next();
    },
    stop() {
      clearTimeout(timer);
      const lost = sent.length;
      sent.length = 0;
      return lost;
    },
    close: () => socket.close(),
  };
}
