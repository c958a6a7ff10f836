/**
 * End to end: the real Claude Code 2.1.332 in the grid inside tmux, a permission prompt and the
 * turn's end: one bell each, and one desktop notification each (OSC 9, passed through tmux) whose
 * text says what Claude wants — the command to approve — and then what it said.
 *
 * Skips (with the reason) when the pinned CLI cannot be installed or tmux is missing.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createClaudeHome } from '../support/claude-home.js';
import type { InstallResult } from '../support/claude-install.js';
import { BELLTOWER_BIN, claudeInTmux } from '../support/claude-in-tmux.js';
import { lastUserOf, permissionBash, startFakeAnthropic, text } from '../support/fake-anthropic.js';
import type { MessagesRequest, RecordedRequest } from '../support/fake-anthropic.js';
import { sleep } from '../support/fake-server.js';
import { stateOf, Tmux } from '../support/tmux.js';

const bin = BELLTOWER_BIN;
let install: InstallResult = { ok: false, reason: 'not attempted' };

beforeAll(async () => {
  install = await claudeInTmux();
}, 15 * 60_000);

/** The OSC 9 notifications the terminal outside tmux received. */
function notifications(output: string): string[] {
  return [...output.matchAll(/\x1b\]9;([^\x07\x1b]*)(?:\x1b\\|\x07)/g)].map((m) => m[1]!);
}

describe('notifications from the real Claude Code in the grid (tmux)', () => {
  it('a permission prompt: one bell and one notification naming the command; the done: the same', async (ctx) => {
    if (!install.ok) return ctx.skip(install.reason);
    const api = await startFakeAnthropic({ script: [permissionBash('touch belltower-approved.txt'), text('File created.')] });
    const home = createClaudeHome({ baseUrl: api.url });
    const dir = mkdtempSync(join(tmpdir(), 'belltower-claude-notify-'));
    const env: Record<string, string | undefined> = { ...home.env, BELLTOWER_CLAUDE_BIN: install.bin, BELLTOWER_STATE_DIR: join(dir, 'state'), CI: undefined };
    const command = `'${process.execPath}' '${bin}' claude --notify osc9 --session claude-notify 2> ${dir}/stderr; echo "EXIT=$?" > ${dir}/exit; sleep 600`;
    const tmux = new Tmux({ cols: 120, rows: 40, command, env, cwd: home.cwd });
    tmux.tmux('set-option', '-g', 'allow-passthrough', 'on');
    const client = tmux.attach(120, 40);
    try {
      await tmux.waitFor('claude at rest', (s) => stateOf(s, 1, 'claude') === 'idle', 30_000);
      await sleep(600);
      // The prompt from the grid (`i`), so the tile is never the one in front of you: a notification
      // is for what you are not looking at, and a key back to the grid could land after the ring.
      tmux.keys('i');
      await tmux.waitFor('the line for the tile', (s) => s.includes('send to 1 claude'));
      tmux.type('Create the file');
      tmux.keys('Enter');
      await tmux.waitFor('blocked', (s) => stateOf(s, 1, 'claude') === 'blocked', 60_000);
      await tmux.until('the bell', () => tmux.bells() >= 1);
      await tmux.until('the notification', () => notifications(client.output()).length >= 1, 30_000);
      // The words come from the PermissionRequest hook (`approve Bash \`…\``) or, when OSC 7501 says
      // blocked first, from its message (`approve Bash: …`): either names the command.
      const asked = notifications(client.output());
      expect(asked).toHaveLength(1);
      expect(asked[0]).toMatch(/^claude: approve Bash[: ]+`?touch belltower-approved\.txt`?\?$/);
      expect(tmux.bells()).toBe(1);

      // Approve from the grid (`y`, allow once), again without entering the tile, for the done.
      await sleep(1_000);
      tmux.keys('y');
      const toolResult = (r: RecordedRequest) => r.kind === 'main' && lastUserOf(r.body as MessagesRequest).toolResults.length > 0;
      await api.waitForRequest(toolResult, 60_000);
      await tmux.waitFor('done', (s) => stateOf(s, 1, 'claude') === 'done', 60_000);
      await tmux.until('the second bell', () => tmux.bells() >= 2);
      await tmux.until('the second notification', () => notifications(client.output()).length >= 2, 30_000);
      expect(notifications(client.output())[1]).toBe('claude: done — "File created."');
      await sleep(1_000);
      expect(tmux.bells()).toBe(2);
      expect(notifications(client.output())).toHaveLength(2);

      tmux.keys('q');
      const quit = await tmux.waitFor('quit', (s) => s.includes('quit belltower?') || existsSync(join(dir, 'exit')));
      if (quit.includes('quit belltower?')) tmux.keys('y');
      await tmux.until('belltower to exit', () => existsSync(join(dir, 'exit')), 15_000);
      expect(readFileSync(join(dir, 'stderr'), 'utf8')).toBe('');
    } finally {
      client.close();
      tmux.close();
      await api.close();
      home.cleanup();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
