#!/usr/bin/env node
/**
 * Stands in for `claude` (BELLTOWER_CLAUDE_BIN) in the detection-latency benchmark: it reads the
 * settings file belltower injected with `--settings`, and tells the benchmark (UDP to
 * 127.0.0.1:$BENCH_UDP) where this tile's hooks go and with which token, so the benchmark can post
 * the hooks itself — with the exact URL and bearer token the real Claude Code would use — and time
 * them on its own clock. Then it sits at its "prompt", as an idle agent does.
 *
 * belltower asks `claude --version` before it starts a tile and injects HTTP hooks only for a
 * Claude that runs them (src/agents/claude-hook-events.ts); an unknown version gets command hooks
 * through the relay, which have no URL to post to. So this answers `--version` with a version that
 * takes every hook belltower reads, and says so over UDP if its hooks are not HTTP anyway.
 */
import dgram from 'node:dgram';
import { readFileSync } from 'node:fs';

export const FAKE_CLAUDE_VERSION = '2.1.332';

const args = process.argv.slice(2);
if (args.includes('--version')) {
  process.stdout.write(`${FAKE_CLAUDE_VERSION} (Claude Code)\n`);
  process.exit(0);
}

const tell = (message) => {
  const socket = dgram.createSocket('udp4');
  socket.send(JSON.stringify(message), Number(process.env.BENCH_UDP), '127.0.0.1', () => socket.close());
};

try {
  const settingsPath = args[args.indexOf('--settings') + 1];
  const sessionId = args[args.indexOf('--session-id') + 1];
  if (!args.includes('--settings')) throw new Error(`started without --settings (arguments: ${args.join(' ')})`);
  const settings = JSON.parse(readFileSync(settingsPath, 'utf8'));
  const hook = (event) => {
    const entry = settings.hooks?.[event]?.at(-1)?.hooks?.[0];
    if (entry?.type !== 'http' || !entry.url) throw new Error(`the injected ${event} hook is not an HTTP hook: ${JSON.stringify(entry)}`);
    return entry;
  };
  const stop = hook('Stop');
  const prompt = hook('UserPromptSubmit');
  tell({
    tile: process.env.BELLTOWER_TILE,
    sessionId,
    stop: { url: stop.url, headers: stop.headers },
    prompt: { url: prompt.url, headers: prompt.headers },
  });
} catch (error) {
  tell({ tile: process.env.BELLTOWER_TILE, error: `fake claude: ${error.message}` });
}
process.stdout.write('fake claude: ready\r\n> ');
process.stdin.resume();
process.on('SIGHUP', () => process.exit(0));
