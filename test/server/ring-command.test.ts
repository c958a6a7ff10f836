/**
 * `--on-ring`: a real /bin/sh runs the user's command with what rang in its environment; at most a
 * few at once and a bounded number waiting (the rest dropped and logged); one that runs too long
 * is ended with what it started; a failure is logged with its stderr.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RingCommand, ringEnvironment } from '../../src/server/ring-command.js';
import type { RingEvent } from '../../src/server/ring-command.js';

let dir: string;
const logged: { level: string; message: string; data?: Record<string, unknown> }[] = [];
const logger = (level: string, message: string, data?: Record<string, unknown>) => void logged.push({ level, message, ...(data ? { data } : {}) });

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'belltower-on-ring-'));
  logged.length = 0;
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const event = (tile: number, extra: Partial<RingEvent> = {}): RingEvent => ({ session: 'proj', tile, name: `t${tile}`, folder: dir, state: 'done', ...extra });

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('the on-ring command', () => {
  it("runs in the tile's folder with what rang in its environment, the agent's words made printable", async () => {
    const ring = new RingCommand({ command: 'env | grep ^BELLTOWER_ | sort > env.txt; pwd > pwd.txt', logger });
    ring.ring(event(3, { name: 'api', state: 'blocked', agent: 'claude', message: 'approve Bash: rm -rf build\x1b[2J' }));
    await ring.idle();
    const env = readFileSync(join(dir, 'env.txt'), 'utf8').trim().split('\n');
    expect(env).toEqual([
      'BELLTOWER_AGENT=claude',
      'BELLTOWER_FOLDER=' + dir,
      expect.stringMatching(/^BELLTOWER_MESSAGE=approve Bash: rm -rf build\S*\[2J$/),
      'BELLTOWER_NAME=api',
      'BELLTOWER_SESSION=proj',
      'BELLTOWER_STATE=blocked',
      'BELLTOWER_TILE=3',
    ]);
    expect(env.join('\n')).not.toContain('\x1b');
    expect(readFileSync(join(dir, 'pwd.txt'), 'utf8').trim()).toBe(dir);
    expect(logged.at(-1)?.message).toBe('on-ring: tile 3 blocked: passed on');
  });

  it('runs at most so many at once, lets a bounded number wait, and drops the rest saying so', async () => {
    const ring = new RingCommand({ command: 'echo "$BELLTOWER_TILE" >> started; while [ ! -f go ]; do sleep 0.05; done', logger, atOnce: 2, waiting: 2 });
    for (let tile = 1; tile <= 5; tile++) ring.ring(event(tile));
    await until(() => existsSync(join(dir, 'started')) && readFileSync(join(dir, 'started'), 'utf8').trim().split('\n').length === 2, 'two to start');
    expect(ring.stats).toMatchObject({ started: 2, dropped: 1 });
    expect(logged.some((l) => l.level === 'warn' && l.message.includes('tile 5 done not passed on'))).toBe(true);
    writeFileSync(join(dir, 'go'), '');
    await ring.idle();
    // The two that waited start together, so their shells may write in either order.
    const started = readFileSync(join(dir, 'started'), 'utf8').trim().split('\n');
    expect(started.slice(0, 2)).toEqual(['1', '2']);
    expect(started.slice(2).sort()).toEqual(['3', '4']);
    expect(ring.stats).toMatchObject({ started: 4, failed: 0, dropped: 1 });
  });

  it('ends a command that runs too long, with what it started', async () => {
    const ring = new RingCommand({ command: 'sleep 60 & echo $! > child.pid; wait', logger, timeoutMs: 300 });
    ring.ring(event(1));
    await ring.idle();
    expect(ring.stats.timedOut).toBe(1);
    expect(logged.at(-1)?.message).toMatch(/tile 1 done: the command ran over .* and was ended/);
    const child = Number(readFileSync(join(dir, 'child.pid'), 'utf8'));
    await until(() => {
      try {
        process.kill(child, 0);
        return false;
      } catch {
        return true;
      }
    }, 'the sleep it started to end');
  });

  it('logs a failure with its stderr, and a folder that is gone, and goes on', async () => {
    const ring = new RingCommand({ command: 'echo "no route to ntfy" >&2; exit 3', logger });
    ring.ring(event(1));
    ring.ring(event(2, { folder: join(dir, 'gone') }));
    await ring.idle();
    const warnings = logged.filter((l) => l.level === 'warn');
    expect(warnings.map((w) => w.message)).toEqual(expect.arrayContaining(['on-ring: tile 1 done: the command failed (exit 3)', expect.stringMatching(/^on-ring: tile 2 done: the command could not run: .*ENOENT/)]));
    expect(warnings.find((w) => w.message.includes('exit 3'))?.data).toEqual({ stderr: 'no route to ntfy' });
    expect(ring.stats.failed).toBe(2);
  });

  it('says every variable, even with no words from the agent', () => {
    expect(ringEnvironment(event(7))).toEqual({
      BELLTOWER_SESSION: 'proj',
      BELLTOWER_TILE: '7',
      BELLTOWER_NAME: 't7',
      BELLTOWER_FOLDER: dir,
      BELLTOWER_STATE: 'done',
      BELLTOWER_MESSAGE: '',
      BELLTOWER_AGENT: '',
    });
  });
});
