/**
 * What belltower adds to an agent's launch so the agent reports to it: hooks (Claude, Gemini),
 * the notify program (Codex), and for Claude the transcript path known in advance.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import { prepareClaudeSession } from '../agents/claude-injection.js';
import { claudeConfigDir } from '../agents/claude-paths.js';
import { prepareCodexSession } from '../agents/codex-injection.js';
import { geminiSkipsSystemFile, prepareGeminiSession } from '../agents/gemini-injection.js';
import type { Conversation } from '../agents/conversation.js';
import type { AgentName } from '../agents/profile.js';
import type { HookListener, HookServer } from '../sources/hooks/hook-server.js';

export interface Injection {
  /** Put these before the user's own arguments. */
  args: string[];
  env: Record<string, string>;
  /** The agent's session log, when known before it starts. */
  transcriptPath?: string;
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
  /** The conversation the tile starts or resumes (Claude's goes into its injected arguments). */
  conversation?: Conversation | null;
}

/** The agent cannot be made to report here; the tile runs without first-party hooks. */
export class InjectionUnavailable extends Error {
  override name = 'InjectionUnavailable';
}

/** Agents belltower can hear from directly. */
export function injects(agent: AgentName): boolean {
  return agent === 'claude' || agent === 'codex' || agent === 'gemini';
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
        ...(conversation ? { sessionId: conversation.id, resume: conversation.resume } : {}),
      });
      return { args: session.args, env: session.env, transcriptPath: session.transcriptPath, startsConversation: true, dispose: () => session.dispose() };
    }
    case 'codex': {
      const session = prepareCodexSession({ ...common, codexHome: input.env.CODEX_HOME ?? join(homedir(), '.codex') });
      return { args: session.args, env: session.env, startsConversation: false, dispose: () => session.dispose() };
    }
    case 'gemini': {
      const session = prepareGeminiSession({ ...common, env: input.env as NodeJS.ProcessEnv });
      const skipped = geminiSkipsSystemFile(session.settingsPath);
      if (skipped) {
        session.dispose();
        throw new InjectionUnavailable(`Gemini hooks are off for this tile: ${skipped}; its status comes from the title`);
      }
      return { args: session.args, env: session.env, startsConversation: false, dispose: () => session.dispose() };
    }
    case 'shell':
    case 'command':
      return null;
  }
}
