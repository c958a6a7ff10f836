/**
 * End to end: two real Claude Code 2.1.332 tiles on one repository, each in its own worktree
 * (`belltower add --worktree`), against the fake API, in a real terminal (tmux) with the session
 * server. Each is asked to write where it is into the same file `app.ts`; each write needs
 * permission, answered with `belltower answer`. Each edit lands in its own worktree only — the
 * other's and the main checkout's `app.ts` stay as they were — and after each turn the tile's
 * header shows its diff stat; its info's token count is the transcript's own usage.
 *
 * Skips (with the reason) when the pinned CLI cannot be installed or tmux is missing.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TileInfo } from '../../src/control/protocol.js';
import { worktreesFolder } from '../../src/worktree/worktree-create.js';
import { belltowerCli } from '../support/belltower-cli.js';
import { createClaudeHome } from '../support/claude-home.js';
import type { InstallResult } from '../support/claude-install.js';
import { BELLTOWER_BIN, claudeInTmux } from '../support/claude-in-tmux.js';
import { permissionBash, startFakeAnthropic, text } from '../support/fake-anthropic.js';
import { GIT_ENV, gitIn, tempRepository } from '../support/git-repo.js';
import { awaitEnded, endServers } from '../support/session-servers.js';
import { shellQuote as q } from '../support/shell-quote.js';
import { headerOf, Tmux } from '../support/tmux.js';

let install: InstallResult = { ok: false, reason: 'not attempted' };

beforeAll(async () => {
  install = await claudeInTmux();
}, 15 * 60_000);

/** Every transcript line of Claude's projects folder whose session ran in `cwd`. */
function transcriptUsage(configDir: string, cwd: string): number {
  const projects = join(configDir, 'projects');
  const usages = new Map<string, Record<string, number>>();
  for (const folder of existsSync(projects) ? readdirSync(projects) : []) {
    for (const file of readdirSync(join(projects, folder)).filter((f) => f.endsWith('.jsonl'))) {
      for (const line of readFileSync(join(projects, folder, file), 'utf8').split('\n')) {
        if (!line.trim()) continue;
        const record = JSON.parse(line) as { type?: string; cwd?: string; isSidechain?: boolean; message?: { id?: string; usage?: Record<string, number> } };
        if (record.type === 'assistant' && record.cwd === cwd && !record.isSidechain && record.message?.id && record.message.usage) usages.set(record.message.id, record.message.usage);
      }
    }
  }
  return [...usages.values()].reduce((n, u) => n + (u.input_tokens ?? 0) + (u.cache_read_input_tokens ?? 0) + (u.cache_creation_input_tokens ?? 0) + (u.output_tokens ?? 0), 0);
}

describe('two real Claude Code tiles, each in its own worktree of one repository (tmux)', () => {
  it('each edits the same file in its own worktree only; the header shows the diff stat after each turn', async (ctx) => {
    if (!install.ok) return ctx.skip(install.reason);
    const made = tempRepository({ 'app.ts': 'original\n' }, 'belltower-claude-wt-');
    const { repo, root } = made;
    const state = join(root, 'state');
    const paths = { a: join(worktreesFolder(state, repo), 'wt-a'), b: join(worktreesFolder(state, repo), 'wt-b') };
    // Each asks to write its own folder into app.ts; the write needs permission.
    const api = await startFakeAnthropic({ script: (c) => (c.lastUser.toolResults.length > 0 ? text('Wrote app.ts.') : permissionBash('pwd > app.ts', { description: 'Write where I am' })) });
    const home = createClaudeHome({
      baseUrl: api.url,
      cwd: repo,
      // Claude asks whether to trust a folder it has not seen: the worktrees are trusted as the repository is.
      globalConfig: { projects: Object.fromEntries([repo, paths.a, paths.b].map((p) => [p, { hasTrustDialogAccepted: true }])) },
    });
    const env: Record<string, string | undefined> = { ...home.env, ...Object.fromEntries(Object.entries(GIT_ENV).filter(([k]) => k.startsWith('GIT_'))), BELLTOWER_CLAUDE_BIN: install.bin, BELLTOWER_STATE_DIR: state, CI: undefined };
    for (const name of Object.keys(env)) if (name.startsWith('VITEST') || name === 'NODE_OPTIONS') env[name] = undefined;
    const tmux = new Tmux({ cols: 160, rows: 40, command: `${q(process.execPath)} ${q(BELLTOWER_BIN)} --session cwt ${q('sleep 600')} 2> ${root}/stderr; sleep 600`, env, cwd: repo });
    const cli = (...args: string[]) => belltowerCli([...args, '--session', 'cwt'], { env: env as NodeJS.ProcessEnv, cwd: repo });
    const tiles = async () => JSON.parse((await cli('ls', '--json')).stdout) as TileInfo[];
    const tile = async (name: string) => (await tiles()).find((t) => t.name === name);
    const until = async (what: string, check: () => Promise<boolean>, ms = 60_000) => {
      const deadline = Date.now() + ms;
      while (!(await check())) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(await tiles().catch(() => []))}\n${tmux.screen()}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    };
    try {
      await tmux.waitFor('the grid', (s) => headerOf(s, 1, 'sleep') !== undefined, 30_000);
      for (const name of ['a', 'b'] as const) {
        const added = await cli('add', '--worktree', `wt-${name}`, '--name', name, 'claude');
        expect(added.stderr).toBe('');
        expect((await tile(name))?.worktree?.path).toBe(paths[name]);
      }
      for (const name of ['a', 'b'] as const) await until(`${name} at rest`, async () => (await tile(name))?.state === 'idle');
      await new Promise((resolve) => setTimeout(resolve, 600));

      for (const name of ['a', 'b'] as const) {
        expect((await cli('send', name, '--enter', 'Write where you are into app.ts')).code).toBe(0);
        await until(`${name} asking`, async () => (await tile(name))?.request !== undefined);
        const asking = (await tile(name))!;
        expect(asking.request!.asks).toContain('pwd > app.ts');
        const answered = await cli('answer', name, 'allow', '--request', asking.request!.id);
        expect(answered.stderr).toBe('');
        await until(`${name} done`, async () => (await tile(name))?.state === 'done');
        // Its own edit, in its own worktree, counted in its header.
        await tmux.waitFor(`${name}'s diff stat in its header`, (s) => (headerOf(s, name === 'a' ? 2 : 3, name) ?? '').includes(`wt-${name} +1 −1 · 1 file`), 30_000);
        expect(readFileSync(join(paths[name], 'app.ts'), 'utf8')).toBe(`${paths[name]}\n`);
      }
      // Neither touched the other, nor the main checkout.
      expect(readFileSync(join(repo, 'app.ts'), 'utf8')).toBe('original\n');
      expect(gitIn(repo, 'status', '--porcelain')).toBe('');
      expect(gitIn(paths.a, 'diff', '--numstat')).toBe(`1\t1\tapp.ts\n`);
      let total = 0;
      for (const name of ['a', 'b'] as const) {
        const info = (await tile(name))!;
        expect(info.changes).toEqual({ branch: `wt-${name}`, added: 1, removed: 1, files: 1 });
        // The tokens it shows are its transcript's own count.
        const used = transcriptUsage(join(home.home, '.claude'), paths[name]);
        expect(used).toBeGreaterThan(0);
        expect(info.facts?.totalTokens).toBe(used);
        total += used;
      }
      // The status line draws their sum (the fake API's counts stay under a thousand: no `k`).
      expect(total).toBeLessThan(1000);
      await tmux.waitFor('the tokens in the status line', (s) => (s.split('\n').findLast((line) => line.includes('belltower ·')) ?? '').includes(`· ${total} tokens`), 30_000);
      const diff = await cli('diff', 'a');
      expect(diff.stdout).toBe(gitIn(paths.a, 'diff', '--no-color', gitIn(paths.a, 'rev-parse', 'HEAD').trim()));
    } finally {
      // The server (and the Claudes it runs) end before their HOME and folders go.
      await awaitEnded(endServers([state]));
      tmux.close();
      await api.close();
      home.cleanup();
      made.remove();
    }
  }, 240_000);
});
