/**
 * `belltower wait TILE --for finished` with a real bash under `belltower run --headless` (the built
 * CLI), the way a script drives a shell tile: send a command, wait for it to finish. A command
 * shorter than `longCommandMs` (10 s) ends idle and never rings, so `--for done` never came for it;
 * `--for finished` returns once it has ended, 0 whatever its status, and a timeout is told as given.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HeadlessAgent } from '../support/headless-agent.js';
import { installed } from '../tile/helpers.js';

const runs: HeadlessAgent[] = [];
const folders: string[] = [];
afterEach(async () => {
  for (const run of runs.splice(0)) await run.stop();
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

const missing = installed('bash') ? null : 'bash is not installed (.ci/run installs it with apt-get when it runs as root)';

describe.skipIf(missing !== null)(`a bash tile under run --headless${missing ? ` (skipped: ${missing})` : ''}`, () => {
  it('wait --for finished returns 0 for `true` and `sleep 0.2` (short: idle, no ring), and for a failing command; a timeout says 300ms', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'belltower-finished-'));
    folders.push(dir);
    const home = join(dir, 'home');
    const cwd = join(dir, 'work');
    mkdirSync(home);
    mkdirSync(cwd);
    writeFileSync(join(home, '.bashrc'), "PS1='$ '\n");
    const env: Record<string, string> = { ...(process.env as Record<string, string>), HOME: home, CI: '' };
    const run = new HeadlessAgent({ spec: 'bash', env, cwd, dir, session: `finished-${process.pid}` });
    runs.push(run);
    await run.until('the prompt', () => run.verdicts.at(-1)?.to === 'idle', 30_000);

    for (const command of ['true', 'sleep 0.2', 'sleep 0.2; false']) {
      await run.submit(command);
      const waited = await run.wait('finished', '60s');
      expect(waited.code, run.describe()).toBe(0);
      // The line it prints is the end of this command, not the prompt from before it.
      expect(waited.stdout, run.describe()).toContain(`"${command}" ${command.endsWith('false') ? 'failed with exit code 1' : 'finished'} in`);
      expect(waited.stdout).toMatch(/idle/);
    }
    // Short commands never rang: `--for done` would still be waiting.
    expect(run.verdicts.some((v) => v.to === 'done' || v.to === 'failed'), run.describe()).toBe(false);

    await run.submit('sleep 30');
    const timedOut = await run.cli('wait', '1', '--for', 'finished', '--timeout', '300ms');
    expect(timedOut.code).toBe(124);
    expect(timedOut.stderr.trim()).toBe('belltower: tile 1 (bash) did not finish its command or turn: timed out after 300ms');
  }, 120_000);
});
