/**
 * A live tile: the composition root of one agent session. It creates the session (pty, screen), the
 * agent's first-party link (hooks, transcript tail: tile-launch.ts), the pipeline (evidence →
 * derivations and engine → recording: live-pipeline.ts), the user's input (tile-input.ts) and its
 * folder's changes (tile-changes.ts); connects them so that evidence flows one way, once — every
 * source → `ingest` → derivations and engine → verdict effects → listeners — and owns their
 * lifetime and the tile's end (tile-exit.ts). An exited tile's screen stays until it is closed.
 */
import type { TileInfo } from '../control/protocol.js';
import { subscribe } from '../session/listeners.js';
import { Session } from '../session/session.js';
import type { EngineState, Verdict } from '../verdict/state.js';
import { LivePipeline, openRecording } from './live-pipeline.js';
import { exitEvidence, type TileEnd } from './tile-end.js';
import { TileExit } from './tile-exit.js';
import { connectionLost, tileInfo } from './tile-info.js';
import { TileInput } from './tile-input.js';
import { prepareLaunch, type TileLaunch } from './tile-launch.js';
import { requestWatch } from './request-watch.js';
import type { TileSetup } from './tile-options.js';
import { tileChanges, type TileChanges } from './tile-changes.js';

export type { RestoredTile } from './tile-options.js';
export type { TileEnd } from './tile-end.js';

export interface TileOptions extends TileSetup {
  /** Listeners from the first verdict on (the start of a plain command is a verdict). */
  onChange?: (change: VerdictChange) => void;
  onRing?: (tile: Tile, state: string) => void;
  onInfo?: (tile: Tile) => void; // its info changed with no verdict change (its changes counted)
}

export interface VerdictChange { tile: Tile; from: Verdict['state']; verdict: Verdict }

type RingListener = (tile: Tile, state: 'done' | 'blocked' | 'failed') => void;

export class Tile {
  readonly id: number;
  private currentName: string;
  readonly spec: TileSetup['spec'];
  readonly cwd: string;
  readonly worktree: TileSetup['worktree']; // the git worktree `cwd` is, if belltower made one
  readonly run: number;
  readonly profile: TileLaunch['profile'];
  readonly session: Session;
  readonly startedAt: number;
  /** The conversation was resumed (not started) at launch. */
  readonly resumed: boolean;
  readonly note: string | undefined;
  private readonly link: TileLaunch['link'];
  private readonly live: LivePipeline;
  private readonly exit: TileExit;
  private readonly input: TileInput;
  private readonly changes: TileChanges;
  private readonly clock: () => number;
  private readonly changeListeners = new Set<(change: VerdictChange) => void>();
  private readonly ringListeners = new Set<RingListener>();
  private finished = false;
  /** Shows the screen from before belltower restarted, and nothing of its program yet. */
  private showingRestored: boolean;

  constructor(options: TileOptions) {
    this.id = options.id;
    this.currentName = options.name ?? options.spec.name;
    this.spec = options.spec;
    this.cwd = options.cwd;
    this.worktree = options.worktree;
    this.run = options.run ?? 1;
    this.clock = options.now ?? Date.now;
    this.startedAt = this.clock();
    if (options.onChange) this.changeListeners.add(options.onChange);
    if (options.onRing) this.ringListeners.add(options.onRing);
    const { restored } = options;
    const finished = restored?.finished;
    this.note = restored?.note;
    this.showingRestored = restored?.screen !== undefined && restored.screen !== '';
    const launch = prepareLaunch(options, (evidence) => this.live.ingest(evidence));
    const { profile, link } = launch;
    this.profile = profile;
    this.link = link;
    this.resumed = launch.resumed;
    const hooksOn = link.injection !== null;
    const recorder = openRecording(options, { profile, startedAt: this.startedAt, name: this.name, answerPsp: launch.answerPsp, hooksOn });
    const session = (this.session = finished ? Session.finished(launch.session, finished) : Session.start(launch.session));
    link.started(session.screen, session.pid);
    this.changes = tileChanges(options, finished !== undefined, () => options.onInfo?.(this));
    this.changeListeners.add(({ verdict }) => (this.changes.verdict(verdict.state), link.verdict(verdict.state)));
    const watchRequest = requestWatch(() => (this.verdict.state === 'blocked' ? this.info().request?.id : undefined), () => options.onInfo?.(this));
    this.live = new LivePipeline({
      ...(options.now ? {} : { epoch: this.startedAt }), // an injected clock has no wall-clock zero
      setup: options,
      profile,
      session,
      recorder,
      hooksOn,
      showingRestored: this.showingRestored,
      conversation: { id: launch.conversationId, used: launch.resumed },
      t: () => this.t(),
      onOutput: () => void (this.showingRestored = false),
      onParsed: () => (link.chunkParsed(), watchRequest()),
      onEffect: (effect) => {
        if (effect.type === 'ring') for (const listener of this.ringListeners) listener(this, effect.state);
        else for (const listener of this.changeListeners) listener({ tile: this, from: effect.from, verdict: effect.verdict });
      },
      onProblem: (problem) => options.logger('warn', `tile ${this.id}: ${problem}`),
    });
    const exit = (this.exit = new TileExit({
      session,
      marker: `BELLTOWER_TILE=${launch.tileKey}`,
      endTiming: options.endTiming,
      logger: options.logger,
      label: `tile ${this.id}`,
      reported: (end) => this.live.ingest(exitEvidence(end)),
      exited: () => this.finish(),
      dispose: () => this.dispose(),
    }));
    this.input = new TileInput({ session, slashCommands: profile.slashCommands, pasteLines: profile.promptBox, exited: () => exit.hasExited, ingest: (evidence) => this.live.ingest(evidence), now: this.clock });
    link.followKnown(this.resumed);
    // Nothing runs: the tile is what it was when its process ended.
    if (finished) exit.endedBefore(finished);
    // A child that could not even be forked has no start to report: its exit says why. (Its output
    // cannot arrive before this: it is read asynchronously.)
    if (finished || session.pid === undefined) return;
    this.live.ingest({ type: 'spawn' });
    if (profile.name === 'shell' && !options.spec.remote) this.live.watchForeground(session.pid, () => exit.hasExited);
  }

  get name(): string {
    return this.currentName;
  }

  /** A new name for the tile (the recording keeps the name it started with). */
  rename(name: string): void {
    this.currentName = name;
  }

  /** The agent's conversation id, as given at launch or as it last reported it. */
  get conversation(): string | null {
    return this.live.derived.conversation.id;
  }

  /** The conversation a restore resumes: null until it holds something (no prompt, no conversation). */
  get conversationToResume(): string | null {
    const { conversation } = this.live.derived;
    return conversation.used ? conversation.id : null;
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
    return this.live.state.verdict;
  }

  get engine(): EngineState {
    return this.live.state;
  }

  /** The exit has been reported (the process ended, or never started). */
  get hasExited(): boolean {
    return this.exit.hasExited;
  }

  /** How the tile's process ended, once reported. */
  get ended(): TileEnd | undefined {
    return this.exit.ended;
  }

  whenExited(): Promise<void> {
    return this.exit.whenExited();
  }

  /** A remote tile whose ssh ended with 255: the connection failed or dropped (not the agent). */
  get connectionLost(): boolean {
    return connectionLost(this.spec.remote !== undefined, this.ended);
  }

  /** The folder the shell last reported (OSC 7), if it did. */
  get folder(): string | null {
    return this.live.derived.folder.folder;
  }

  info(): TileInfo {
    const { id, name, profile, spec, cwd, worktree, note, showingRestored, live, link, exit, input } = this;
    return tileInfo({ id, name, profile, spec, cwd, worktree, t: this.t(), note, showingRestored, live, link, exit, input, screen: this.session.screen, changes: this.changes.summary });
  }

  onChange(listener: (change: VerdictChange) => void): () => void {
    return subscribe(this.changeListeners, listener);
  }

  onRing(listener: RingListener): () => void {
    this.ringListeners.add(listener);
    return () => this.ringListeners.delete(listener);
  }

  /** Type into the agent; with `enter`, submit the box (tile-input.ts). */
  send(text: string, enter: boolean): void {
    this.input.send(text, enter);
  }

  /** Keystrokes for the agent, as typed (not a prompt by themselves: Enter is `submitted`). */
  type(data: string): void {
    this.input.type(data);
  }

  /** The user pressed Enter on a line in the tile: a prompt (`local` for a slash command). */
  submitted(local: boolean): void {
    this.input.submitted(local);
  }

  /** The user looked at the tile: an unseen done becomes idle. */
  seen(): void {
    this.input.seen();
  }

  resize(cols: number, rows: number): void {
    this.input.resize(cols, rows);
  }

  /** End every process of the tile's session, report the exit, free the tile (tile-exit.ts). Idempotent. */
  stop(): Promise<void> {
    return this.exit.stop();
  }

  /** Free the screen and everything else; no exit is reported after this. */
  dispose(): void {
    this.finish();
    this.changes.dispose();
    // The recording stays open after the exit (the user seeing a finished command is still news)
    // and ends here, with its end line: belltower finished writing it.
    this.live.finish();
    this.session.dispose();
  }

  private finish(): void {
    if (this.finished) return;
    this.finished = true;
    this.live.stop();
    this.link.dispose();
  }
}
