/**
 * A live tile: owns one agent session (pty + screen), its hook registration and transcript tail,
 * its recording, and the wake-up timer of its verdict pipeline. Everything the agent says flows
 * one way: evidence → pipeline → verdict effects → listeners.
 *
 * Its exit is reported once, when belltower knows how it ended: when the child exits by itself,
 * with the processes of its session still running; when belltower ends it (close, quit, a signal),
 * only after every process of its session is gone. An exited tile's screen stays readable until
 * the tile is closed or restarted.
 */
import { ForegroundWatch } from './foreground-watch.js';
import { argsForResume, conversationArgs, freshConversation, reportedConversation, reportedWhenUsed } from '../agents/conversation.js';
import type { Conversation } from '../agents/conversation.js';
import type { LaunchSpec } from '../agents/launch-spec.js';
import type { AgentProfile, TranscriptTarget } from '../agents/profile.js';
import { profileFor } from '../agents/registry.js';
import type { TileInfo } from '../control/protocol.js';
import type { Logger } from '../platform/logger.js';
import { listProcesses, sessionMembers } from '../platform/processes.js';
import { shellKind, shellLaunch } from '../agents/shell-integration.js';
import { DEFAULT_END_TIMING, endSession, waitUntil } from '../session/end-session.js';
import type { EndTiming } from '../session/end-session.js';
import type { ExitInfo } from '../session/pty-session.js';
import { parseFolder, FOLDER_OSC_CODE } from '../sources/shell.js';
import type { Evidence } from '../record/format.js';
import { recordedForm } from '../record/recorded-form.js';
import { Recorder } from '../record/recorder.js';
import { RemoteHooks, RemoteHooksUnavailable, takesRemoteHooks } from '../remote/remote-hooks.js';
import { sshArgv } from '../remote/remote-launch.js';
import { RowWatcher } from '../session/row-watcher.js';
import { Session } from '../session/session.js';
import type { SessionOptions } from '../session/session.js';
import type { HookServer } from '../sources/hooks/hook-server.js';
import { TranscriptTail } from '../sources/transcript/tail.js';
import { CODEX_NOTIFY_EVENT } from '../agents/codex-injection.js';
import type { Effect } from '../verdict/effects.js';
import type { EngineState, RestoredVerdict, Verdict } from '../verdict/state.js';
import { MAX_DURATION_MS } from '../verdict/duration.js';
import { remoteNotFound, sshConnectionLost } from '../verdict/signals.js';
import type { Timing } from '../verdict/timing.js';
import { inject, InjectionUnavailable, injects } from './agent-injection.js';
import type { Injection } from './agent-injection.js';
import { agentWords } from './agent-words.js';
import { pendingRequest } from './pending-request.js';
import type { PendingRequest } from './pending-request.js';
import { readFacts } from '../sources/transcript/session-facts.js';
import type { SessionFacts } from '../sources/transcript/session-facts.js';
import type { WordsFor } from './agent-words.js';
import { createBannerReader } from './banner-reader.js';
import { createLoginReader } from './login-reader.js';
import { exitEvidence, leftovers } from './tile-end.js';
import type { TileEnd } from './tile-end.js';
import { echoed, isSlashCommand, promptInput } from './prompt-box.js';
import { TilePipeline } from './tile-pipeline.js';

export interface TileOptions {
  id: number;
  spec: LaunchSpec;
  name?: string;
  cwd: string;
  env: Record<string, string | undefined>;
  cols: number;
  rows: number;
  timing: Timing;
  /** Answer the OSC 7501 query (default: the profile's choice). */
  answerPsp?: boolean;
  /** Inject belltower's hooks where the agent has them (default true). */
  hooks?: boolean;
  /** The agent's `--version`, when known: what is injected may depend on it. */
  agentVersion?: string | undefined;
  hookServer?: HookServer;
  /** Parent folder of per-tile private folders (hook settings, relay). */
  runtimeDir: string;
  /** Write a recording here (a file path), with pty output when captureOutput. */
  recordPath?: string;
  captureOutput?: boolean;
  /** Record the agents' text as received (prompts, replies, titles, messages): off by default. */
  recordText?: boolean;
  logger: Logger;
  /** Lines of output kept above the screen (default: the screen's). */
  scrollback?: number;
  /** The tile's clock: milliseconds since an epoch (Date.now by default). */
  now?: () => number;
  /** How long ending the tile's processes waits at each step (default DEFAULT_END_TIMING). */
  endTiming?: EndTiming;
  /** Which run of this tile this is (1 for the first; a restart counts up): keeps its hook key,
   * its recording and its process marker apart from the earlier runs'. */
  run?: number;
  /** Listeners from the first verdict on (the start of a plain command is a verdict). */
  onChange?: (change: VerdictChange) => void;
  onRing?: (tile: Tile, state: string) => void;
  /** The agent's conversation to start or resume (default: a fresh one, where the agent takes an
   * id from belltower; null: none). */
  conversation?: Conversation | null;
  /** What the tile showed before belltower restarted. */
  restored?: RestoredTile;
  /** A remote Claude gets belltower's hooks over its ssh connection (`--remote-hooks`). */
  remoteHooks?: boolean;
}

/** A tile brought back after belltower restarted (src/restore/). */
export interface RestoredTile {
  /** Its last screen (Screen.snapshot), drawn before its program's first byte. */
  screen?: string;
  /** An unseen done or failed turn, or how a finished process ended: shown without a ring. */
  verdict?: RestoredVerdict;
  /** Its process had ended: the tile shows its last screen and how it ended, and runs nothing
   * (restarting it runs it again). */
  finished?: TileEnd;
  /** belltower's own word about the restore ("could not resume the conversation: …"). */
  note?: string;
}

export type { TileEnd } from './tile-end.js';
/** How long a submit waits for the box to show what was typed before pressing Enter anyway. */
const ECHO_WAIT_MS = 1_000;

export interface VerdictChange {
  tile: Tile;
  from: Verdict['state'];
  verdict: Verdict;
}

export class Tile {
  readonly id: number;
  private currentName: string;
  readonly spec: LaunchSpec;
  readonly cwd: string;
  readonly run: number;
  readonly profile: AgentProfile;
  readonly session: Session;
  readonly startedAt: number;
  /** The marker in the child's environment (BELLTOWER_TILE=…): processes that leave the tile's
   * session still carry it. */
  private readonly marker: string;
  private readonly pipeline: TilePipeline;
  private readonly recorder: Recorder | null;
  private readonly injection: Injection | null;
  /** A remote tile's hooks over its ssh connection, when asked for. */
  private readonly remoteHooks: RemoteHooks | null = null;
  /** What the tile could not set up and how it copes (no hooks injected, a hook the agent refused). */
  private notice: string | undefined;
  /** Looks at the screen for a sign that the agent refused what was injected, until the agent reports. */
  private screenCheck: (() => void) | undefined;
  private tail: TranscriptTail | null = null;
  private readonly clock: () => number;
  private readonly changeListeners = new Set<(change: VerdictChange) => void>();
  private readonly ringListeners = new Set<(tile: Tile, state: 'done' | 'blocked' | 'failed') => void>();
  private wakeTimer: NodeJS.Timeout | undefined;
  private exited = false;
  private finished = false;
  /** The agent's latest words per state it explains, from the current turn only. */
  private words: Partial<Record<WordsFor, string>> = {};
  /** Model, context and tokens, from the agent's own log. */
  private facts: SessionFacts = {};
  private end: TileEnd | undefined;
  private closing = false;
  private stopping: Promise<void> | undefined;
  /** The report of an exit the child made by itself, while it is being made. */
  private leaderEnded: Promise<void> | undefined;
  private currentFolder: string | null = null;
  /** Where a remote agent runs, as its hooks report it (their payload's `cwd`). */
  private remoteCwd: string | null = null;
  private foreground: ForegroundWatch | null = null;
  /** Lines sent with Enter whose Enter is not pressed yet (it waits for the box to show them). */
  private unpressed = 0;
  private readonly exitWaiters: (() => void)[] = [];
  /** The agent's conversation id as last known (given at launch, or reported by the agent). */
  private conversationId: string | null;
  /** Shows the screen from before belltower restarted, and nothing of its program yet. */
  private showingRestored: boolean;
  /** The conversation was resumed (not started) at launch. */
  readonly resumed: boolean;
  /** The conversation has something to resume: it was resumed, or a prompt went into it. */
  private conversationUsed: boolean;
  readonly note: string | undefined;

  constructor(private readonly options: TileOptions) {
    this.id = options.id;
    this.currentName = options.name ?? options.spec.name;
    this.spec = options.spec;
    this.cwd = options.cwd;
    this.run = options.run ?? 1;
    this.profile = profileFor(options.spec.agent);
    this.clock = options.now ?? Date.now;
    this.startedAt = this.clock();
    if (options.onChange) this.changeListeners.add(options.onChange);
    if (options.onRing) this.ringListeners.add(options.onRing);
    const log = options.logger;
    const tileKey = `tile-${process.pid}-${options.id}${this.run > 1 ? `-${this.run}` : ''}`;
    this.marker = `BELLTOWER_TILE=${tileKey}`;

    const restored = options.restored;
    const finished = restored?.finished;
    this.note = restored?.note;
    this.showingRestored = restored?.screen !== undefined && restored.screen !== '';
    const conversation = finished ? null : options.conversation === undefined ? freshConversation(this.profile.name) : options.conversation;
    this.conversationId = conversation?.id ?? null;
    this.resumed = conversation?.resume === true;
    this.conversationUsed = this.resumed;
    // A resumed agent must not be handed its first prompt again (`claude "fix the tests"`).
    const remote = options.spec.remote;
    let args = this.resumed && !remote ? argsForResume(this.profile.name, options.spec.args) : options.spec.args;
    let env: Record<string, string | undefined> = { ...options.env, BELLTOWER_TILE: tileKey };
    if (this.profile.name === 'shell' && !remote) {
      const kind = shellKind(options.spec.file);
      if (kind) {
        const launch = shellLaunch(kind, env);
        args = [...launch.args, ...args];
        env = { ...env, ...launch.env };
      } else {
        log('warn', `tile ${this.id}: no shell integration for ${options.spec.file} (belltower has it for bash, zsh and fish): its state comes from OSC 133 marks if the shell prints them`);
      }
    }
    let injection: Injection | null = null;
    if (!remote && !finished && options.hooks !== false && injects(this.profile.name) && options.hookServer) {
      injection = this.tryInject({
        agent: this.profile.name,
        server: options.hookServer,
        runtimeDir: options.runtimeDir,
        tileKey,
        cwd: options.cwd,
        env,
        version: options.agentVersion,
        conversation,
        onHook: (_key, event, payload) => this.hook(event, payload),
      });
      if (injection) env = { ...env, ...injection.env };
    }
    if (remote) {
      // The agent's own additions go into the remote command, after its program word.
      const additions = {
        inserted: conversationArgs(this.profile.name, conversation),
        ...(this.resumed && remote.program ? { args: argsForResume(this.profile.name, remote.program.args) } : {}),
      };
      this.remoteHooks = finished ? null : this.tryRemoteHooks(tileKey);
      args = sshArgv(remote, this.remoteHooks ? { ...additions, sshOptions: this.remoteHooks.sshOptions, wrap: this.remoteHooks.wrap } : additions);
    } else {
      args = [...(injection?.args ?? []), ...(injection?.startsConversation ? [] : conversationArgs(this.profile.name, conversation)), ...args];
    }
    this.injection = injection;
    // Claim hooks only where they were injected: the quiet latch waits for a hook prompt otherwise.
    const hooksOn = injection !== null;

    const answerPsp = options.answerPsp ?? this.profile.answerPsp;
    this.recorder = options.recordPath && !finished
      ? new Recorder(
          options.recordPath,
          {
            agent: this.profile.name,
            cols: options.cols,
            rows: options.rows,
            ...(options.agentVersion ? { agentVersion: options.agentVersion } : {}),
            startedAt: new Date(this.startedAt).toISOString(),
            timing: { ...options.timing },
            name: this.name,
            psp: answerPsp,
            hooks: hooksOn,
            ...(remote ? { remote: remote.host } : {}),
            ...(options.recordText ? { text: true } : {}),
            ...(restored?.verdict ? { restored: restored.verdict } : {}),
          },
          { captureOutput: options.captureOutput ?? false },
        )
      : null;

    const sessionOptions: SessionOptions = {
      file: options.spec.file,
      args,
      cwd: options.cwd,
      env,
      cols: options.cols,
      rows: options.rows,
      answerPspQuery: answerPsp,
      ...(options.scrollback !== undefined ? { scrollback: options.scrollback } : {}),
      logger: (level, message, data) => log(level, `tile ${this.id}: ${message}`, data),
      ...(restored?.screen ? { restore: restored.screen } : {}),
    };
    this.session = finished ? Session.finished(sessionOptions, finished) : Session.start(sessionOptions);
    if (this.session.pid !== undefined) this.remoteHooks?.start();
    const readBanners = this.profile.banner ? createBannerReader(this.session.screen) : () => [];
    // The old screen's banners are history: the reader takes them as seen before the program speaks.
    if (this.showingRestored) void this.session.restored.then(() => readBanners());
    this.pipeline = new TilePipeline({
      profile: this.profile,
      timing: options.timing,
      ...(restored?.verdict ? { restored: restored.verdict } : {}),
      promptsFromHooks: this.profile.promptsFromHooks && hooksOn,
      remote: remote !== undefined,
      recorder: this.recorder,
      ...(this.recorder && !options.recordText ? { recordedForm: recordedForm(this.profile, { rawOsc: options.captureOutput ?? false }) } : {}),
      readBanners,
      ...(remote ? { readLogin: createLoginReader(this.session.screen) } : {}),
      onEffects: (effects) => this.effects(effects),
      onProblem: (problem) => log('warn', `tile ${this.id}: ${problem}`),
    });
    this.session.onOutput((data) => {
      this.showingRestored = false;
      this.pipeline.ptyReceived(data, this.t());
    });
    this.session.onOsc((code, payload) => {
      this.listen({ type: 'osc', code, payload });
      if (code === FOLDER_OSC_CODE) this.currentFolder = parseFolder(payload) ?? this.currentFolder;
      this.pipeline.oscParsed(code, payload);
    });
    this.session.onChunkParsed(() => {
      this.pipeline.ptyParsed();
      this.screenCheck?.();
    });
    if (injection?.refusedOnScreen) this.watchForRefusal(injection.refusedOnScreen);
    this.session.onExit((info) => {
      // When belltower is ending the tile, stop() reports the exit once the session is empty.
      if (!this.closing) this.leaderEnded = this.exitedByItself(info);
    });

    // A resumed conversation's history is not news: its old turn ends would ring again.
    if (injection?.transcriptPath !== undefined) this.follow({ path: injection.transcriptPath, ...(this.resumed ? { fromStart: false } : {}) });
    if (finished) {
      // Nothing runs: the tile is what it was when its process ended.
      this.end = finished;
      this.exited = true;
      this.finish();
      return;
    }
    // A child that could not even be forked has no start to report: its exit says why. (Its output
    // cannot arrive before this: it is read asynchronously.)
    if (this.session.pid !== undefined) this.ingest({ type: 'spawn' });
    if (this.profile.name === 'shell' && !remote && this.session.pid !== undefined) this.watchForeground(this.session.pid);
  }

  /** A shell's command asleep reading the terminal waits for the user; a full screen is theirs. */
  private watchForeground(shellPid: number): void {
    const screen = this.session.screen;
    this.foreground = new ForegroundWatch({
      shellPid,
      busy: () => !this.exited && this.pipeline.state.command !== null,
      fullScreen: () => screen.activeBuffer === 'alternate',
      onChange: (reading, fullScreen) => this.ingest({ type: 'foreground', reading, fullScreen }),
    });
  }

  /** The agent's conversation id, as given at launch or as it last reported it. */
  get conversation(): string | null {
    return this.conversationId;
  }

  /** The conversation a restore resumes: null until it holds something (a conversation with no
   * prompt yet does not exist for the agent, and its resume would fail). */
  get conversationToResume(): string | null {
    return this.conversationUsed ? this.conversationId : null;
  }

  /** The tile shows its screen from before belltower restarted: its program has not drawn yet. */
  get showsRestoredScreen(): boolean {
    return this.showingRestored;
  }

  /** Milliseconds since the tile started: the clock of its recording and its verdicts. */
  t(): number {
    return Math.max(0, Math.round(this.clock() - this.startedAt));
  }

  get verdict(): Verdict {
    return this.pipeline.state.verdict;
  }

  get engine(): EngineState {
    return this.pipeline.state;
  }

  /** The exit has been reported (the process ended, or never started). */
  get hasExited(): boolean {
    return this.exited;
  }

  /** How the tile's process ended, once reported. */
  get ended(): TileEnd | undefined {
    return this.end;
  }

  /** Resolves once the exit has been reported. */
  whenExited(): Promise<void> {
    if (this.exited) return Promise.resolve();
    return new Promise((resolve) => this.exitWaiters.push(resolve));
  }

  /** A remote tile whose ssh ended with 255: the connection failed or dropped (not the agent). */
  get connectionLost(): boolean {
    return this.spec.remote !== undefined && this.end !== undefined && sshConnectionLost(this.end);
  }

  /** A remote agent or shell whose program the remote shell did not find (127). */
  private get notOnRemotePath(): boolean {
    return this.spec.remote !== undefined && !this.profile.exitIsOutcome && this.end !== undefined && remoteNotFound(this.end);
  }

  /** The folder the shell last reported (OSC 7), if it did. */
  get folder(): string | null {
    return this.currentFolder;
  }

  /** Where a remote tile runs on its host, when the remote side has said so (hooks, OSC 7). */
  private get remoteFolder(): string | null {
    return this.remoteCwd ?? this.currentFolder;
  }

  info(): TileInfo {
    const v = this.verdict;
    return {
      id: this.id,
      name: this.name,
      agent: this.profile.name,
      state: v.state,
      ...(v.kind ? { kind: v.kind } : {}),
      source: v.source,
      confidence: v.confidence,
      reason: v.reason,
      sinceMs: Math.max(0, this.t() - v.since),
      // A remote tile's folder is on the other machine: the one it reports, else none (belltower's
      // own folder, where the local ssh runs, is not the agent's: issue 28).
      ...(this.spec.remote ? (this.remoteFolder ? { cwd: this.remoteFolder } : {}) : { cwd: this.options.cwd }),
      ...(v.state === 'done' || v.state === 'blocked' || v.state === 'failed' ? (this.words[v.state] ? { says: this.words[v.state] } : {}) : {}),
      ...(v.state === 'blocked' ? { request: this.pendingRequest(v.since, v.kind) } : {}),
      ...(this.end ? { exit: { code: this.end.code, signal: this.end.signal, ...(this.end.error ? { error: this.end.error } : {}), closed: this.end.closed } } : {}),
      ...(this.currentFolder ? { folder: this.currentFolder } : {}),
      ...(this.facts.model || this.facts.contextTokens !== undefined ? { facts: publicFacts(this.facts) } : {}),
      ...(this.notice ? { notice: this.notice } : {}),
      ...(this.showingRestored ? { restored: true } : {}),
      ...(this.note ? { note: this.note } : {}),
      ...(this.unpressed > 0 || this.pipeline.promptUnanswered ? { inputPending: true as const } : {}),
      ...(this.spec.remote
        ? { remote: { host: this.spec.remote.host, hooks: this.remoteHooksState(), ...(this.connectionLost ? { lost: true as const } : {}), ...(this.notOnRemotePath ? { notFound: true as const } : {}) } }
        : {}),
    };
  }

  /** What it asks now: the agent's words and the dialog drawn on its screen. */
  private pendingRequest(since: number, kind: string | undefined): PendingRequest {
    const screen = this.session.screen;
    const rows = Array.from({ length: screen.rows }, (_, y) => screen.rowText(y));
    return pendingRequest(this.id, since, this.words.blocked, rows, kind);
  }

  onChange(listener: (change: VerdictChange) => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  onRing(listener: (tile: Tile, state: 'done' | 'blocked' | 'failed') => void): () => void {
    this.ringListeners.add(listener);
    return () => this.ringListeners.delete(listener);
  }

  /**
   * Type into the agent. With `enter`, the box is submitted: that is a prompt (never recorded), a
   * slash command when the box — read from the screen, not what was sent last — starts with `/`.
   */
  send(text: string, enter: boolean): void {
    if (this.exited) return;
    if (text.length > 0) this.session.write(text);
    if (!enter) return;
    // Until its Enter is pressed, what the tile shows is from before this line (`inputPending`).
    this.unpressed += 1;
    const started = this.clock();
    const press = () => {
      if (this.exited) return void (this.unpressed -= 1);
      const input = this.promptInput();
      // Wait (a little) for the box to show the text: only then does it say what will be sent.
      if (!echoed(input, text) && this.clock() - started < ECHO_WAIT_MS) return void setTimeout(press, 25);
      this.session.write('\r');
      this.ingest(this.profile.slashCommands && isSlashCommand(input, text) ? { type: 'prompt', local: true } : { type: 'prompt' });
      this.unpressed -= 1;
    };
    // TUIs treat a burst ending in CR as a paste; the Enter goes separately, after the text.
    setTimeout(press, text.length > 0 ? 150 : 0);
  }

  /** The agent's prompt box as the screen shows it (the cursor's row). */
  private promptInput(): string | undefined {
    const screen = this.session.screen;
    const { x, y } = screen.cursor;
    return promptInput(screen.rowText(y), x);
  }

  get name(): string {
    return this.currentName;
  }

  /** A new name for the tile (the recording keeps the name it started with). */
  rename(name: string): void {
    this.currentName = name;
  }

  /** Keystrokes for the agent, as typed (not a prompt by themselves: Enter is `submitted`). */
  type(data: string): void {
    if (!this.exited) this.session.write(data);
  }

  /** The user pressed Enter on a line in the tile: a prompt (`local` for a slash command). */
  submitted(local: boolean): void {
    if (!this.exited) this.ingest(local && this.profile.slashCommands ? { type: 'prompt', local: true } : { type: 'prompt' });
  }

  /** The user looked at the tile: an unseen done becomes idle. */
  seen(): void {
    this.ingest({ type: 'seen' });
  }

  resize(cols: number, rows: number): void {
    if (this.exited || (cols === this.session.screen.cols && rows === this.session.screen.rows)) return;
    this.session.resize(cols, rows);
    this.ingest({ type: 'resize', cols, rows });
  }

  /**
   * End the tile: every process of its session gets SIGHUP (as a closing terminal sends), then
   * SIGTERM, then SIGKILL, each after a grace period; once none is left the exit is reported (as
   * closed, when the child had not ended by itself) and the tile is disposed. Idempotent.
   */
  stop(): Promise<void> {
    this.stopping ??= this.end_();
    return this.stopping;
  }

  /** Free the screen and everything else; no exit is reported after this. */
  dispose(): void {
    this.finish();
    // The recording stays open after the exit (the user seeing a finished command is still news)
    // and ends here, with its end line: belltower finished writing it.
    this.pipeline.finish(this.t());
    this.recorder?.close();
    this.session.dispose();
  }

  private async end_(): Promise<void> {
    const log = this.options.logger;
    // An exit the child made by itself is reported as such, then what it left behind is ended.
    if (this.leaderEnded) await this.leaderEnded;
    if (!this.exited) this.closing = true;
    const pid = this.session.pid;
    let survivors: number[] = [];
    // Nothing queued for it can matter now, and node-pty would print EBADF retrying it later.
    this.session.dropUnreadInput();
    if (pid !== undefined) {
      const report = await endSession(pid, {
        ...(this.options.endTiming ? { timing: this.options.endTiming } : {}),
        leaderGone: this.session.exit !== undefined,
        log: (message) => log('info', `tile ${this.id}: ${message}`),
      });
      survivors = report.survivors;
      if (survivors.length > 0) log('warn', `tile ${this.id}: ${survivors.length} process(es) did not end even after SIGKILL: pid ${survivors.join(', ')}`);
    }
    if (!this.exited) {
      // The child is gone (or cannot die): node-pty reports its exit within moments.
      const info = await new Promise<ExitInfo | undefined>((resolve) => {
        const timer = setTimeout(() => resolve(undefined), 2_000);
        this.session.onExit((exit) => {
          clearTimeout(timer);
          resolve(exit);
        });
      });
      this.report(info ?? { code: null, signal: null }, true, survivors.length);
    }
    this.dispose();
  }

  private async exitedByItself(info: ExitInfo): Promise<void> {
    const pid = this.session.pid;
    if (pid !== undefined) {
      const settleMs = (this.options.endTiming ?? DEFAULT_END_TIMING).exitSettleMs;
      await waitUntil(() => sessionMembers(listProcesses() ?? [], pid).length === 0, settleMs);
    }
    this.report(info, false);
  }

  /** Report the exit once: with the processes of its session still running, and those that left it. */
  private report(info: ExitInfo, closed: boolean, survivors?: number): void {
    if (this.exited) return;
    const pid = this.session.pid;
    const left = pid === undefined ? { remaining: [], detached: [] } : leftovers(pid, this.marker);
    const remaining = survivors ?? left.remaining.length;
    const log = this.options.logger;
    if (remaining > 0 && !closed) log('info', `tile ${this.id}: the child exited; ${remaining} process(es) of its session still run`);
    if (left.detached.length > 0) {
      log('warn', `tile ${this.id}: ${left.detached.length} process(es) left the tile's session and run on (not ended by belltower): ${left.detached.map((p) => `${p.pid} ${p.name}`).join(', ')}`);
    }
    this.end = { code: info.code ?? null, signal: info.signal ?? null, ...(info.error ? { error: info.error } : {}), closed, remaining, detached: left.detached.length };
    this.ingest(exitEvidence(this.end));
    this.exited = true;
    this.finish();
    for (const waiter of this.exitWaiters.splice(0)) waiter();
  }

  /** Ended before it logged in, a tile's hooks never came: off, not still connecting. */
  private remoteHooksState(): 'connecting' | 'on' | 'off' {
    const kind = this.remoteHooks?.state.kind ?? 'off';
    return kind === 'connecting' && this.exited ? 'off' : kind;
  }

  /** A remote Claude's hooks over its ssh connection, when asked for and possible; else why not
   * is the tile's notice (it runs on OSC 7501 and its title, as without them). */
  private tryRemoteHooks(tileKey: string): RemoteHooks | null {
    const { options } = this;
    const remote = options.spec.remote;
    if (!remote || !options.remoteHooks || options.hooks === false) return null;
    const without = (why: string): null => {
      this.notice = remoteHooksOff(why);
      options.logger('warn', `tile ${this.id}: ${this.notice}`);
      return null;
    };
    if (!takesRemoteHooks(this.profile.name)) return without(`belltower has them for Claude Code only, not ${this.profile.name}`);
    if (!options.hookServer) return null;
    if (!remote.program) return without('the remote command is more than plain words, so belltower cannot start the agent itself');
    if (remote.program.args.some((arg) => /^--settings(=|$)/.test(arg))) return without('the agent has its own --settings');
    try {
      return new RemoteHooks({
        ssh: remote.ssh,
        sshFile: options.spec.file,
        env: options.env,
        server: options.hookServer,
        runtimeDir: options.runtimeDir,
        tileKey,
        onHook: (_key, event, payload) => this.hook(event, payload),
        logger: (level, message, data) => options.logger(level, `tile ${this.id}: ${message}`, data),
        onState: (state) => {
          if (state.kind === 'off') this.notice = remoteHooksOff(state.why);
        },
      });
    } catch (error) {
      if (!(error instanceof RemoteHooksUnavailable)) throw error;
      return without(error.message);
    }
  }

  private tryInject(input: Parameters<typeof inject>[0]): Injection | null {
    try {
      return inject(input);
    } catch (error) {
      if (!(error instanceof InjectionUnavailable)) throw error;
      this.options.logger('warn', `tile ${this.id}: ${error.message}`);
      this.notice = error.message;
      return null;
    }
  }

  private watchForRefusal(refused: (rows: readonly string[]) => string | undefined): void {
    const watcher = new RowWatcher(this.session.screen);
    this.screenCheck = () => {
      if (watcher.changed().length === 0) return;
      const notice = refused(watcher.rows);
      if (!notice) return;
      this.notice = notice;
      this.options.logger('warn', `tile ${this.id}: ${notice}`);
      this.screenCheck = undefined;
    };
  }

  private hook(event: string, payload: Record<string, unknown>): void {
    // The agent reports: whatever it could have refused at start-up, it is past that.
    this.screenCheck = undefined;
    if (this.spec.remote && typeof payload.cwd === 'string' && payload.cwd.startsWith('/')) this.remoteCwd = payload.cwd;
    // Codex's turn-complete program arrives through the same relay, as event "notify".
    if (event === CODEX_NOTIFY_EVENT && this.profile.notify) this.ingest({ type: 'notify', payload });
    else this.ingest({ type: 'hook', event, payload });
    const next = this.injection?.transcriptFor?.(event, payload, this.tail !== null);
    if (next) this.follow(next);
  }

  /** Follow the agent's session log: from now on, or switch to another one (a /clear, a /new). */
  private follow(target: TranscriptTarget): void {
    if (this.finished) return;
    if (this.tail) return this.tail.switchTo(target.path);
    this.tail = new TranscriptTail({
      path: target.path,
      ...(target.fromStart === false ? { fromStart: false } : {}),
      onRecord: (record, path) => this.ingest({ type: 'transcript', path, record }),
      logger: this.options.logger,
    });
  }

  private ingest(evidence: Evidence): void {
    this.listen(evidence);
    this.pipeline.ingest(evidence, this.t());
  }

  /** Keep what the agent says of its state; a new turn makes the last one's words stale. */
  private listen(evidence: Evidence): void {
    if (evidence.type === 'transcript') this.facts = readFacts(this.facts, evidence.record);
    const reported = reportedConversation(this.profile.name, evidence);
    if (reported !== null && reported !== this.conversationId) {
      // A new conversation (Claude after /clear) has nothing in it until its first prompt; a
      // Codex thread is only ever reported once it has one.
      this.conversationId = reported;
      this.conversationUsed = reportedWhenUsed(this.profile.name);
    }
    if (startsTurn(evidence)) this.conversationUsed = true;
    if (startsTurn(evidence)) this.words = {};
    const said = agentWords(evidence);
    // "Claude needs your permission" seconds after the dialog must not replace what it asks.
    const repeats = said?.reminder === true && this.verdict.state === 'blocked' && this.words.blocked !== undefined;
    if (said && !repeats) this.words = { ...this.words, [said.for]: said.text };
  }

  private effects(effects: Effect[]): void {
    for (const effect of effects) {
      if (effect.type === 'verdict') {
        // The foreground is watched only while a command runs: an idle shell wakes nothing.
        this.foreground?.sync();
        for (const listener of this.changeListeners) listener({ tile: this, from: effect.from, verdict: effect.verdict });
      } else if (effect.type === 'ring') {
        for (const listener of this.ringListeners) listener(this, effect.state);
      } else {
        this.schedule(effect.t);
      }
    }
  }

  private schedule(at: number | null): void {
    if (this.wakeTimer) clearTimeout(this.wakeTimer);
    this.wakeTimer = undefined;
    if (at === null || this.exited || this.finished) return;
    // A timer holds at most MAX_DURATION_MS; a wake-up further away re-arms until it is due.
    const delay = Math.max(0, at - this.t());
    if (delay > MAX_DURATION_MS) this.wakeTimer = setTimeout(() => this.schedule(at), MAX_DURATION_MS);
    else this.wakeTimer = setTimeout(() => this.pipeline.wake(at), delay);
  }

  private finish(): void {
    if (this.finished) return;
    this.finished = true;
    if (this.wakeTimer) clearTimeout(this.wakeTimer);
    this.foreground?.stop();
    this.tail?.close();
    this.injection?.dispose();
    this.remoteHooks?.dispose();
  }
}

function remoteHooksOff(why: string): string {
  return `no remote hooks: ${why}; status comes in-band (OSC 7501, the title)`;
}

function publicFacts(facts: SessionFacts): NonNullable<TileInfo['facts']> {
  const { counted: _counted, ...shown } = facts;
  return shown;
}

/** Evidence that a new turn began: the words of the last one no longer describe the tile. */
function startsTurn(evidence: Evidence): boolean {
  if (evidence.type === 'prompt') return true;
  if (evidence.type === 'hook') return evidence.event === 'UserPromptSubmit' || evidence.event === 'BeforeAgent';
  if (evidence.type === 'osc') return evidence.code === 7501 && /^state=working(?::|$)/.test(evidence.payload) && !/(^|:)id=/.test(evidence.payload);
  return false;
}
