#!/usr/bin/env node
/**
 * A program that speaks OSC 7501 when told to, for the detection-latency benchmark: it tells the
 * benchmark its UDP port (to 127.0.0.1:$BENCH_UDP), then writes `ESC ] 7501 ; state=<word> BEL`
 * for every datagram `<word>` it receives.
 */
import dgram from 'node:dgram';

const socket = dgram.createSocket('udp4');
socket.on('message', (word) => process.stdout.write(`\x1b]7501;state=${word.toString()}:app=bench\x07`));
socket.bind(0, '127.0.0.1', () => {
  socket.send(JSON.stringify({ port: socket.address().port }), Number(process.env.BENCH_UDP), '127.0.0.1');
});
process.stdout.write('psp turns: ready\r\n');
process.on('SIGHUP', () => process.exit(0));
