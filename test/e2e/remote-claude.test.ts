/**
 * End to end: the real Claude Code on "another machine" — a real OpenSSH server on a loopback
 * port, a user who logs in with a key only — under `belltower run --headless 'ssh … claude'`, against
 * the fake Anthropic API. The remote user's sessions get the API's address and their own Claude
 * config folder from the server (SetEnv), as a dev box's profile would.
 *
 *   in-band        nothing installed remotely: OSC 7501 through ssh's terminal → one done per turn
 *   --remote-hooks hooks over the tile's own connection → done and blocked from `hook`; the token
 *                  in no remote process's argv or environment; the remote folder gone afterwards
 *   dropped        the server's session killed mid-turn → exited, connection lost, never done
 *
 * Skips, saying why, when sshd or the pinned Claude is missing here.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { TestContext } from 'vitest';
import { createClaudeHome } from '../support/claude-home.js';
import type { ClaudeHome } from '../support/claude-home.js';
import { tryInstallClaude } from '../support/claude-install.js';
import { hang, lastUserOf, permissionBash, slowText, startFakeAnthropic, text } from '../support/fake-anthropic.js';
import type { FakeAnthropic, MessagesRequest, RecordedRequest, Script } from '../support/fake-anthropic.js';
import { sleep } from '../support/fake-server.js';
import { replayCheck, startHeadlessAgent } from '../support/headless-agent.js';
import type { HeadlessAgent } from '../support/headless-agent.js';
import { sshAvailable, startSshd } from '../support/sshd.js';
import type { Sshd } from '../support/sshd.js';
import { chownTree } from '../support/unprivileged-user.js';
import { exitClaude, readyForInput, waitFor } from './headless-driver.js';

const claude = await tryInstallClaude();
const ssh = sshAvailable();
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Remote {
  api: FakeAnthropic;
  sshd: Sshd;
  home: ClaudeHome;
  run: HeadlessAgent;
  /** The remote user's HOME for these sessions (belltower's remote folders go under it). */
  remoteHome: string;
}

/** Variables the remote sessions get from the server: the fake API, the Claude config, a HOME. */
const REMOTE_VARS = /^(HOME|CLAUDE_CONFIG_DIR|ANTHROPIC_|DISABLE_|CLAUDE_CODE_|TMPDIR$|LANG$|XDG_(CONFIG|DATA|CACHE|STATE)_HOME$)/;

async function start(ctx: TestContext, script: Script, flags: string[] = []): Promise<Remote> {
  if (!claude.ok) return ctx.skip(claude.reason) as never;
  if (!ssh.ok) return ctx.skip(ssh.reason) as never;
  const api = await startFakeAnthropic({ script });
  cleanups.push(() => api.close());
  // sshd starts sessions in the user's own home: that is the project folder Claude trusts.
  const home = createClaudeHome({ baseUrl: api.url, cwd: ssh.user.home });
  cleanups.push(() => home.cleanup());
  chownTree(home.home, process.getuid?.() === 0 ? { name: ssh.user.name, uid: ssh.user.uid, gid: ssh.user.gid } : null);
  // `claude` on the remote PATH, as an npm install puts it there.
  const bin = join(claude.bin, '..', '..', '..', '..', '.bin');
  const remoteEnv = { ...Object.fromEntries(Object.entries(home.env).filter(([name]) => REMOTE_VARS.test(name))), PATH: `${bin}:/usr/local/bin:/usr/bin:/bin` };
  const sshd = await startSshd({ env: remoteEnv });
  cleanups.push(() => sshd.close());
  const dir = mkdtempSync(join(tmpdir(), 'belltower-remote-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const spec = ['ssh', ...sshd.clientOptions, sshd.destination, 'claude'].join(' ');
  const run = startHeadlessAgent({ spec, env: { ...process.env, SSH_AUTH_SOCK: '' } as Record<string, string>, cwd: dir, dir, session: `remote-${process.pid}-${Date.now()}`, flags });
  cleanups.push(async () => {
    if (!run.hasExited) run.child.kill('SIGTERM');
    await run.exited;
  });
  return { api, sshd, home, run, remoteHome: home.home };
}

/** Every argv and environment of the remote user's processes, as one text (what `ps e` shows). */
function remoteProcessText(uid: number): string {
  let all = '';
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const status = readFileSync(`/proc/${name}/status`, 'utf8');
      if (Number(/^Uid:\s+(\d+)/m.exec(status)?.[1]) !== uid) continue;
      all += `${readFileSync(`/proc/${name}/cmdline`, 'utf8')}\n${readFileSync(`/proc/${name}/environ`, 'utf8')}\n`;
    } catch {
      // gone meanwhile
    }
  }
  return all;
}

const folderOf = (remote: Remote) => join(remote.remoteHome, '.cache', 'belltower-remote');

describe('a remote Claude over ssh (a real sshd on loopback)', () => {
  it('in-band, nothing installed remotely: one done per turn from OSC 7501', async (ctx) => {
    // Streamed, as a real model answers: Claude 2.1.332 reports a turn that starts and ends within
    // one of its renders (an instant answer, under load) with no OSC 7501 at all.
    const remote = await start(ctx, [slowText('First answer.'), slowText('Second answer.')]);
    const { run } = remote;
    await readyForInput(run);
    for (const prompt of ['say one thing', 'say another']) {
      const mark = run.verdicts.length;
      await run.submit(prompt);
      const waited = await waitFor(run, 'done', '60s');
      expect(waited.code, `${run.describe()}\nscreen:\n${await run.screenText()}\nrequests: ${remote.api.requests.map((r) => r.kind).join(', ')}`).toBe(0);
      await sleep(1_600); // a second done would show by now
      const dones = run.verdicts.slice(mark).filter((v) => v.to === 'done');
      expect(dones.map((v) => v.source), run.describe()).toEqual(['psp']);
    }
    const ls = JSON.parse((await run.cli('ls', '--json')).stdout) as { remote?: { host: string; hooks: string } }[];
    expect(ls[0]?.remote).toEqual({ host: '127.0.0.1', hooks: 'off' });
    // Nothing of belltower's on the remote side.
    expect(existsSync(folderOf(remote))).toBe(false);
    expect(await exitClaude(run)).toBe(0);
    expect(run.verdicts.at(-1), run.describe()).toMatchObject({ to: 'exited' });
    const recording = readdirSync(run.recordDir).map((f) => join(run.recordDir, f))[0]!;
    expect((await replayCheck(recording)).code).toBe(0);
  }, 120_000);

  it('--remote-hooks: done and blocked from hooks over the connection; the token in no remote argv or environment', async (ctx) => {
    const remote = await start(ctx, [text('Hooked answer.'), permissionBash('touch belltower-remote-approved.txt'), text('Created.')], ['--remote-hooks']);
    const { run, api } = remote;
    // Over ssh, a hook and what the screen says of the same moment race (the hook goes through the
    // forward and the relay): whichever lands first decides. SessionStart may well come after the
    // title has said idle, so it is looked for in the recording, not among the verdicts.
    const firstParty = ['hook', 'psp'];
    const hooked = (event: string) => run.recording().filter((line) => line.type === 'hook' && line.event === event).length;
    await readyForInput(run);
    await run.until('the hooks set up (SessionStart over the connection)', () => hooked('SessionStart') >= 1, 30_000);
    let mark = run.verdicts.length;
    await run.submit('answer with hooks');
    expect((await waitFor(run, 'done', '60s')).code, run.describe()).toBe(0);
    expect(firstParty, run.describe()).toContain(run.verdicts.slice(mark).find((v) => v.to === 'done')?.source);
    await run.until('the Stop hook', () => hooked('Stop') >= 1, 10_000);

    // While the agent runs: its folder is there, private; the token is in no process of the user.
    const folders = readdirSync(folderOf(remote));
    expect(folders).toHaveLength(1);
    const token = /Bearer ([0-9a-f]{64})/.exec(readFileSync(join(folderOf(remote), folders[0]!, 'relay.curlrc'), 'utf8'))?.[1];
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    expect(remoteProcessText(ssh.ok ? ssh.user.uid : -1)).not.toContain(token!);
    expect(execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' })).not.toContain(token!);

    mark = run.verdicts.length;
    await run.submit('make a file');
    expect((await waitFor(run, 'blocked', '60s')).code, run.describe()).toBe(0);
    const blocked = run.verdicts.slice(mark).find((v) => v.to === 'blocked');
    expect(blocked, run.describe()).toMatchObject({ kind: 'permission' });
    expect(firstParty, run.describe()).toContain(blocked?.source);
    await run.until('the PermissionRequest hook', () => hooked('PermissionRequest') >= 1, 10_000);
    const toolResult = (r: RecordedRequest) => r.kind === 'main' && lastUserOf(r.body as MessagesRequest).toolResults.length > 0;
    for (let presses = 0; presses < 12 && !(await api.waitForRequest(toolResult, 700).then(() => true, () => false)); presses++) await run.submit('');
    expect((await waitFor(run, 'done', '60s')).code, run.describe()).toBe(0);

    // Hooks decided: each turn's start, end or question came first from a hook at least once.
    expect(run.verdicts.some((v) => v.source === 'hook' && ['working', 'done', 'blocked'].includes(v.to)), run.describe()).toBe(true);

    expect(await exitClaude(run)).toBe(0);
    // The tile ended: its remote folder went with it.
    await run.until('the remote folder removed', () => readdirSync(folderOf(remote)).length === 0, 10_000);
  }, 150_000);

  it('the connection dropped mid-turn: exited, connection lost, never done', async (ctx) => {
    const remote = await start(ctx, [hang()]);
    const { run, sshd } = remote;
    await readyForInput(run);
    const mark = run.verdicts.length;
    await run.submit('think for a long time');
    await run.until('working', () => run.verdicts.slice(mark).some((v) => v.to === 'working'), 30_000);
    await remote.api.waitForRequest((r) => r.kind === 'main', 30_000);
    // The network goes: the server's processes for this connection die at once.
    for (const pid of sshd.sessionPids()) process.kill(pid, 'SIGKILL');
    const code = await run.ended(30_000);
    expect(code, run.describe()).not.toBe('timeout');
    const after = run.verdicts.slice(mark);
    expect(after.some((v) => v.to === 'done'), run.describe()).toBe(false);
    expect(after.at(-1), run.describe()).toMatchObject({ to: 'exited', reason: 'connection lost (ssh exited 255)' });
  }, 120_000);
});
