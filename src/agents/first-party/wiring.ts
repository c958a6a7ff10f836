/**
 * What one agent's first-party wiring is: how belltower makes the agent report to it (hooks,
 * Codex's notify program, a transcript path known in advance), what a call of its hooks is as
 * evidence, and whether a remote tile of it can have hooks over its ssh connection. One unit per
 * agent (claude.ts, codex.ts, gemini.ts); the tile asks registry.ts for its agent's and runs it.
 */
import type { RemoteHooks, RemoteHooksOptions } from '../../remote/remote-hooks.js';
import type { Evidence } from '../../record/format.js';
import type { HookListener, HookServer } from '../../sources/hooks/hook-server.js';
import type { Conversation } from '../conversation.js';
import type { TranscriptTarget } from '../profile.js';

export interface FirstPartyWiring {
  /** Which hooks the agent takes (and how) depends on its `--version`, asked before it starts. */
  versionMatters: boolean;
  /** Register the tile's hooks and say what its launch needs; throws InjectionUnavailable when
   * the agent cannot be made to report (the tile then runs without first-party hooks). */
  inject(input: InjectionInput): Injection;
  /** What a call of the tile's hook relay is as evidence (Codex's notify comes through it too). */
  evidence(event: string, payload: Record<string, unknown>): Evidence;
  /** Hooks over a remote tile's ssh connection; absent: a remote tile of this agent runs in-band
   * (Claude Code has them: its settings are one file; Codex and Gemini run in-band over ssh).
   * Throws RemoteHooksUnavailable when this tile cannot have them. */
  remoteHooks?(options: RemoteHooksOptions): RemoteHooks;
}

export interface Injection {
  /** Put these before the user's own arguments. */
  args: string[];
  env: Record<string, string>;
  /** The agent's session log, when known before it starts. */
  transcriptPath?: string;
  /** A notice when the screen shows the agent refusing what was injected (a review dialog), else undefined. */
  refusedOnScreen?(rows: readonly string[]): string | undefined;
  /** The session log a hook (or notify) call points at, if it says one; `following`: one is followed already. */
  transcriptFor?(event: string, payload: Record<string, unknown>, following: boolean): TranscriptTarget | undefined;
  /** For an agent that names its session log in no hook at the start of a turn (Codex before
   * 0.171): the log among the files the tile's processes hold open, looked for each time the tile
   * starts working. */
  transcriptAmongOpenFiles?(paths: readonly string[]): string | undefined;
  /** The arguments already start (or resume) the tile's conversation. */
  startsConversation: boolean;
  /** The user's own arguments as the agent is to get them, when the injection took one of them
   * in (Claude's `--settings`, merged into the injected one); absent: as given. */
  userArgs?: string[];
  dispose(): void;
}

export interface InjectionInput {
  server: HookServer;
  /** Parent of the per-tile private folders. */
  runtimeDir: string;
  tileKey: string;
  cwd: string;
  env: Record<string, string | undefined>;
  onHook: HookListener;
  /** The agent's `--version`, when known. */
  version?: string | undefined;
  /** The conversation the tile starts or resumes (Claude's goes into its injected arguments). */
  conversation?: Conversation | null;
  /** The user's own arguments for the agent (from the SPEC). */
  args: readonly string[];
}

/** The agent cannot be made to report here; the tile runs without first-party hooks. */
export class InjectionUnavailable extends Error {
  override name = 'InjectionUnavailable';
}

/** A hook call as a hook: what every agent's relay reports, but Codex's notify. */
export function hookEvidence(event: string, payload: Record<string, unknown>): Evidence {
  return { type: 'hook', event, payload };
}
