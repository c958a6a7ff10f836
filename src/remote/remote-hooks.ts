/**
 * Claude Code's hooks from another machine, over the tile's own ssh connection (`--remote-hooks`).
 *
 * The tile's ssh is made the master of its connection (a control socket in the tile's private
 * folder). Once the user is logged in — host key and password prompts are answered in the tile,
 * never by belltower — three requests go over that same connection:
 *
 *   1. a reverse forward from a port on the remote loopback to the hook server (ssh picks the port);
 *   2. PREPARE: sweep the folders of tiles that are gone, make this tile's private folder;
 *   3. `claude --version` (which hook events it takes), then WRITE: the settings file, the relay and
 *      its curl config go down a pipe into that folder (0600 in 0700).
 *
 * The tile's own session runs BOOT, which waits for the folder, starts the agent with
 * `--settings <folder>/settings.json`, and removes the folder when the agent ends or the connection
 * drops. The token is in those files and on the pipe only: never in a remote process's argv or
 * environment. The transcript stays on the remote machine and is not read.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { mergeClaudeSettings, ourClaudeHooksFor } from '../agents/claude-settings.js';
import { parseVersion } from '../agents/agent-version.js';
import { relayCurlConfig, relayScript } from '../agents/relay-script.js';
import { withTileHooks } from '../agents/tile-hooks.js';
import type { TileHooks } from '../agents/tile-hooks.js';
import type { Logger } from '../platform/logger.js';
import type { HookListener, HookServer } from '../sources/hooks/hook-server.js';
import { socketPathLimit } from '../platform/state-dir.js';
import { BOOT, PREPARE, WRITE, remoteSh, writePayload } from './remote-scripts.js';
import { remoteWord } from './ssh-command.js';
import type { SshCommand } from './ssh-command.js';

/** ssh binds the control socket under a temporary name 17 characters longer, which must fit too. */
const CONTROL_PATH_ROOM = 17;
/** Each request over the connection gives up after this. */
const REQUEST_TIMEOUT_MS = 20_000;
/** How often to look for the control socket while the user logs in. */
const POLL_MS = 100;
/** What a request may print before it is cut off. */
const MAX_OUTPUT = 64 * 1024;

export type RemoteHooksState = { kind: 'connecting' } | { kind: 'on'; port: number } | { kind: 'off'; why: string };

export interface RemoteHooksOptions {
  ssh: SshCommand;
  /** The ssh program the tile runs. */
  sshFile: string;
  env: Record<string, string | undefined>;
  server: HookServer;
  /** Parent of the tile's private folder (belltowerDirs().runtime). */
  runtimeDir: string;
  tileKey: string;
  onHook: HookListener;
  logger: Logger;
  /** The state changed (for `why`). */
  onState?: (state: RemoteHooksState) => void;
}

export class RemoteHooks {
  private readonly hooks: TileHooks & { dispose(): void };
  private readonly control: string;
  private readonly id: string;
  private head = 'claude';
  private timer: NodeJS.Timeout | undefined;
  private readonly running = new Set<ChildProcess>();
  private disposed = false;
  private current: RemoteHooksState = { kind: 'connecting' };

  /** Throws RemoteHooksUnavailable when the tile cannot have them (it then runs without). */
  constructor(private readonly options: RemoteHooksOptions) {
    this.hooks = withTileHooks({ stateDir: options.runtimeDir, server: options.server, tileKey: options.tileKey, onHook: options.onHook }, (tile) => tile);
    this.control = path.join(this.hooks.folder.dir, 'ssh');
    if (Buffer.byteLength(this.control) + CONTROL_PATH_ROOM > socketPathLimit(process.platform)) {
      this.hooks.dispose();
      throw new RemoteHooksUnavailable(`the control socket path ${this.control} is too long for ssh (set XDG_RUNTIME_DIR or BELLTOWER_STATE_DIR to a shorter folder)`);
    }
    this.id = `${options.tileKey}-${randomBytes(4).toString('hex')}`;
  }

  get state(): RemoteHooksState {
    return this.current;
  }

  /** ssh options that make the tile's ssh the master of its connection. */
  get sshOptions(): string[] {
    return ['-o', 'ControlMaster=yes', '-o', `ControlPath=${this.control}`, '-o', 'ControlPersist=no'];
  }

  /** The remote command: BOOT around the agent's program (`head`) and its arguments (`tail`). */
  readonly wrap = (head: string, tail: string): string => {
    this.head = head;
    return remoteSh(BOOT, [this.id, head, tail]);
  };

  /** Starts watching for the login to finish; the setup follows on its own. */
  start(): void {
    if (this.disposed || this.timer) return;
    this.timer = setInterval(() => {
      if (!fs.existsSync(this.control)) return;
      clearInterval(this.timer);
      this.timer = undefined;
      void this.setUp();
    }, POLL_MS);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    if (this.timer) clearInterval(this.timer);
    for (const child of this.running) child.kill('SIGKILL');
    this.running.clear();
    this.hooks.dispose();
  }

  private set(state: RemoteHooksState): void {
    this.current = state;
    this.options.onState?.(state);
  }

  private async setUp(): Promise<void> {
    const log = this.options.logger;
    const hookUrl = new URL(this.hooks.registration.url);
    let dir: string | undefined;
    try {
      const [forward, prepared, version] = await Promise.all([
        this.request(['-O', 'forward', '-R', `127.0.0.1:0:127.0.0.1:${hookUrl.port}`]),
        this.request([], remoteSh(PREPARE, [this.id])),
        this.request([], `${this.head} --version`),
      ]);
      const found = /^BELLTOWER-DIR (\/.+)$/m.exec(prepared.stdout);
      dir = found?.[1];
      if (!dir) throw new Error(/^BELLTOWER-ERROR (.+)$/m.exec(prepared.stdout)?.[1] ?? `the remote folder could not be made (${failure(prepared)})`);
      const port = Number(forward.stdout.trim());
      if (forward.code !== 0 || !Number.isInteger(port) || port <= 0) throw new Error(`the remote host refused to forward a port (${failure(forward)}): is AllowTcpForwarding off?`);
      const agentVersion = version.code === 0 ? parseVersion(version.stdout) : undefined;
      const files = this.claudeFiles(dir, port, hookUrl.pathname, agentVersion);
      const written = await this.request([], remoteSh(WRITE, [dir]), writePayload(files));
      if (!written.stdout.includes('BELLTOWER-READY')) throw new Error(`the files could not be written to ${dir} (${failure(written)})`);
      log('info', `remote hooks on: ${this.options.ssh.host} port ${port} → hook server, folder ${dir}`, { version: agentVersion });
      this.set({ kind: 'on', port });
    } catch (error) {
      if (this.disposed) return;
      const why = (error as Error).message;
      log('warn', `remote hooks off for ${this.options.ssh.host}: ${why}`);
      this.set({ kind: 'off', why });
      // Let the agent start at once, without hooks, rather than after BOOT's wait.
      if (dir) await this.request([], remoteSh(WRITE, [dir]), writePayload({})).catch(() => undefined);
    }
  }

  /** The tile's files on the remote side: the hook server is at `port` there, under `hookPath`. */
  private claudeFiles(dir: string, port: number, hookPath: string, version: string | undefined): Record<string, string> {
    const { registration } = this.hooks;
    const url = `http://127.0.0.1:${port}${hookPath}`;
    const relay = `${dir}/relay.sh`;
    const hooks = ourClaudeHooksFor(version, { url, token: registration.token, relayCommand: `sh ${remoteWord(relay)}` });
    return {
      'settings.json': `${JSON.stringify(mergeClaudeSettings(undefined, hooks), null, 2)}\n`,
      'relay.sh': relayScript({ port, path: hookPath, token: registration.token, curlConfigPath: `${dir}/relay.curlrc` }),
      'relay.curlrc': relayCurlConfig(registration.token),
      args: `--settings ${remoteWord(`${dir}/settings.json`)}`,
    };
  }

  /** One request over the tile's connection: `-O` control commands, or a remote command with `input` on its stdin. */
  private request(extra: readonly string[], command?: string, input = ''): Promise<{ code: number | null; stdout: string; stderr: string }> {
    const { ssh, sshFile, env } = this.options;
    // Only ever over the tile's connection: should the master refuse, ssh would connect anew by
    // itself — without the user's options, maybe to another server — and a failing proxy stops it.
    const args = ['-F', '/dev/null', '-o', 'BatchMode=yes', '-o', 'ControlMaster=no', '-o', 'ProxyCommand=false', '-S', this.control, ...(command === undefined ? extra : ['-T', ...extra]), ssh.destination, ...(command === undefined ? [] : [command])];
    return new Promise((resolve, reject) => {
      if (this.disposed) return reject(new Error('the tile closed'));
      const child = spawn(sshFile, args, { env: env as NodeJS.ProcessEnv, stdio: ['pipe', 'pipe', 'pipe'] });
      this.running.add(child);
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => {
        if (stdout.length < MAX_OUTPUT) stdout += chunk.toString('utf8');
      });
      child.stderr.on('data', (chunk: Buffer) => {
        if (stderr.length < MAX_OUTPUT) stderr += chunk.toString('utf8');
      });
      const timer = setTimeout(() => child.kill('SIGKILL'), REQUEST_TIMEOUT_MS);
      child.once('error', (error) => {
        clearTimeout(timer);
        this.running.delete(child);
        reject(new Error(`cannot run ${sshFile}: ${error.message}`));
      });
      child.once('close', (code) => {
        clearTimeout(timer);
        this.running.delete(child);
        resolve({ code, stdout, stderr });
      });
      child.stdin.on('error', () => undefined);
      child.stdin.end(input);
    });
  }
}

export class RemoteHooksUnavailable extends Error {
  override name = 'RemoteHooksUnavailable';
}

/** What a failed request said last, or its exit status. */
function failure(result: { code: number | null; stderr: string }): string {
  return oneLine(result.stderr) || `exit ${result.code}`;
}

function oneLine(text: string): string {
  return text.trim().split('\n').filter(Boolean).at(-1)?.slice(0, 300) ?? '';
}
