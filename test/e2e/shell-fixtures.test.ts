/**
 * Real bash, zsh and fish under `belltower run --headless --record DIR --capture-output SHELL`,
 * with belltower's shell integration and a throwaway HOME: the commands a user types, the verdicts
 * they get, and a recording that replays to the same verdicts. With BELLTOWER_UPDATE_FIXTURES=1
 * each recording becomes fixtures/shells/<shell>-<version>-commands.jsonl (replayed by
 * test/record/replay-fixtures.test.ts on every run, shells installed or not).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseRecording } from '../../src/record/format.js';
import { replay } from '../../src/tile/replay.js';
import { HeadlessAgent } from '../support/headless-agent.js';
import { installed } from '../tile/helpers.js';
import { fixtureText } from './headless-driver.js';

const FIXTURES = join(import.meta.dirname, '..', '..', 'fixtures', 'shells');

const SHELLS = {
  bash: { version: "bash -c 'echo ${BASH_VERSION%%(*}'", rc: '.bashrc', text: "PS1='$ '\n" },
  zsh: { version: "zsh -c 'echo $ZSH_VERSION'", rc: '.zshrc', text: "PS1='%# '\n" },
  fish: { version: "fish -c 'echo $version'", rc: '.config/fish/config.fish', text: "function fish_prompt; echo -n '> '; end\nfunction fish_greeting; end\n" },
} as const;

const runs: HeadlessAgent[] = [];
const folders: string[] = [];
afterEach(async () => {
  for (const run of runs.splice(0)) await run.stop();
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

for (const [shell, setup] of Object.entries(SHELLS)) {
  const missing = installed(shell) ? null : `${shell} is not installed (.ci/run installs it with apt-get when it runs as root)`;
  describe.skipIf(missing !== null)(`${shell}${missing ? ` (skipped: ${missing})` : ''}`, () => {
    it('sleep → done, sleep; false → failed, ls → quiet, Ctrl-C → quiet, exit → exited; the recording replays', async () => {
      const dir = mkdtempSync(join(tmpdir(), `belltower-${shell}-`));
      folders.push(dir);
      const home = join(dir, 'home');
      const cwd = join(dir, 'work');
      mkdirSync(join(home, setup.rc, '..'), { recursive: true });
      mkdirSync(cwd);
      writeFileSync(join(home, setup.rc), setup.text);
      const env: Record<string, string> = { ...(process.env as Record<string, string>), HOME: home, CI: '' };
      delete env.ZDOTDIR;
      delete env.XDG_CONFIG_HOME;
      const run = new HeadlessAgent({ spec: shell, env, cwd, dir, session: `fixture-${shell}-${process.pid}`, flags: ['--timing', 'longCommandMs=1000'] });
      runs.push(run);
      const last = () => run.verdicts.at(-1);

      await run.until('the prompt', () => last()?.to === 'idle');
      await run.submit('sleep 1.5');
      await run.until('done', () => last()?.to === 'done');
      await run.submit('sleep 1.5; false');
      await run.until('failed', () => last()?.to === 'failed');
      await run.submit('ls');
      await run.until('ls to end', () => /^"ls" finished in/.test(last()?.reason ?? ''));
      await run.submit('sleep 30');
      await run.until('sleep 30 to run', () => last()?.reason === 'sleep 30');
      await run.type('\x03');
      await run.until('the interrupt', () => /interrupted \(Ctrl-C\)/.test(last()?.reason ?? ''));
      await run.submit('exit 0');
      expect(await run.ended()).toBe(0);

      expect(run.verdicts.map((v) => [v.to, v.source])).toEqual([
        ['idle', 'shell'],
        ['working', 'shell'],
        ['done', 'shell'],
        ['idle', 'user'], // typing the next command: the done was seen
        ['working', 'shell'],
        ['failed', 'shell'],
        ['working', 'shell'],
        ['idle', 'shell'],
        ['working', 'shell'],
        ['idle', 'shell'],
        ['working', 'shell'],
        // fish marks the end of `exit` itself before it exits; bash and zsh just exit.
        ...(shell === 'fish' ? [['idle', 'shell']] : []),
        ['exited', 'process'],
      ]);
      expect(last()?.reason).toBe('exited with code 0');

      const text = readFileSync(run.recordingPath(), 'utf8');
      const result = await replay(parseRecording(text));
      expect(result.difference).toBeNull();
      expect(result.oscDifference).toBeNull();
      if (process.env.BELLTOWER_UPDATE_FIXTURES === '1') {
        const version = execFileSync('sh', ['-c', setup.version], { encoding: 'utf8' }).trim();
        mkdirSync(FIXTURES, { recursive: true });
        writeFileSync(join(FIXTURES, `${shell}-${version}-commands.jsonl`), fixtureText(text, version));
      }
    }, 60_000);
  });
}
