/**
 * What a tile hears from its agent first-hand, set up from the agent's wiring
 * (src/agents/first-party/): the hooks injected into a local launch, or those over a remote
 * tile's ssh connection, and the transcript tail they point at. Every hook call and transcript
 * record goes out as evidence, once, to `onEvidence`; what could not be set up is the tile's
 * notice. Owns the hook registration, the remote hooks and the tail, until `dispose`.
 */
import type { Conversation } from '../agents/conversation.js';
import type { Injection } from '../agents/first-party/wiring.js';
import { InjectionUnavailable } from '../agents/first-party/wiring.js';
import type { FirstPartyWiring } from '../agents/first-party/wiring.js';
import type { TranscriptTarget } from '../agents/profile.js';
import type { Logger } from '../platform/logger.js';
import { sessionOpenFiles } from '../platform/processes.js';
import type { Evidence } from '../record/format.js';
import { RemoteHooks, RemoteHooksUnavailable } from '../remote/remote-hooks.js';
import type { RemoteLaunch } from '../remote/remote-launch.js';
import { RowWatcher } from '../session/row-watcher.js';
import type { RowSource } from '../session/row-watcher.js';
import type { HookServer } from '../sources/hooks/hook-server.js';
import { TranscriptTail } from '../sources/transcript/tail.js';

export interface LinkOptions {
  /** The agent's wiring (null: a shell or a command, which report nothing first-hand). */
  wiring: FirstPartyWiring | null;
  agent: string;
  /** The ssh side of a remote tile. */
  remote: RemoteLaunch | undefined;
  /** The ssh program a remote tile runs. */
  sshFile: string;
  /** The user's own arguments for the agent (an injection may take one in: Claude's --settings). */
  args: readonly string[];
  /** Hooks are wanted at all (`hooks: false` turns every kind off). */
  hooks: boolean;
  /** A remote tile asked for hooks over its connection (`--remote-hooks`). */
  remoteHooks: boolean;
  hookServer: HookServer | undefined;
  runtimeDir: string;
  tileKey: string;
  cwd: string;
  /** The launch's environment (what the injection reads its config folders from). */
  env: Record<string, string | undefined>;
  /** The environment belltower was given (what a remote tile's ssh runs with). */
  baseEnv: Record<string, string | undefined>;
  version: string | undefined;
  conversation: Conversation | null;
  /** The tile's logger, and the label its lines start with (`tile 3`). */
  logger: Logger;
  label: string;
  onEvidence(evidence: Evidence): void;
  /** The files a session's processes hold open (default: /proc; null where it cannot be known). */
  openFiles?: (sid: number) => string[] | null;
}

/** How often, and how many times, the open files are looked at for the session log once the tile
 * starts working: the agent makes its log at the turn's first moments (Codex: at the prompt). */
const LOG_SEARCH_EVERY_MS = 250;
const LOG_SEARCH_TRIES = 40;

export class FirstPartyLink {
  /** The local injection, when there is one: claim hooks only then (the quiet latch waits for a
   * hook prompt otherwise). */
  readonly injection: Injection | null = null;
  /** A remote tile's hooks over its ssh connection, when asked for and possible. */
  readonly remote: RemoteHooks | null = null;
  /** What could not be set up and how the tile copes (no hooks injected, a hook the agent refused). */
  notice: string | undefined;
  /** Looks at the screen for a sign that the agent refused what was injected, until the agent reports. */
  private screenCheck: (() => void) | undefined;
  private tail: TranscriptTail | null = null;
  private disposed = false;
  /** The session of the tile's program (its leader's pid), once forked. */
  private sid: number | undefined;
  private resumed = false;
  private logSearch: NodeJS.Timeout | null = null;

  constructor(private readonly options: LinkOptions) {
    if (options.remote) this.remote = this.tryRemoteHooks(options.remote);
    else if (options.hooks && options.wiring && options.hookServer) this.injection = this.tryInject(options.wiring, options.hookServer);
  }

  /** The tile's session is there (`pid`: its program was forked, leading its own session): remote
   * hooks wait for its login; the screen is watched for a refusal. */
  started(screen: RowSource, pid: number | undefined): void {
    this.sid = pid;
    if (pid !== undefined) this.remote?.start();
    const refused = this.injection?.refusedOnScreen;
    if (!refused) return;
    const watcher = new RowWatcher(screen);
    this.screenCheck = () => {
      if (watcher.changed().length === 0) return;
      const notice = refused(watcher.rows);
      if (!notice) return;
      this.warn(notice);
      this.screenCheck = undefined;
    };
  }

  /** Follow the session log known before the agent starts; a resumed conversation's history is
   * not news (its old turn ends would ring again). */
  followKnown(resumed: boolean): void {
    this.resumed = resumed;
    const path = this.injection?.transcriptPath;
    if (path !== undefined) this.follow({ path, ...(resumed ? { fromStart: false } : {}) });
  }

  /** The tile's verdict changed. A tile that starts working has started a turn: an agent that names
   * its log in no hook then (Codex before 0.171) has it open now, or within moments. */
  verdict(state: string): void {
    if (state === 'working') this.searchOpenFiles();
  }

  private searchOpenFiles(): void {
    const among = this.injection?.transcriptAmongOpenFiles;
    const sid = this.sid;
    if (!among || sid === undefined || this.logSearch || this.disposed) return;
    const openFiles = this.options.openFiles ?? sessionOpenFiles;
    let tries = 0;
    const look = (): void => {
      const paths = this.disposed ? null : openFiles(sid);
      const found = paths ? among(paths) : undefined;
      if (found) this.follow({ path: found, ...(this.resumed && !this.tail ? { fromStart: false } : {}) });
      if (found || paths === null || ++tries >= LOG_SEARCH_TRIES) this.stopSearch();
    };
    this.logSearch = setInterval(look, LOG_SEARCH_EVERY_MS);
    this.logSearch.unref();
    look();
  }

  private stopSearch(): void {
    if (this.logSearch) clearInterval(this.logSearch);
    this.logSearch = null;
  }

  /** The screen parsed a chunk. */
  chunkParsed(): void {
    this.screenCheck?.();
  }

  /** Ended before it logged in, a tile's hooks never came: off, not still connecting. */
  remoteHooksState(exited: boolean): 'connecting' | 'on' | 'off' {
    const kind = this.remote?.state.kind ?? 'off';
    return kind === 'connecting' && exited ? 'off' : kind;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.stopSearch();
    void this.tail?.close();
    this.injection?.dispose();
    this.remote?.dispose();
  }

  private hook(event: string, payload: Record<string, unknown>): void {
    // The agent reports: whatever it could have refused at start-up, it is past that.
    this.screenCheck = undefined;
    this.options.onEvidence(this.options.wiring?.evidence(event, payload) ?? { type: 'hook', event, payload });
    const next = this.injection?.transcriptFor?.(event, payload, this.tail !== null);
    if (next) this.follow(next);
  }

  /** Follow the agent's session log: from now on, or switch to another one (a /clear, a /new). */
  private follow(target: TranscriptTarget): void {
    if (this.disposed) return;
    if (this.tail) return this.tail.switchTo(target.path);
    this.tail = new TranscriptTail({
      path: target.path,
      ...(target.fromStart === false ? { fromStart: false } : {}),
      onRecord: (record, path) => this.options.onEvidence({ type: 'transcript', path, record }),
      logger: this.options.logger,
    });
  }

  private tryInject(wiring: FirstPartyWiring, server: HookServer): Injection | null {
    const { options } = this;
    try {
      return wiring.inject({
        server,
        runtimeDir: options.runtimeDir,
        tileKey: options.tileKey,
        cwd: options.cwd,
        env: options.env,
        version: options.version,
        conversation: options.conversation,
        args: options.args,
        onHook: (_key, event, payload) => this.hook(event, payload),
      });
    } catch (error) {
      if (!(error instanceof InjectionUnavailable)) throw error;
      this.warn(error.message);
      return null;
    }
  }

  /** Else why not is the tile's notice: it runs on OSC 7501 and its title, as without them. */
  private tryRemoteHooks(remote: RemoteLaunch): RemoteHooks | null {
    const { options } = this;
    if (!options.remoteHooks || !options.hooks) return null;
    const without = (why: string): null => {
      this.warn(remoteHooksOff(why));
      return null;
    };
    const make = options.wiring?.remoteHooks;
    if (!make) return without(`belltower has them for Claude Code only, not ${options.agent}`);
    if (!options.hookServer) return null;
    if (!remote.program) return without('the remote command is more than plain words, so belltower cannot start the agent itself');
    if (remote.program.args.some((arg) => /^--settings(=|$)/.test(arg))) return without('the agent has its own --settings');
    try {
      return make({
        ssh: remote.ssh,
        sshFile: options.sshFile,
        env: options.baseEnv,
        server: options.hookServer,
        runtimeDir: options.runtimeDir,
        tileKey: options.tileKey,
        onHook: (_key, event, payload) => this.hook(event, payload),
        logger: (level, message, data) => options.logger(level, `${options.label}: ${message}`, data),
        onState: (state) => {
          if (state.kind === 'off') this.notice = remoteHooksOff(state.why);
        },
      });
    } catch (error) {
      if (!(error instanceof RemoteHooksUnavailable)) throw error;
      return without(error.message);
    }
  }

  private warn(notice: string): void {
    this.notice = notice;
    this.options.logger('warn', `${this.options.label}: ${notice}`);
  }
}

function remoteHooksOff(why: string): string {
  return `no remote hooks: ${why}; status comes in-band (OSC 7501, the title)`;
}
