/**
 * A real OpenSSH server on a loopback port for the remote-agent tests: a throwaway host key, one
 * user who logs in with a throwaway key only, and the environment its sessions get (the fake API's
 * address, the agent's config folder) set by the server, as a dev box's own profile would.
 *
 *   const found = sshAvailable();            // sshd and ssh installed, and a user to log in as
 *   if (!found.ok) ctx.skip(found.reason);
 *   const server = await startSshd({ env: { ANTHROPIC_BASE_URL: api.url } });
 *   spec = `ssh ${server.clientOptions.join(' ')} ${server.user.name}@127.0.0.1 ${claudeBin}`;
 *   …
 *   await server.close();
 *
 * Root (CI): the server runs as root and the remote user is `belltower-ssh` (created when missing,
 * with a home and /bin/sh). Not root: the server runs as the test's own user, who is also the
 * remote user.
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export const SSH_USER = 'belltower-ssh';
const SSHD = ['/usr/sbin/sshd', '/usr/local/sbin/sshd'].find((p) => fs.existsSync(p));

export interface SshUser {
  name: string;
  uid: number;
  gid: number;
  home: string;
}

export type SshAvailability = { ok: true; user: SshUser } | { ok: false; reason: string };

let cached: SshAvailability | undefined;

/** sshd and ssh here, and the user the tests log in as. */
export function sshAvailable(): SshAvailability {
  cached ??= find();
  return cached;
}

function find(): SshAvailability {
  if (!SSHD) return { ok: false, reason: 'sshd is not installed (apt-get install openssh-server)' };
  if (spawnSync('ssh', ['-V'], { stdio: 'ignore' }).status !== 0) return { ok: false, reason: 'ssh is not installed (apt-get install openssh-client)' };
  if (process.getuid?.() !== 0) {
    const info = os.userInfo();
    return { ok: true, user: { name: info.username, uid: info.uid, gid: info.gid, home: info.homedir } };
  }
  let user = lookup();
  if (!user) {
    // '*' and not useradd's '!': without PAM, sshd refuses a locked account even for a key.
    const made = spawnSync('useradd', ['--create-home', '--shell', '/bin/sh', '--password', '*', SSH_USER], { encoding: 'utf8' });
    user = lookup();
    if (!user) return { ok: false, reason: `cannot create the user ${SSH_USER}: ${made.stderr.trim() || made.error?.message}` };
  }
  return { ok: true, user };
}

function lookup(): SshUser | undefined {
  const line = spawnSync('getent', ['passwd', SSH_USER], { encoding: 'utf8' }).stdout.trim();
  const [name, , uid, gid, , home] = line.split(':');
  if (!name || !home || !uid || !gid) return undefined;
  if (!fs.existsSync(home)) {
    fs.mkdirSync(home, { recursive: true, mode: 0o755 });
    fs.chownSync(home, Number(uid), Number(gid));
  }
  return { name, uid: Number(uid), gid: Number(gid), home };
}

export interface Sshd {
  port: number;
  user: SshUser;
  /** Options every client needs: the port, the key, and the throwaway known-hosts file. */
  clientOptions: string[];
  /** `user@127.0.0.1` */
  destination: string;
  /** The server's own log (sshd -E). */
  log(): string;
  /** The pids of every process serving a connection (the server's own per-connection processes
   * and what they run): killing them is the network dropping, from the client's side. */
  sessionPids(): number[];
  close(): Promise<void>;
}

export interface SshdOptions {
  /** Variables every session gets (sshd's SetEnv). */
  env?: Record<string, string>;
  /** `AllowTcpForwarding` (default yes). */
  forwarding?: boolean;
  /** Run every session's command with this shell, as when it is the user's login shell (sshd's
   * `ForceCommand`; default the user's own, /bin/sh here). It matters: bash execs a lone command
   * (`sh -c …` becomes the session leader), dash forks it. */
  loginShell?: string;
}

export async function startSshd(options: SshdOptions = {}): Promise<Sshd> {
  const found = sshAvailable();
  if (!found.ok) throw new Error(found.reason);
  const user = found.user;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'belltower-sshd-'));
  // sshd reads authorized_keys as the user logging in (the keys in here stay 0600).
  fs.chmodSync(dir, 0o755);
  const key = path.join(dir, 'client_key');
  const hostKey = path.join(dir, 'host_key');
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', hostKey]);
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', key]);
  const authorized = path.join(dir, 'authorized_keys');
  fs.copyFileSync(`${key}.pub`, authorized);
  fs.chmodSync(authorized, 0o644);
  const known = path.join(dir, 'known_hosts');
  const port = await freePort();
  fs.writeFileSync(known, `[127.0.0.1]:${port} ${fs.readFileSync(`${hostKey}.pub`, 'utf8').split(' ').slice(0, 2).join(' ')}\n`);
  if (process.getuid?.() === 0) fs.mkdirSync('/run/sshd', { recursive: true, mode: 0o755 });
  const env = Object.entries(options.env ?? {}).map(([name, value]) => `${name}=${value}`);
  const config = path.join(dir, 'sshd_config');
  fs.writeFileSync(
    config,
    [
      `ListenAddress 127.0.0.1:${port}`,
      `HostKey ${hostKey}`,
      'PidFile none',
      'UsePAM no',
      'PasswordAuthentication no',
      'KbdInteractiveAuthentication no',
      'PubkeyAuthentication yes',
      `AuthorizedKeysFile ${authorized}`,
      'StrictModes no',
      `AllowUsers ${user.name}`,
      `AllowTcpForwarding ${options.forwarding === false ? 'no' : 'yes'}`,
      'PrintMotd no',
      'PrintLastLog no',
      'LogLevel VERBOSE',
      ...(options.loginShell ? [`ForceCommand exec ${options.loginShell} -c "$SSH_ORIGINAL_COMMAND"`] : []),
      ...(env.length > 0 ? [`SetEnv ${env.map((e) => `"${e}"`).join(' ')}`] : []),
      '',
    ].join('\n'),
  );
  const logFile = path.join(dir, 'sshd.log');
  const server: ChildProcess = spawn(SSHD!, ['-D', '-f', config, '-E', logFile], { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()));
  await waitForPort(port, server);
  const clientOptions = ['-p', String(port), '-i', key, '-o', 'IdentitiesOnly=yes', '-o', `UserKnownHostsFile=${known}`, '-o', 'StrictHostKeyChecking=yes', '-o', 'BatchMode=yes', '-F', '/dev/null'];
  return {
    port,
    user,
    clientOptions,
    destination: `${user.name}@127.0.0.1`,
    log: () => (fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8') : ''),
    sessionPids: () => descendantsOf(server.pid!),
    async close() {
      // Connections still open have their own server processes, children of the listener: end them too.
      const sessions = server.exitCode === null ? descendantsOf(server.pid!) : [];
      if (server.exitCode === null) server.kill('SIGTERM');
      await exited;
      for (const pid of sessions) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // gone already
        }
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

async function waitForPort(port: number, server: ChildProcess): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`sshd exited with ${server.exitCode} before listening`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect({ host: '127.0.0.1', port });
      socket.once('connect', () => (socket.destroy(), resolve(true)));
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`sshd did not listen on ${port} within 10 s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Every process below `pid`. */
function descendantsOf(pid: number): number[] {
  const found: number[] = [];
  for (let queue = [pid]; queue.length > 0; ) {
    const children = childrenOf(queue.shift()!);
    found.push(...children);
    queue.push(...children);
  }
  return found;
}

/** Direct children of `pid` (from /proc). */
function childrenOf(pid: number): number[] {
  const found: number[] = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) found.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}
