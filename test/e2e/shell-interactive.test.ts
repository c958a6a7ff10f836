/**
 * Interactive programs in a real shell tile (bash, zsh, fish under `belltower run --headless`, the
 * built CLI): a command asleep reading the terminal is `blocked: input`, never a false `done` when
 * the user finally answers it; a full-screen program is working until the prompt is back, and its
 * end rings nothing. `longCommandMs` is lowered to 2 s so that "ran alone long enough to ring" is
 * reached in seconds; the rules are the same at the default 10 s.
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

const linux = process.platform === 'linux';

for (const shell of ['bash', 'zsh', 'fish'] as const) {
  const missing = !linux ? 'the foreground probe reads /proc (Linux)' : installed(shell) ? null : `${shell} is not installed (.ci/run installs it with apt-get when it runs as root)`;
  describe.skipIf(missing !== null)(`a ${shell} tile with interactive programs${missing ? ` (skipped: ${missing})` : ''}`, () => {
    it('`read` waits as blocked: input, and its answer ends it idle (no done); a question after a long run is blocked too; a full screen ends idle', async () => {
      const dir = mkdtempSync(join(tmpdir(), `belltower-interactive-${shell}-`));
      folders.push(dir);
      const home = join(dir, 'home');
      const cwd = join(dir, 'work');
      mkdirSync(home);
      mkdirSync(cwd);
      writeFileSync(join(home, '.bashrc'), "PS1='$ '\n");
      writeFileSync(join(home, '.zshrc'), "PS1='$ '\n");
      const env: Record<string, string> = { ...(process.env as Record<string, string>), HOME: home, CI: '', LESS: '', XDG_CONFIG_HOME: join(home, '.config') };
      const run = new HeadlessAgent({ spec: shell, env, cwd, dir, session: `interactive-${shell}-${process.pid}`, flags: ['--timing', 'longCommandMs=2000'] });
      runs.push(run);
      await run.until('the prompt', () => run.verdicts.at(-1)?.to === 'idle', 60_000);

      // A question right away: blocked, waiting for input.
      let mark = run.verdicts.length;
      await run.submit('read x');
      await run.until('blocked on input', () => run.verdicts.slice(mark).some((v) => v.to === 'blocked' && v.kind === 'input'), 60_000);
      await new Promise((resolve) => setTimeout(resolve, 2_500)); // longer than longCommandMs
      await run.submit('an answer');
      await run.until('back at the prompt', () => run.verdicts.slice(mark).some((v) => v.to === 'idle' && v.source === 'shell'), 60_000);
      expect(run.verdicts.slice(mark).map((v) => v.to), run.describe(mark)).not.toContain('done');

      // A question after the command ran alone past longCommandMs: blocked (it rings: the user may have gone).
      mark = run.verdicts.length;
      await run.submit('sleep 3; read y');
      await run.until('blocked on input after the sleep', () => run.verdicts.slice(mark).some((v) => v.to === 'blocked' && v.kind === 'input'), 60_000);
      await run.submit('yes');
      await run.until('back at the prompt', () => run.verdicts.slice(mark).some((v) => v.to === 'idle' && v.source === 'shell'), 60_000);
      expect(run.verdicts.slice(mark).map((v) => v.to), run.describe(mark)).not.toContain('done');

      // A full-screen program left open past longCommandMs, then quit: working throughout, idle after.
      mark = run.verdicts.length;
      writeFileSync(join(cwd, 'notes.txt'), 'a line\n');
      const vim = installed('vim');
      await run.submit(vim ? 'vim -u NONE -N notes.txt' : 'less notes.txt');
      const working = await run.until('the command working', () => run.verdicts.slice(mark).find((v) => v.to === 'working'));
      // It takes keys once its screen is drawn (vim's `~` rows, less's `(END)`); it is left open past
      // longCommandMs on the tile's clock (which said working before the test read it), then quit,
      // again only while its screen is still up and the tile has not said it is back at the prompt.
      const open = (screen: string): boolean => (vim ? /^~\s*$/m.test(screen) : screen.includes('(END)'));
      await run.untilScreen(vim ? "vim's screen" : "less's screen", open);
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, working.readAt + 2_500 - Date.now()))); // longer than longCommandMs
      const back = () => run.verdicts.slice(mark).some((v) => v.to === 'idle' && v.source === 'shell');
      await run.pressUntil('back at the prompt', () => (vim ? run.submit(':q') : run.type('q')), back, async () => !back() && open(await run.screenText()), { tries: 3, everyMs: 10_000 });
      const states = run.verdicts.slice(mark).map((v) => v.to);
      expect(states, run.describe(mark)).not.toContain('done');
      expect(states, run.describe(mark)).not.toContain('blocked');
    }, 240_000);
  });
}
