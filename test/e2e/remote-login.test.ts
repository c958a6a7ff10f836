/**
 * End to end: the real ssh asking its own question — a host key it has never seen — in a remote
 * tile under `belltower run --headless`, against a real sshd on a loopback port. The tile is
 * blocked on you while ssh asks (never answered by belltower), and back to what it was once you
 * answer in the tile. Skips, saying why, when sshd is missing here.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sleep } from '../support/fake-server.js';
import { startHeadlessAgent } from '../support/headless-agent.js';
import { sshAvailable, startSshd } from '../support/sshd.js';

const ssh = sshAvailable();
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('ssh asks while a remote tile logs in', () => {
  it('a new host key: blocked (auth) from ssh, one bell; answered in the tile, the remote shell is idle', async (ctx) => {
    if (!ssh.ok) return ctx.skip(ssh.reason);
    const sshd = await startSshd({ env: { PATH: '/usr/local/bin:/usr/bin:/bin' } });
    cleanups.push(() => sshd.close());
    const dir = mkdtempSync(join(tmpdir(), 'belltower-login-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    // The server's own options, minus the known host key and the batch mode that would refuse it.
    const options = sshd.clientOptions.filter((o, i, all) => !/^(UserKnownHostsFile|StrictHostKeyChecking|BatchMode)=/.test(o) && !(o === '-o' && /^(UserKnownHostsFile|StrictHostKeyChecking|BatchMode)=/.test(all[i + 1] ?? '')));
    const known = join(dir, 'known_hosts');
    const spec = ['ssh', ...options, '-o', `UserKnownHostsFile=${known}`, '-o', 'StrictHostKeyChecking=ask', sshd.destination].join(' ');
    const run = startHeadlessAgent({ spec, env: { ...process.env, SSH_AUTH_SOCK: '' } as Record<string, string>, cwd: dir, dir, session: `login-${process.pid}-${Date.now()}` });
    cleanups.push(async () => {
      if (!run.hasExited) run.child.kill('SIGTERM');
      await run.exited;
    });

    await run.until('ssh asking about the host key', () => run.verdicts.some((v) => v.to === 'blocked'), 20_000);
    const asked = run.verdicts.find((v) => v.to === 'blocked')!;
    expect(asked, run.describe()).toMatchObject({ source: 'ssh', kind: 'auth', reason: 'ssh asks whether to trust the host key' });
    // belltower never answers: still asking a while later, nothing written to known_hosts.
    await sleep(1_000);
    expect(run.verdicts.at(-1)?.to, run.describe()).toBe('blocked');
    expect(existsSync(known)).toBe(false);

    await run.submit('yes');
    // The question leaves the cursor's row as the answer is typed; ssh records the key on Enter.
    await run.until('the answer taken', () => run.verdicts.at(-1)?.to === 'idle' && run.verdicts.at(-1)?.source === 'ssh' && existsSync(known), 20_000);
    expect(readFileSync(known, 'utf8')).toMatch(/ssh-ed25519/);
    // One question, one blocked: the Enter that answered it started no work.
    expect(run.verdicts.filter((v) => v.to === 'blocked' || v.to === 'working'), run.describe()).toHaveLength(1);

    await run.submit('exit');
    expect(await run.ended(15_000)).toBe(0);
    expect(run.verdicts.at(-1), run.describe()).toMatchObject({ to: 'exited' });
  }, 60_000);
});
