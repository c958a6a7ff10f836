/**
 * The verdict engine: `(state, signal, now) → (state, effects)`. Pure: no clock, no timers, no I/O.
 * The same function runs live and in replay, so a recording reproduces a verdict timeline exactly.
 *
 * Each rule below names the failure it prevents; DESIGN.md "The rules the engine must keep".
 */
import type { Effect } from './effects.js';
import * as gates from './gate.js';
import { decideHold } from './hold.js';
import type { BackgroundTask, BlockedKind, LoginPrompt, Signal, SourceName } from './signals.js';
import { confidenceOf, isFirstParty, remoteNotFound, sshConnectionLost } from './signals.js';
import { addWhy } from './why-log.js';
import type { EngineState, Hold, TileStateName, Verdict } from './state.js';

export interface Step {
  state: EngineState;
  effects: Effect[];
}

/** Signals that state what the agent is doing: any of them cancels a held verdict. */
const CLAIMS = new Set<Signal['type']>([
  'turn-start',
  'working',
  'blocked',
  'failed',
  'interrupted',
  'quiet-latch',
  'prompt',
  'command-start',
  'command-end',
  'exit',
  'session-end',
]);

/** Exit statuses a shell reports for a command the user stopped from the keyboard: 128 + SIGINT
 * (Ctrl-C) and 128 + SIGTSTP (Ctrl-Z, Linux numbering). They are right there: no bell. */
const INTERRUPTED_STATUS = 130;
const SUSPENDED_STATUS = 148;

interface Draft {
  state: EngineState;
  effects: Effect[];
  signal: Signal;
  now: number;
  notes: string[];
}

export function reduce(state: EngineState, signal: Signal, now: number): Step {
  const draft: Draft = { state, effects: [], signal, now, notes: [] };

  // Order of truth is the sequence number, never the timestamp: evidence older than what was
  // already applied is stale (a Stop that loses the race with the next prompt is not a done).
  if (signal.type !== 'wake' && signal.seq <= state.lastSeq) {
    note(draft, `ignored: stale (seq ${signal.seq} ≤ ${state.lastSeq})`);
    return finish(draft);
  }
  // Holds that matured before this signal are settled first, at the time they matured. A wake-up
  // carries no evidence: settling is all it asks for.
  settle(draft);
  if (signal.type === 'wake') return finish(draft);
  draft.state = { ...draft.state, lastSeq: signal.seq };
  const unheard = notNews(state, signal);
  if (unheard) {
    note(draft, `ignored: ${unheard}`);
    return finish(draft);
  }
  if (CLAIMS.has(signal.type)) {
    draft.state = { ...draft.state, lastClaimSeq: signal.seq };
    // A Stop after new work is a new Stop, however soon it comes: only back-to-back Stops are one.
    if (draft.state.lastStopAt !== null) draft.state = { ...draft.state, lastStopAt: null };
  }
  apply(draft);
  settle(draft);
  return finish(draft);
}

/** Evidence that arrives but is not news, and why; null when it is. */
function notNews(state: EngineState, signal: Signal): string | null {
  // An exited process says nothing more: a hook or transcript record after the exit is late. The
  // user looking at a finished command is still news: its done has been seen.
  if (state.ended && signal.type !== 'seen') return 'the process has exited';
  // With hooks, the transcript restates the prompt and each tool call tens of milliseconds after
  // the hook said it first. Taken as news, that pulled a blocked tile back to working, rang a
  // failed turn twice, and cancelled the held done of a Stop. The transcript still counts for what
  // only it says: a turn end (gated like a Stop), an interrupt, an error.
  if (signal.source === 'transcript' && state.options.promptsFromHooks && (signal.type === 'working' || signal.type === 'turn-start')) {
    // Except a queued prompt's start: its UserPromptSubmit fired when it was typed, mid-turn; only
    // the transcript says when it starts its own turn, after the end of the one it waited behind.
    if (signal.type === 'turn-start' && signal.real && state.queuedPrompts > 0 && !state.turnOpen) return null;
    return 'the hooks report work first-hand; the transcript restates it late';
  }
  // The agent itself says it waits on the user (OSC 7501, a hook, its notification): no prompt can
  // be submitted into its dialog, so a transcript prompt record now was written before the question
  // and read after it (Codex's rollout: 26 ms after OSC 7501 blocked, the tile went back to
  // working). The answer shows as the agent's own working, or the transcript's tool records.
  if (signal.source === 'transcript' && signal.type === 'turn-start' && signal.real && state.verdict.state === 'blocked' && (isFirstParty(state.verdict.source) || state.verdict.source === 'title')) {
    return 'the agent says it is blocked; a prompt record cannot answer its question (written before it, read after)';
  }
  // Order of production, not of reading: a record the agent wrote before the first-party verdict
  // the tile shows was decided, and that belltower read only after it, is older than that verdict
  // and cannot undo it (the same race as above, for any state and any claim: a turn end read after
  // the next turn's start would end that turn). Bookkeeping (child records, subagents) still counts,
  // and an interrupt still marks its turn as ended.
  const verdict = state.verdict;
  if (signal.producedAt !== undefined && OVERRIDES.has(signal.type) && signal.producedAt < verdict.since && isFirstParty(verdict.source) && verdict.source !== signal.source) {
    return `stale: written at ${signal.producedAt} ms, before the ${verdict.state} that ${verdict.source} said at ${verdict.since} ms (read after it)`;
  }
  // An interrupt ends the turn. Gemini still reports the interrupted tool's end (AfterTool) after
  // its chat file said "Request cancelled." — 0.2 s to tens of seconds later (0.55, 0.61): taken as
  // news it showed working for as long, and the next prompt counted as queued behind that turn.
  // Only a new prompt starts work again; the agent's live status (OSC 7501, its title) is not a
  // report of the old turn and still counts.
  if (state.interrupted && !state.turnOpen && signal.type === 'working' && (signal.source === 'hook' || signal.source === 'transcript')) {
    return 'the interrupted turn\'s own late report (the interrupt ended it)';
  }
  return null;
}

/** The claims a stale record may not make over a newer first-party verdict (notNews). */
const OVERRIDES = new Set<Signal['type']>(['turn-start', 'working', 'turn-end', 'at-rest', 'blocked', 'failed']);

function apply(d: Draft): void {
  const s = d.signal;
  if (isFirstParty(s.source) && !d.state.firstPartySeen) d.state = { ...d.state, firstPartySeen: true };
  // First-party evidence beats the title: a done the title alone was about to show is dropped
  // (Codex paints a spinner then its folder name at start-up, then says idle in OSC 7501).
  if (isFirstParty(s.source) && d.state.hold?.source === 'title') {
    d.state = { ...d.state, hold: null };
    note(d, 'title hold dropped: first-party evidence decides');
  }
  if (s.source === 'title') return applyTitle(d);

  switch (s.type) {
    case 'turn-start':
      return applyTurnStart(d, s.real, s.begins === true);
    case 'working':
      setFirstPartyClaim(d, 'working');
      if (s.source === 'psp') d.state = { ...d.state, screen: 'working' };
      return setVerdict(d, 'working', s.detail ?? 'working');
    case 'turn-end':
      return applyTurnEnd(d, s);
    case 'at-rest':
      return applyAtRest(d, s.detail);
    case 'blocked':
      // Claude's Notification comes seconds after the request it reminds of, in generic words
      // ("Claude needs your permission", even for a question): the request standing keeps its kind.
      if (s.reminder && d.state.verdict.state === 'blocked') return note(d, 'stays blocked: a reminder of the request that stands');
      // A blocked screen painted after a Stop wins over the done it follows (the claim cancelled it).
      setFirstPartyClaim(d, 'rest');
      if (s.source === 'psp') d.state = { ...d.state, screen: 'rest' };
      return setVerdict(d, 'blocked', s.detail ?? `needs you: ${s.kind ?? 'other'}`, { kind: s.kind ?? 'other' });
    case 'failed':
      setFirstPartyClaim(d, 'rest');
      d.state = { ...d.state, turnOpen: false, queuedPrompts: 0 };
      return setVerdict(d, 'failed', s.detail ?? 'the turn ended in an error');
    case 'interrupted':
      // The user interrupted: they are right there, so no done and no ring.
      setFirstPartyClaim(d, 'rest');
      d.state = { ...d.state, turnOpen: false, queuedPrompts: 0, interrupted: true };
      return setVerdict(d, 'idle', 'interrupted');
    case 'queue-absorbed':
      // Claude feeds a prompt typed during a tool call into the running turn: that turn's end is
      // then the end of everything that was asked.
      if (d.state.queuedPrompts > 0) d.state = { ...d.state, queuedPrompts: d.state.queuedPrompts - 1 };
      return note(d, 'the queued prompt joined the running turn');
    case 'quiet-latch':
      return applyQuietLatch(d, s.why, s.phase);
    case 'subagent-start': {
      const started = gates.startSubagent(d.state.gate, s.id, d.now, d.state.options.maxTracked);
      d.state = { ...d.state, gate: started.gate };
      note(d, `subagent ${s.id} started`);
      if (started.dropped !== undefined) note(d, `subagent ${started.dropped} expired: more than ${d.state.options.maxTracked} counted subagents`);
      return;
    }
    case 'subagent-stop':
      d.state = { ...d.state, gate: gates.stopSubagent(d.state.gate, s.id) };
      if (s.background) declare(d, s.background);
      return note(d, `subagent ${s.id} stopped`);
    case 'teammate-idle':
      d.state = { ...d.state, gate: gates.teammateIdle(d.state.gate, s.name, d.now) };
      return note(d, `teammate ${s.name} idle`);
    case 'child': {
      if (!s.open) {
        d.state = { ...d.state, gate: gates.closeChild(d.state.gate, s.id) };
        note(d, `child ${s.id} cleared`);
        return settleByAgent(d);
      }
      const opened = gates.openChild(d.state.gate, s.id, d.now, d.state.options.maxTracked);
      d.state = { ...d.state, gate: opened.gate };
      note(d, `child ${s.id} open`);
      if (opened.dropped !== undefined) note(d, `child ${opened.dropped} expired: more than ${d.state.options.maxTracked} open children`);
      return;
    }
    case 'banner':
      return applyBanner(d, s.text);
    case 'unknown':
      return note(d, 'ignored: only a title can be unknown');
    case 'prompt':
      return applyPrompt(d, s.local === true);
    case 'seen':
      if (d.state.verdict.state !== 'done') return note(d, 'seen');
      // A finished command that was seen is what it is: a process that exited.
      if (d.state.ended) return setVerdict(d, 'exited', `${d.state.verdict.reason}; seen`, d.state.verdict.exit ? { exit: d.state.verdict.exit } : {});
      return setVerdict(d, 'idle', 'seen');
    case 'command-start':
      return applyCommandStart(d, s.command);
    case 'command-end':
      return applyCommandEnd(d, s.code);
    case 'foreground':
      return applyForeground(d, s.reading, s.fullScreen);
    case 'spawned':
      // A plain command works from its first instant: nothing else will say so.
      if (d.state.options.exitIsOutcome) return setVerdict(d, 'working', 'running');
      if (d.state.options.idleAtSpawn) return setVerdict(d, 'idle', 'a remote shell: its commands show when it prints prompt marks (OSC 133)');
      return note(d, 'spawned');
    case 'exit':
      return applyExit(d, s);
    case 'login':
      return applyLogin(d, s.prompt);
    case 'session-end':
      d.state = { ...d.state, turnOpen: false, queuedPrompts: 0 };
      return setVerdict(d, 'idle', `session ended (${s.reason})`);
    case 'wake':
      return;
  }
}

function applyTurnStart(d: Draft, real: boolean, begins: boolean): void {
  const source = d.signal.source;
  if (real && isFirstParty(source)) releaseForPrompt(d);
  setFirstPartyClaim(d, 'working');
  // An agent that reports a prompt only as its turn begins (Gemini) queues nothing behind a running
  // turn: the one still open ended unreported (an Esc whose record never came), and counting this
  // prompt as queued behind it suppressed its own done.
  if (real && begins && d.state.turnOpen) note(d, 'the turn still open ended unreported: this prompt begins a turn of its own');
  if (real && !begins && source === 'hook' && d.state.turnOpen && !d.state.hold && d.state.verdict.state === 'working') {
    // Claude fires UserPromptSubmit for a prompt typed mid-turn when it is typed: it waits behind
    // the running turn. Its end is then no done (the agent goes straight on), unless the agent
    // takes the prompt into that turn. Counted from hooks only: a transcript writes the prompt
    // when its turn starts.
    d.state = { ...d.state, queuedPrompts: d.state.queuedPrompts + 1 };
    return note(d, 'prompt queued behind the running turn');
  }
  if (real && source === 'transcript' && d.state.queuedPrompts > 0 && !d.state.turnOpen) {
    d.state = { ...d.state, queuedPrompts: d.state.queuedPrompts - 1 };
    note(d, 'the queued prompt starts its turn');
  }
  if (real) {
    // A real prompt lifts the quiet latch (/clear and /compact are not turns).
    d.state = { ...d.state, latched: false, rangEarly: false };
  }
  d.state = { ...d.state, turnOpen: true, interrupted: false };
  setVerdict(d, 'working', real ? 'prompt submitted' : 'background task reported back');
}

type TurnEnd = Extract<Signal, { type: 'turn-end' }>;

function applyTurnEnd(d: Draft, s: TurnEnd): void {
  const t = d.now;
  if (s.source === 'hook') {
    // Duplicate Stops within the window are one Stop.
    const last = d.state.lastStopAt;
    if (last !== null && t - last < d.state.options.timing.duplicateStopMs) return note(d, 'ignored: duplicate Stop');
    d.state = { ...d.state, lastStopAt: t };
  }
  if (s.background) declare(d, s.background);
  if (s.pendingAgents !== undefined) d.state = { ...d.state, gate: gates.declarePendingAgents(d.state.gate, s.pendingAgents, t) };
  setFirstPartyClaim(d, 'rest');
  if (s.source === 'psp') d.state = { ...d.state, screen: 'rest' };

  // A compaction is a model call: first-party status says done after it. No real prompt since the
  // latch means no turn, and no turn means no done.
  if (d.state.latched) {
    d.state = { ...d.state, turnOpen: false, hold: null };
    return setVerdict(d, 'idle', 'no real prompt since /clear or /compact');
  }
  const held = d.state.hold;
  if (held?.awaitsQueue && s.source === 'hook') {
    // A second Stop while the first waits for the queued prompt: that prompt's turn ran and ended.
    const queuedPrompts = Math.max(0, d.state.queuedPrompts - 1);
    const notBefore = t + d.state.options.timing.conflictWindowMs;
    d.state = { ...d.state, queuedPrompts, hold: { ...held, reason: s.detail ?? held.reason, since: t, seq: d.signal.seq, notBefore, awaitsQueue: queuedPrompts > 0 }, lastClaimSeq: d.signal.seq };
    return note(d, 'the queued prompt\'s turn ended too');
  }
  if (held) return note(d, 'joins the held turn end');
  // Gemini still fires AfterAgent after the user's Esc (its chat file said "Request cancelled."
  // first): the end of an interrupted turn is no done.
  if (d.state.interrupted && !d.state.turnOpen) return note(d, 'the interrupted turn\'s own end');
  if ((d.state.verdict.state === 'done' || d.state.verdict.state === 'failed') && !d.state.turnOpen) return note(d, `already ${d.state.verdict.state}`);

  const hold: Hold = {
    source: s.source,
    reason: s.detail ?? 'turn ended',
    since: t,
    seq: d.signal.seq,
    verdictVersion: d.state.verdictVersion,
    notBefore: t + d.state.options.timing.conflictWindowMs,
    to: 'done',
    gated: false,
    quietFrom: null,
    waitsForScreen: true,
    awaitsQueue: d.state.queuedPrompts > 0,
  };
  d.state = { ...d.state, hold, turnOpen: false, lastClaimSeq: d.signal.seq };
  if (hold.awaitsQueue) {
    // The agent goes straight on with the queued prompt: its banner for the turn that ended is no
    // done (seen with --no-psp: a false done 0.2 s after the Stop, then a second ring).
    setFirstPartyClaim(d, 'working');
    return note(d, 'held: a queued prompt runs next');
  }
  note(d, 'held: conflict window');
}

/** The background a turn end or SubagentStop declared replaces the last declaration. */
function declare(d: Draft, tasks: BackgroundTask[]): void {
  const declared = gates.declareBackground(d.state.gate, tasks, d.now, d.state.options.maxTracked);
  d.state = { ...d.state, gate: declared.gate };
  if (declared.untracked > 0) note(d, `${declared.untracked} declared background tasks not tracked: more than ${d.state.options.maxTracked}`);
}

function applyAtRest(d: Draft, detail: string | undefined): void {
  if (d.signal.source === 'psp') d.state = { ...d.state, screen: 'rest' };
  // The prompt is back: whatever ran has ended, even if nothing said how.
  if (d.signal.source === 'shell' && d.state.command) {
    d.state = { ...d.state, command: null };
    note(d, 'the prompt is back without an end mark for the command');
  }
  if (isFirstParty(d.signal.source)) setFirstPartyClaim(d, 'rest');
  if (d.state.hold) return note(d, 'at rest while a turn end is held');
  const current = d.state.verdict.state;
  // At rest without a claimed turn end: start-up, a local command, an interrupt, a dismissed dialog.
  if (current === 'done' || current === 'failed' || current === 'exited') return note(d, `at rest; stays ${current}`);
  d.state = { ...d.state, turnOpen: false };
  setVerdict(d, 'idle', detail ?? 'at rest');
}

function applyCommandStart(d: Draft, text: string | undefined): void {
  setFirstPartyClaim(d, 'working');
  d.state = { ...d.state, command: { since: d.now, text: text ?? null, lastUser: d.now } };
  setVerdict(d, 'working', text ?? 'running a command');
}

/**
 * What runs in the foreground of a shell tile while a command runs. A program asleep reading the
 * terminal waits for the user: `blocked: input` (`read`, a `[y/N]` question, a REPL's prompt),
 * ringing only when it has run alone long enough that the user may have gone (as a long command's
 * end does). Its wait ending is the user's answer. A full-screen program is the user's to drive:
 * working, never blocked, and its end is no news.
 */
function applyForeground(d: Draft, reading: boolean, fullScreen: boolean): void {
  const command = d.state.command;
  if (!command) return note(d, 'ignored: no command is running');
  const answered = (command.waiting === true && !(reading && !fullScreen)) || (command.fullScreen === true && !fullScreen);
  const lastUser = answered ? d.now : (command.lastUser ?? command.since);
  const waiting = reading && !fullScreen;
  d.state = { ...d.state, command: { ...command, lastUser, waiting, fullScreen } };
  const what = command.text === null ? 'the command' : `"${command.text}"`;
  const current = d.state.verdict;
  const blockedOnInput = current.state === 'blocked' && current.kind === 'input';
  if (waiting && !blockedOnInput) {
    const alone = d.now - lastUser;
    const threshold = d.state.options.timing.longCommandMs;
    const silent = alone < threshold ? `no ring: it asks ${duration(alone)} after you last dealt with it (under ${duration(threshold)}), you are at it` : undefined;
    return setVerdict(d, 'blocked', `${what} waits for input`, { kind: 'input', ...(silent ? { silent } : {}) });
  }
  if (!waiting && blockedOnInput) return setVerdict(d, 'working', fullScreen ? `${what} shows a full screen of its own` : `${what} has its input: running`);
  note(d, fullScreen ? `${what} shows a full screen of its own: working until the prompt is back` : reading ? `${what} still waits for input` : `${what} runs`);
}

/** A shell command ended. Only a long one rings (`longCommandMs`): nobody waits for `ls`. */
function applyCommandEnd(d: Draft, code: number | null): void {
  const command = d.state.command;
  if (!command) return note(d, 'ignored: no command was running');
  d.state = { ...d.state, command: null };
  setFirstPartyClaim(d, 'rest');
  const what = command.text === null ? 'the command' : `"${command.text}"`;
  const took = d.now - command.since;
  const after = duration(took);
  if (code === INTERRUPTED_STATUS) return setVerdict(d, 'idle', `${what} was interrupted (Ctrl-C) after ${after}`);
  if (code === SUSPENDED_STATUS) return setVerdict(d, 'idle', `${what} was suspended (Ctrl-Z) after ${after}`);
  const ended = code === null ? 'finished (no exit status)' : code === 0 ? 'finished' : `failed with exit code ${code}`;
  const threshold = d.state.options.timing.longCommandMs;
  // Ended while waiting on the user, or from a full screen of its own: the user's key ended it.
  if (command.waiting || command.fullScreen) return setVerdict(d, 'idle', `${what} ${ended} after ${after}, ended by you (it was waiting on your keys): no bell`);
  // Only the time it ran alone since the user last dealt with it counts (an answered question, a
  // line typed into it): a long session of a REPL is no long command.
  const alone = d.now - (command.lastUser ?? command.since);
  if (alone < took && alone < threshold) return setVerdict(d, 'idle', `${what} ${ended} after ${after}, ${duration(alone)} after you last dealt with it: no bell`);
  if (took < threshold) return setVerdict(d, 'idle', `${what} ${ended} in ${after}: shorter than ${duration(threshold)}, no bell`);
  if (code === null || code === 0) return setVerdict(d, 'done', `${what} ${ended} after ${after}`);
  setVerdict(d, 'failed', `${what} ${ended} after ${after}`);
}

type ExitSignal = Extract<Signal, { type: 'exit' }>;

function applyExit(d: Draft, s: ExitSignal): void {
  d.state = { ...d.state, turnOpen: false, queuedPrompts: 0, hold: null, command: null, ended: true };
  const exit = { code: s.code, signal: s.signal, ...(s.error ? { error: s.error } : {}) };
  let reason = describeExit(s.code, s.signal, s.error);
  if (s.closed && !s.error) reason = `closed (${reason})`;
  if (s.remaining) reason += ` · ${count(s.remaining, 'process', 'processes')} still running`;
  if (s.detached) reason += ` · ${count(s.detached, 'process', 'processes')} left the tile and ${s.detached === 1 ? 'runs' : 'run'} on`;
  // Over ssh, 255 is ssh's own failure: the connection failed or dropped, whatever the program was
  // doing — never a done, never a failed.
  if (d.state.options.remote && sshConnectionLost(s)) return setVerdict(d, 'exited', `connection lost (ssh ${s.signal ? `killed by ${s.signal}` : `exited ${s.code}`})`, { exit });
  // `exited with code 127` alone left users guessing; the shell's `claude: not found` scrolls away.
  if (d.state.options.remote && !d.state.options.exitIsOutcome && remoteNotFound(s)) return setVerdict(d, 'exited', 'not on the remote PATH (exit 127): see the README\'s "Remote agents"', { exit });
  // A command the user ran is judged by its exit, unless belltower ended it or it never started.
  if (!d.state.options.exitIsOutcome || s.closed || s.error) return setVerdict(d, 'exited', reason, { exit });
  setVerdict(d, s.code === 0 ? 'done' : 'failed', reason, { exit });
}

const LOGIN_WORDS: Readonly<Record<LoginPrompt, string>> = {
  'host-key': 'ssh asks whether to trust the host key',
  password: 'ssh asks for a password',
  passphrase: 'ssh asks for a key passphrase',
  code: 'ssh asks for a code',
};

/** ssh's login questions count for a remote tile only while it logs in: before its program has
 * said anything (what the start alone decided — a remote shell's idle, a command's working — is
 * not its program speaking). */
function applyLogin(d: Draft, prompt: LoginPrompt | null): void {
  const { remote, exitIsOutcome, idleAtSpawn } = d.state.options;
  if (!remote) return note(d, 'ignored: not a remote tile');
  const now = d.state.verdict;
  const loggingIn = now.state === 'starting' || now.source === 'ssh' || (now.source === 'process' && !d.state.ended);
  if (!loggingIn) return note(d, 'ignored: the remote program runs');
  if (prompt) return setVerdict(d, 'blocked', LOGIN_WORDS[prompt], { kind: 'auth' });
  if (now.state !== 'blocked') return note(d, 'no question pending');
  if (exitIsOutcome) return setVerdict(d, 'working', 'running (you answered ssh)');
  return setVerdict(d, idleAtSpawn ? 'idle' : 'starting', 'you answered ssh');
}

function applyQuietLatch(d: Draft, why: 'clear' | 'compact' | 'command', phase: 'begin' | 'end'): void {
  // /clear and /compact redraw the screen: reset the screen sources, drop any held done, and mute
  // the title until the next real prompt.
  d.state = {
    ...d.state,
    latched: true,
    hold: null,
    turnOpen: false,
    queuedPrompts: 0,
    screen: 'none',
    titleWorkedSinceRest: false,
  };
  if (why === 'compact' && phase === 'begin') return setVerdict(d, 'working', 'compacting');
  setVerdict(d, 'idle', why === 'command' ? 'slash command' : `/${why}`);
}

function applyBanner(d: Draft, text: string): void {
  // A banner may only make a done appear sooner. A false one is not harmless, a missed one is.
  if (d.state.latched) return note(d, 'ignored: screen muted after /clear or /compact');
  if (d.state.firstPartyClaim === 'working') return note(d, 'ignored: first-party evidence says working');
  // Nor may it ring a done the title contradicts at that moment: a banner-shaped line printed mid-turn
  // rang a false done that the spinner undid 0.5 s later. Real banners follow the title's rest.
  if (d.state.screen === 'working') return note(d, 'ignored: the title still says working');
  const gate = gates.readGate(d.state.gate, d.state.options.timing, d.now);
  if (gate.total > 0) return note(d, `ignored: ${gates.describeGate(gate)}`);
  const hold = d.state.hold;
  if (hold) {
    if (hold.source === 'title') return release(d, hold, 'banner', text);
    return note(d, 'ignored: a first-party turn end is held');
  }
  if (d.state.verdict.state === 'done') return note(d, 'ignored: already done');
  if (d.state.verdict.state !== 'working') return note(d, `ignored: was ${d.state.verdict.state}, not working`);
  d.state = { ...d.state, turnOpen: false };
  setVerdict(d, 'done', text, { early: true });
}

function applyPrompt(d: Draft, local: boolean): void {
  releaseForPrompt(d);
  // A line typed into a running shell command is the user dealing with it (a REPL, a question).
  if (d.state.command) d.state = { ...d.state, command: { ...d.state.command, lastUser: d.now } };
  d.state = { ...d.state, rangEarly: false };
  // A slash command at rest is no turn: without hooks to say so, /clear's redraw and /compact's
  // model call would otherwise read as finished turns. Mid-turn it is queued input: no latch.
  const current0 = d.state.verdict.state;
  if (local && current0 !== 'working' && current0 !== 'blocked') return applyQuietLatch(d, 'command', 'begin');
  // Without hooks, the user's own submit is the only sign of a real prompt.
  if (!d.state.options.promptsFromHooks) d.state = { ...d.state, latched: false };
  d.state = { ...d.state, interrupted: false };
  const current = d.state.verdict.state;
  // ssh's question is answered when ssh stops asking: Enter alone starts no work.
  if (current === 'blocked' && d.state.verdict.source === 'ssh') return note(d, 'answering ssh');
  if (current === 'blocked') return setVerdict(d, 'working', 'you answered');
  if (current === 'done') return setVerdict(d, 'idle', 'seen: you typed');
  note(d, 'prompt');
}

/** The title is a fallback: it decides only while no first-party evidence exists and no latch mutes it. */
function applyTitle(d: Draft): void {
  const s = d.signal;
  if (s.type === 'blocked') return applyTitleAsks(d, s.kind, s.detail);
  const reading = s.type === 'working' ? 'working' : s.type === 'at-rest' ? 'rest' : s.type === 'unknown' ? 'unknown' : null;
  if (reading === null) return note(d, `ignored: a title cannot say ${s.type}`);
  if (d.state.latched) return note(d, 'ignored: title muted until the next real prompt');
  const before = d.state.screen;
  d.state = { ...d.state, screen: reading };
  // A request only the title announced ends with the title: the user answered (working again) or
  // dismissed it (at rest). Codex 0.150.1 says nothing else at either moment.
  if (d.state.verdict.state === 'blocked' && d.state.verdict.source === 'title' && reading !== 'unknown') {
    if (reading === 'working') return setVerdict(d, 'working', 'the title works again: you answered');
    if (d.state.firstPartySeen) return setVerdict(d, 'idle', 'the title is at rest: the request is gone');
  }
  if (d.state.firstPartySeen) {
    // Gemini fires no hook when a confirmation is approved (with its `1` key, say): the tile stayed
    // blocked until the tool's AfterTool. Its title going back to working is the answer.
    if (reading === 'working' && before !== 'working' && d.state.verdict.state === 'blocked' && d.state.options.titleEndsBlocked) {
      return setVerdict(d, 'working', 'the title works again: you answered');
    }
    return note(d, 'screen reading only: first-party evidence decides');
  }

  const detail = 'detail' in s && typeof s.detail === 'string' ? s.detail : undefined;
  if (reading === 'working') {
    d.state = { ...d.state, titleWorkedSinceRest: true, turnOpen: true, interrupted: false };
    if (d.state.hold?.source === 'title') d.state = { ...d.state, hold: null };
    return setVerdict(d, 'working', detail ?? 'title spinner');
  }
  if (reading === 'unknown') {
    if (d.state.hold?.source === 'title') d.state = { ...d.state, hold: null };
    return setVerdict(d, 'unknown', detail ?? 'unknown title glyph');
  }
  if (d.state.hold) return note(d, 'title at rest: held');
  if (d.state.titleWorkedSinceRest && d.state.verdict.state === 'working') {
    // Titles flicker during a turn: the idle glyph must hold before it means a finished turn.
    const hold: Hold = {
      source: 'title',
      reason: 'title at rest after working',
      since: d.now,
      seq: s.seq,
      verdictVersion: d.state.verdictVersion,
      notBefore: d.now + d.state.options.timing.titleStabiliseMs,
      to: d.state.options.titleRestIsDone ? 'done' : 'idle',
      gated: false,
      quietFrom: null,
      waitsForScreen: false,
      awaitsQueue: false,
    };
    d.state = { ...d.state, hold, titleWorkedSinceRest: false };
    return note(d, 'held: title stabilisation');
  }
  if (d.state.verdict.state === 'done') return note(d, 'title at rest; stays done');
  setVerdict(d, 'idle', detail ?? 'title at rest');
}

/**
 * The agent's own title says it waits on the user (Codex's "Action Required": 0.150.1 draws its
 * approval with no OSC 7501 and no hook, so nothing else says it). The request while a turn runs;
 * an agent that speaks OSC 7501 says blocked there itself, and its working after the answer must not
 * be undone by a title frame painted before it.
 */
function applyTitleAsks(d: Draft, kind: BlockedKind | undefined, detail: string | undefined): void {
  if (d.state.latched) return note(d, 'ignored: title muted until the next real prompt');
  const verdict = d.state.verdict;
  if (verdict.state === 'blocked') return note(d, 'stays blocked: the title says what stands');
  if (verdict.source === 'psp') return note(d, 'screen reading only: the agent reports its status in OSC 7501');
  if (verdict.state !== 'working' && verdict.state !== 'unknown' && verdict.state !== 'starting') {
    return note(d, `ignored: the title asks while the tile is ${verdict.state}`);
  }
  if (d.state.hold?.source === 'title') d.state = { ...d.state, hold: null };
  d.state = { ...d.state, screen: 'rest' };
  setVerdict(d, 'blocked', detail ?? `needs you: ${kind ?? 'other'}`, { kind: kind ?? 'other' });
}

/**
 * The agent's own record closed the last thing that gated a held done. An agent that starts no
 * turn of its own when background work ends (Codex: no notify, no task_started after a job's
 * item_completed) is then at rest by its own account: the done waits only the conflict window from
 * here. A gate emptied by a TTL, or for an agent that does start a turn then (Claude's task
 * notification), waits the quiet period.
 */
function settleByAgent(d: Draft): void {
  const hold = d.state.hold;
  if (!hold?.gated || d.state.options.backgroundEndWakesAgent || !isFirstParty(d.signal.source)) return;
  if (gates.readGate(d.state.gate, d.state.options.timing, d.now).total > 0) return;
  d.state = { ...d.state, hold: { ...hold, quietFrom: d.now, settledByAgent: true } };
  note(d, 'the agent recorded the end of its last background job, and starts no turn then');
}

function setFirstPartyClaim(d: Draft, claim: 'working' | 'rest'): void {
  if (isFirstParty(d.signal.source)) d.state = { ...d.state, firstPartyClaim: claim };
}

/** Settle the held verdict against `now`: cancel, keep (and ask to be woken), or release it. */
function settle(d: Draft): void {
  const decision = decideHold(d.state, d.now);
  switch (decision.action) {
    case 'none':
      return;
    case 'cancel':
      d.state = { ...d.state, hold: null };
      return note(d, `hold cancelled: ${decision.why}`);
    case 'keep':
      d.state = { ...d.state, hold: decision.hold };
      return;
    case 'release':
      if (decision.hold.to === 'idle') {
        d.state = { ...d.state, hold: null, titleWorkedSinceRest: false };
        return setVerdict(d, 'idle', `${decision.hold.reason}; no banner, so not a done (the glyph also shows at prompts and errors)`, { source: decision.hold.source, seq: decision.hold.seq });
      }
      return release(d, decision.hold, decision.hold.source, decision.hold.reason);
  }
}

/**
 * A prompt proves the turn before it ended. A done still held for the conflict window when the next
 * prompt comes (queued prompts, fast typists, scripts) is released as its own edge, without
 * ringing: the user is at the keyboard. Cancelled instead, the finished turn never showed a done,
 * and `wait --for done` or a script counting turns missed it. A gated hold is not released (the
 * background work still runs), nor one waiting on a queued prompt; the prompt cancels those.
 */
function releaseForPrompt(d: Draft): void {
  const hold = d.state.hold;
  if (!hold || hold.to !== 'done' || !isFirstParty(hold.source) || hold.gated || hold.awaitsQueue) return;
  if (hold.verdictVersion !== d.state.verdictVersion) return;
  if (gates.readGate(d.state.gate, d.state.options.timing, d.now).total > 0) return;
  d.state = { ...d.state, hold: null, titleWorkedSinceRest: false };
  setVerdict(d, 'done', hold.reason, { source: hold.source, seq: hold.seq, silent: true });
}

function release(d: Draft, hold: Hold, source: SourceName, reason: string): void {
  d.state = { ...d.state, hold: null, titleWorkedSinceRest: false };
  setVerdict(d, 'done', reason, { source, seq: hold.seq });
}

interface VerdictExtras {
  kind?: BlockedKind;
  exit?: Verdict['exit'];
  source?: SourceName;
  seq?: number;
  /** A banner's early done: the real done that may follow in this turn does not ring again. */
  early?: boolean;
  /** A done released by the next prompt: the user is at the keyboard, nothing to ring for. */
  /** No ring: true (the next prompt came), or the reason. */
  silent?: boolean | string;
}

function setVerdict(d: Draft, to: TileStateName, reason: string, extras: VerdictExtras = {}): void {
  const from = d.state.verdict;
  const source = extras.source ?? d.signal.source;
  if (from.state === to && from.kind === extras.kind && to !== 'exited') return note(d, `stays ${to}`);
  const verdict: Verdict = {
    state: to,
    ...(extras.kind ? { kind: extras.kind } : {}),
    ...(extras.exit ? { exit: extras.exit } : {}),
    source,
    confidence: confidenceOf(source),
    reason,
    since: d.now,
    seq: extras.seq ?? d.signal.seq,
  };
  d.state = { ...d.state, verdict, verdictVersion: d.state.verdictVersion + 1 };
  d.effects.push({ type: 'verdict', from: from.state, to, verdict });
  note(d, `${from.state} → ${to}${verdict.kind ? ` (${verdict.kind})` : ''}: ${reason}`);

  const rings = to === 'done' || to === 'blocked' || to === 'failed';
  if (!rings || from.state === to) return;
  if (extras.silent) return note(d, typeof extras.silent === 'string' ? extras.silent : 'no ring: the next prompt came, the user is at the keyboard');
  if (to === 'done' && d.state.rangEarly) {
    d.state = { ...d.state, rangEarly: false };
    return note(d, 'no ring: the early done already rang');
  }
  d.effects.push({ type: 'ring', state: to, verdict });
  if (extras.early) d.state = { ...d.state, rangEarly: true };
}

function note(d: Draft, text: string): void {
  d.notes.push(text);
}

function describeExit(code: number | null, signal: string | null, error?: string): string {
  if (error) return error;
  if (signal) return `killed by ${signal}`;
  return `exited with code ${code ?? 'unknown'}`;
}

function count(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** 0.4 s, 12 s, 7 min 3 s: how long, for a reason a person reads. */
function duration(ms: number): string {
  if (ms < 10_000) return `${(ms / 1000).toFixed(1)} s`;
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  return seconds % 60 === 0 ? `${minutes} min` : `${minutes} min ${seconds % 60} s`;
}

function finish(d: Draft): Step {
  let state = d.state;
  const s = d.signal;
  if (d.notes.length > 0 && s.type !== 'wake') {
    const entry = { t: d.now, seq: s.seq, source: s.source, signal: s.type, note: d.notes.join('; ') };
    state = { ...state, why: addWhy(state.why, entry, state.options.whyDepth) };
  } else if (s.type === 'wake' && d.effects.length > 0) {
    const entry = { t: d.now, seq: s.seq, source: 'engine' as const, signal: s.type, note: d.notes.join('; ') };
    state = { ...state, why: [...state.why, entry].slice(-state.options.whyDepth) };
  }
  const wakeAt = nextWake(state, d.now);
  if (wakeAt !== state.wakeAt) {
    state = { ...state, wakeAt };
    d.effects.push({ type: 'wakeAt', t: wakeAt });
  }
  return { state, effects: d.effects };
}

function nextWake(state: EngineState, now: number): number | null {
  const decision = decideHold(state, now);
  return decision.action === 'keep' ? decision.wakeAt : null;
}
