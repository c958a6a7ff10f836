/**
 * End to end: the real Claude Code with the user's own `--settings FILE` in its SPEC. Claude keeps
 * only the last `--settings`, so passed as given it dropped belltower's hooks without a word
 * (issue 24, item 8): the user's file is merged into belltower's. Both hold: the user's own hook
 * runs, and the turn's end is reported by belltower's Stop hook.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { tryInstallClaude, type InstallResult } from '../support/claude-install.js';
import { createClaudeHome } from '../support/claude-home.js';
import { startFakeAnthropic, text } from '../support/fake-anthropic.js';
import { sleep } from '../support/fake-server.js';
import { startHeadlessAgent } from '../support/headless-agent.js';

const REPO = join(import.meta.dirname, '..', '..');
let install: InstallResult = { ok: false, reason: 'not attempted' };

beforeAll(async () => {
  if (!existsSync(join(REPO, 'dist', 'cli', 'main.js'))) install = { ok: false, reason: 'the CLI is not built (npm run build)' };
  else install = await tryInstallClaude({ log: (line) => console.error(`[claude-install] ${line}`) });
}, 15 * 60_000);

describe("the real Claude Code with the user's own --settings", () => {
  it("runs the user's hook and belltower's: the turn is reported by hooks, working then one done", async (ctx) => {
    if (!install.ok) return ctx.skip(install.reason);
    const api = await startFakeAnthropic({ script: [text('Hello.')] });
    const home = createClaudeHome({ baseUrl: api.url });
    const dir = mkdtempSync(join(tmpdir(), 'belltower-claude-settings-'));
    const marker = join(dir, 'their-hook-ran');
    writeFileSync(join(home.cwd, 'team.json'), JSON.stringify({ hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: `touch '${marker}'` }] }] } }));
    const run = startHeadlessAgent({ spec: 'claude --settings team.json', env: { ...home.env, BELLTOWER_CLAUDE_BIN: install.bin }, cwd: home.cwd, dir, session: `claude-settings-${process.pid}` });
    try {
      await run.until('the first idle verdict', () => run.verdicts.some((v) => v.to === 'idle') || undefined, 30_000);
      await sleep(1_000); // the prompt takes keys a moment after it is drawn
      const mark = run.verdicts.length;
      await run.submit('Say hello');
      await run.wait('done', '30s');
      await run.until("the user's hook's file", () => existsSync(marker) || undefined, 15_000);
      // Working and done come from whichever of OSC 7501 and the hooks is first (on a loaded machine
      // the terminal can beat the hook); the Stop hook, which only belltower's own settings
      // register, must reach belltower.
      const turn = run.verdicts.slice(mark);
      expect(turn.map((v) => v.to), run.describe(mark)).toEqual(['working', 'done']);
      await run.untilRecorded("belltower's Stop hook", (l) => l.type === 'hook' && l.event === 'Stop', 30_000);
      const listed = JSON.parse((await run.cli('ls', '--json')).stdout) as { notice?: string }[];
      expect(listed[0]?.notice).toBeUndefined();
    } finally {
      await run.stop();
      await api.close();
      home.cleanup();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
