/**
 * Keystroke latency: types a key into the user's terminal every so often and times its arrival at
 * the program in the focused tile (or pane), which reports every byte it reads over UDP
 * (programs/redraw-stream.mjs with BENCH_KEYS_UDP). One clock, the benchmark's own.
 */
import dgram from 'node:dgram';

export async function keyProbe() {
  const socket = dgram.createSocket('udp4');
  await new Promise((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const sent = [];
  const latencies = [];
  socket.on('message', (message) => {
    const now = performance.now();
    for (let i = 0; i < message.length; i++) {
      const t0 = sent.shift();
      if (t0 !== undefined) latencies.push(now - t0);
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
          sent.push(performance.now());
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
