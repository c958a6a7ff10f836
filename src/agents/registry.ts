/**
 * The agent profiles belltower knows, by name. Each states which evidence it uses (the README's
 * table is this data).
 */
import { claudeHookSignals } from '../sources/hooks/claude-hooks.js';
import { codexNotifySignals } from '../sources/hooks/codex-notify.js';
import { geminiHookSignals } from '../sources/hooks/gemini-hooks.js';
import { claudeTranscriptReader } from '../sources/transcript/claude-transcript.js';
import { codexRolloutReader } from '../sources/transcript/codex-rollout.js';
import { geminiChatReader } from '../sources/transcript/gemini-chat.js';
import { classifyTitle } from '../sources/title.js';
import { CLAUDE_NOTIFICATIONS, CODEX_NOTIFICATIONS, GEMINI_NOTIFICATIONS, SHELL_NOTIFICATIONS } from './notification-texts.js';
import type { AgentName, AgentProfile, TitleReader } from './profile.js';
import { CLAUDE_TITLE, CODEX_TITLE, GEMINI_TITLE, SHELL_TITLE } from './title-glyphs.js';
import type { TitleGlyphs } from './title-glyphs.js';

const titleReader = (glyphs: TitleGlyphs): TitleReader => ({ classify: (title) => classifyTitle(glyphs, title) });

export const CLAUDE: AgentProfile = {
  name: 'claude',
  evidence: ['hook', 'psp', 'transcript', 'notification', 'title', 'banner', 'process'],
  promptsFromHooks: true,
  answerPsp: true,
  title: titleReader(CLAUDE_TITLE),
  // ✳ also shows at a permission prompt and after an API error (observed on 2.1.332).
  titleRestIsDone: false,
  titleEndsBlocked: false,
  banner: true,
  hooks: claudeHookSignals,
  transcript: claudeTranscriptReader,
  notify: null,
  notifications: CLAUDE_NOTIFICATIONS,
};

export const CODEX: AgentProfile = {
  name: 'codex',
  evidence: ['psp', 'notify', 'transcript', 'notification', 'title', 'process'],
  promptsFromHooks: false,
  answerPsp: true,
  title: titleReader(CODEX_TITLE),
  titleRestIsDone: true,
  titleEndsBlocked: false,
  banner: false,
  hooks: null,
  transcript: codexRolloutReader,
  notify: codexNotifySignals,
  notifications: CODEX_NOTIFICATIONS,
};

export const GEMINI: AgentProfile = {
  name: 'gemini',
  evidence: ['hook', 'transcript', 'notification', 'title', 'process'],
  promptsFromHooks: true,
  answerPsp: true,
  title: titleReader(GEMINI_TITLE),
  titleRestIsDone: true,
  // Gemini fires no hook when the user approves a confirmation; its ✦ title is the only sign.
  titleEndsBlocked: true,
  banner: false,
  hooks: geminiHookSignals,
  transcript: geminiChatReader,
  notify: null,
  notifications: GEMINI_NOTIFICATIONS,
};

export const SHELL: AgentProfile = {
  name: 'shell',
  evidence: ['psp', 'notification', 'title', 'process'],
  promptsFromHooks: false,
  answerPsp: true,
  title: titleReader(SHELL_TITLE),
  titleRestIsDone: true,
  titleEndsBlocked: false,
  banner: false,
  hooks: null,
  transcript: null,
  notify: null,
  notifications: SHELL_NOTIFICATIONS,
};

export const PROFILES: Readonly<Record<AgentName, AgentProfile>> = { claude: CLAUDE, codex: CODEX, gemini: GEMINI, shell: SHELL };

export function isAgentName(name: string): name is AgentName {
  return Object.hasOwn(PROFILES, name);
}

/** The profile for an agent name; any other command is a shell. */
export function profileFor(name: string): AgentProfile {
  return isAgentName(name) ? PROFILES[name] : SHELL;
}
