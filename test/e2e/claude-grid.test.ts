/**
 * End to end: the real Claude Code 2.1.332 in the full-screen grid (`belltower claude`, the built
 * CLI) inside tmux, against the fake Anthropic API, typed into in focus mode the way a user types:
 * one bell when the turn ends, none for /clear, and q gives the terminal back as it was.
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
import { startFakeAnthropic, text } from '../support/fake-anthropic.js';
import { sleep } from '../support/fake-server.js';
import { stateOf, Tmux } from '../support/tmux.js';

const bin = BELLTOWER_BIN;
let install: InstallResult = { ok: false, reason: 'not attempted' };

beforeAll(async () => {
  install = await claudeInTmux();
}, 15 * 60_000);

describe('the real Claude Code in the grid (tmux)', () => {
  it('rings once when a typed turn ends, not for /clear, and q restores the terminal', async (ctx) => {
    if (!install.ok) return ctx.skip(install.reason);
    const api = await startFakeAnthropic({ script: [text('A plain answer.', { firstByteDelayMs: 1_000 })] });
    const home = createClaudeHome({ baseUrl: api.url });
    const dir = mkdtempSync(join(tmpdir(), 'belltower-claude-grid-'));
    const env: Record<string, string | undefined> = { ...home.env, BELLTOWER_CLAUDE_BIN: install.bin, BELLTOWER_STATE_DIR: join(dir, 'state'), CI: undefined };
    const command = [
      `stty -a > ${dir}/stty-before`,
      'echo BEFORE-BELLTOWER',
      `'${process.execPath}' '${bin}' claude --session claude-grid 2> ${dir}/stderr`,
      `echo "EXIT=$?" > ${dir}/exit`,
      `stty -a > ${dir}/stty-after`,
      'echo AFTER-BELLTOWER',
      'sleep 600',
    ].join('\n');
    const tmux = new Tmux({ cols: 120, rows: 40, command, env, cwd: home.cwd });
    try {
      await tmux.waitFor('claude at rest', (s) => stateOf(s, 1, 'claude') === 'idle', 30_000);
      // belltower's first idle comes a moment before Claude's input box takes an Enter.
      await sleep(600);
      tmux.keys('Enter');
      await tmux.waitFor('focus mode', (s) => s.includes('FOCUS 1 claude'));
      tmux.type('Say something short');
      await sleep(150); // Claude reads text and Enter in one write as a paste
      tmux.keys('Enter');
      await tmux.waitFor('working', (s) => stateOf(s, 1, 'claude') === 'working', 15_000);
      await tmux.waitFor('done', (s) => stateOf(s, 1, 'claude') === 'done', 30_000);
      await tmux.until('one bell', () => tmux.bells() >= 1);
      expect(tmux.screen()).toContain('A plain answer.');
      expect(tmux.bells()).toBe(1);

      tmux.type('/clear');
      await sleep(300);
      tmux.keys('Enter');
      await tmux.waitFor('cleared: at rest again', (s) => stateOf(s, 1, 'claude') === 'idle' && !s.includes('A plain answer.'), 15_000);
      // A /clear must never look like a finished turn: no done, no bell.
      await sleep(2_500);
      expect(stateOf(tmux.screen(), 1, 'claude')).toBe('idle');
      expect(tmux.bells()).toBe(1);

      tmux.keys('C-\\');
      await tmux.waitFor('back in the grid', (s) => s.includes('belltower · 1 tile'));
      tmux.keys('q');
      await tmux.until('belltower to exit', () => existsSync(join(dir, 'exit')), 15_000);
      await tmux.waitFor('the script after belltower', (s) => s.includes('AFTER-BELLTOWER'));
      expect(readFileSync(join(dir, 'exit'), 'utf8')).toContain('EXIT=0');
      expect(tmux.show('#{alternate_on}')).toBe('0');
      expect(tmux.show('#{cursor_flag}')).toBe('1');
      expect(tmux.screen()).toContain('BEFORE-BELLTOWER');
      expect(readFileSync(join(dir, 'stty-after'), 'utf8')).toBe(readFileSync(join(dir, 'stty-before'), 'utf8'));
      expect(readFileSync(join(dir, 'stderr'), 'utf8')).toBe('');
    } finally {
      tmux.close();
      await api.close();
      home.cleanup();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
