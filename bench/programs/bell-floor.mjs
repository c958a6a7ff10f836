#!/usr/bin/env node
/**
 * The floor for detection latency on this machine: the least any program could do — an HTTP
 * server on loopback that, for each POST, waits the conflict window with one timer and writes a
 * BEL to its terminal. Prints its port first, as `port=<n>`.
 *
 *   node bench/programs/bell-floor.mjs <window-ms>
 */
import http from 'node:http';

const windowMs = Number(process.argv[2] ?? 750);
const server = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    setTimeout(() => process.stdout.write('\x07'), windowMs);
  });
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`port=${server.address().port}\r\n`));
process.on('SIGHUP', () => process.exit(0));
