#!/usr/bin/env node
/**
 * Stands in for `claude` (BELLTOWER_CLAUDE_BIN) in the detection-latency benchmark: it reads the
 * settings file belltower injected with `--settings`, and tells the benchmark (UDP to
 * 127.0.0.1:$BENCH_UDP) where this tile's hooks go and with which token, so the benchmark can post
 * the hooks itself — with the exact URL and bearer token the real Claude Code would use — and time
 * them on its own clock. Then it sits at its "prompt", as an idle agent does.
 */
import dgram from 'node:dgram';
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const settingsPath = args[args.indexOf('--settings') + 1];
const sessionId = args[args.indexOf('--session-id') + 1];
const settings = JSON.parse(readFileSync(settingsPath, 'utf8'));
const hook = (event) => settings.hooks[event][0].hooks[0];
const stop = hook('Stop');
const prompt = hook('UserPromptSubmit');
const message = JSON.stringify({
  tile: process.env.BELLTOWER_TILE,
  sessionId,
  stop: { url: stop.url, headers: stop.headers },
  prompt: { url: prompt.url, headers: prompt.headers },
});
const socket = dgram.createSocket('udp4');
socket.send(message, Number(process.env.BENCH_UDP), '127.0.0.1', () => socket.close());
process.stdout.write('fake claude: ready\r\n> ');
process.stdin.resume();
process.on('SIGHUP', () => process.exit(0));
