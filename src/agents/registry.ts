/**
 * The agent profiles belltower knows, by name. Each states which evidence it uses (the README's
 * table is this data).
 */
import { claudeHookForRecording, claudeHookSignals } from '../sources/hooks/claude-hooks.js';
import { codexHookForRecording, codexNotifyForRecording, codexNotifySignals } from '../sources/hooks/codex-notify.js';
import { geminiHookForRecording, geminiHookSignals } from '../sources/hooks/gemini-hooks.js';
import { claudeTranscriptReader } from '../sources/transcript/claude-transcript.js';
import { codexRolloutReader } from '../sources/transcript/codex-rollout.js';
import { geminiChatReader } from '../sources/transcript/gemini-chat.js';
import { classifyTitle, titleForRecording } from '../sources/title.js';
import { CLAUDE_NOTIFICATIONS, CODEX_NOTIFICATIONS, GEMINI_NOTIFICATIONS, SHELL_NOTIFICATIONS } from './notification-texts.js';
import type { AgentName, AgentProfile, TitleReader } from './profile.js';
import { CLAUDE_TITLE, CODEX_TITLE, GEMINI_TITLE, SHELL_TITLE } from './title-glyphs.js';
import type { TitleGlyphs } from './title-glyphs.js';

const titleReader = (glyphs: TitleGlyphs): TitleReader => ({
  classify: (title) => classifyTitle(glyphs, title),
  forRecording: (title) => titleForRecording(glyphs, title),
});

export const CLAUDE: AgentProfile = {
  name: 'claude',
  evidence: ['hook', 'psp', 'transcript', 'notification', 'title', 'banner', 'process'],
  promptsFromHooks: true,
  answerPsp: true,
  title: titleReader(CLAUDE_TITLE),
  // ✳ also shows at a permission prompt and after an API error (observed on 2.1.332).
  titleRestIsDone: false,
  titleEndsBlocked: false,
  // A background task's end comes back as a task notification the model answers in a turn.
  backgroundEndWakesAgent: true,
  banner: true,
  promptMarks: false,
  exitIsOutcome: false,
  slashCommands: true,
  promptBox: true,
  hooks: claudeHookSignals,
  hooksForRecording: claudeHookForRecording,
  transcript: claudeTranscriptReader,
  notify: null,
  notifyForRecording: null,
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
  // A background job's end (its item_completed) starts no turn: no notify, no task_started
  // follows it (0.171, fixtures/codex-0.171.0/background-job.jsonl).
  backgroundEndWakesAgent: false,
  banner: false,
  promptMarks: false,
  exitIsOutcome: false,
  slashCommands: true,
  promptBox: true,
  hooks: null,
  hooksForRecording: codexHookForRecording,
  transcript: codexRolloutReader,
  notify: codexNotifySignals,
  notifyForRecording: codexNotifyForRecording,
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
  backgroundEndWakesAgent: true,
  banner: false,
  promptMarks: false,
  exitIsOutcome: false,
  slashCommands: true,
  promptBox: true,
  hooks: geminiHookSignals,
  hooksForRecording: geminiHookForRecording,
  transcript: geminiChatReader,
  notify: null,
  notifyForRecording: null,
  notifications: GEMINI_NOTIFICATIONS,
};

/** An interactive shell: idle at its prompt, working while a command runs (OSC 133, from
 * belltower's shell integration or the shell itself). */
export const SHELL: AgentProfile = {
  name: 'shell',
  evidence: ['shell', 'psp', 'notification', 'title', 'process'],
  promptsFromHooks: false,
  answerPsp: true,
  title: titleReader(SHELL_TITLE),
  titleRestIsDone: true,
  titleEndsBlocked: false,
  backgroundEndWakesAgent: true,
  banner: false,
  promptMarks: true,
  exitIsOutcome: false,
  slashCommands: false,
  promptBox: false,
  hooks: null,
  hooksForRecording: null,
  transcript: null,
  notify: null,
  notifyForRecording: null,
  notifications: SHELL_NOTIFICATIONS,
};

/** Any other command line: working from the start until it exits, then done or failed by its exit
 * status. What it says itself (OSC 7501, OSC 133) counts while it runs. */
export const COMMAND: AgentProfile = {
  ...SHELL,
  name: 'command',
  evidence: ['process', 'psp', 'shell', 'notification', 'title'],
  exitIsOutcome: true,
};

export const PROFILES: Readonly<Record<AgentName, AgentProfile>> = { claude: CLAUDE, codex: CODEX, gemini: GEMINI, shell: SHELL, command: COMMAND };

export function isAgentName(name: string): name is AgentName {
  return Object.hasOwn(PROFILES, name);
}

/** The profile for an agent name. Recordings made before the `command` profile existed name plain
 * commands `shell`, and an unknown name reads as `shell` too: that is how they were judged. */
export function profileFor(name: string): AgentProfile {
  return isAgentName(name) ? PROFILES[name] : SHELL;
}
