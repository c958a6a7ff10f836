/**
 * What belltower adds to an agent's launch so the agent reports to it: hooks (Claude, Gemini),
 * the notify program (Codex), and for Claude the transcript path known in advance.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import { prepareClaudeSession } from '../agents/claude-injection.js';
import { claudeConfigDir } from '../agents/claude-paths.js';
import { prepareCodexSession } from '../agents/codex-injection.js';
import { GeminiHooksOff, geminiChatTarget, prepareGeminiSession } from '../agents/gemini-injection.js';
import { GeminiSettingsError } from '../agents/gemini-settings.js';
import { codexHookReview } from '../agents/codex-hook-trust.js';
import { codexTranscriptTarget } from '../agents/codex-rollout-path.js';
import type { Conversation } from '../agents/conversation.js';
import { isCodingAgent } from '../agents/profile.js';
import type { AgentName, TranscriptTarget } from '../agents/profile.js';
import { claudeTranscriptSwitch } from '../sources/hooks/claude-hooks.js';
import type { HookListener, HookServer } from '../sources/hooks/hook-server.js';

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
  /** The arguments already start (or resume) the tile's conversation. */
  startsConversation: boolean;
  dispose(): void;
}

export interface InjectionInput {
  agent: AgentName;
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
}

/** The agent cannot be made to report here; the tile runs without first-party hooks. */
export class InjectionUnavailable extends Error {
  override name = 'InjectionUnavailable';
}

/** Agents belltower can hear from directly. */
export function injects(agent: AgentName): boolean {
  return isCodingAgent(agent);
}

/** Agents whose injection depends on their version (`--version` is asked before they start). */
export function versionMatters(agent: AgentName): boolean {
  return agent === 'codex' || agent === 'claude';
}

export function inject(input: InjectionInput): Injection | null {
  const common = { stateDir: input.runtimeDir, server: input.server, tileKey: input.tileKey, onHook: input.onHook };
  switch (input.agent) {
    case 'claude': {
      const conversation = input.conversation;
      const session = prepareClaudeSession({
        ...common,
        cwd: input.cwd,
        configDir: claudeConfigDir(input.env as NodeJS.ProcessEnv, homedir()),
        version: input.version,
        ...(conversation ? { sessionId: conversation.id, resume: conversation.resume } : {}),
      });
      return {
        args: session.args,
        env: session.env,
        transcriptPath: session.transcriptPath,
        transcriptFor: (event, payload) => {
          const path = claudeTranscriptSwitch(event, payload);
          return path ? { path } : undefined;
        },
        startsConversation: true,
        dispose: () => session.dispose(),
      };
    }
    case 'codex': {
      const codexHome = input.env.CODEX_HOME ?? join(homedir(), '.codex');
      const session = prepareCodexSession({ ...common, codexHome, version: input.version });
      return {
        args: session.args,
        env: session.env,
        transcriptFor: (event, payload, following) => codexTranscriptTarget(codexHome, event, payload, following),
        ...(session.sessionStartHook ? { refusedOnScreen: codexHookReview } : {}),
        startsConversation: false,
        dispose: () => session.dispose(),
      };
    }
    case 'gemini': {
      try {
        const session = prepareGeminiSession({ ...common, cwd: input.cwd, env: input.env as NodeJS.ProcessEnv });
        return { args: session.args, env: session.env, transcriptFor: geminiChatTarget, startsConversation: false, dispose: () => session.dispose() };
      } catch (error) {
        if (!(error instanceof GeminiHooksOff || error instanceof GeminiSettingsError)) throw error;
        throw new InjectionUnavailable(`Gemini hooks are off for this tile: ${error.message}; its status comes from the title`);
      }
    }
    case 'shell':
    case 'command':
      return null;
  }
}
