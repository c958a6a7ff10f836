/**
 * What each agent's in-band desktop notifications say, as data (see sources/notification.ts).
 * Observed on the versions in the shared facts; a text no rule knows means nothing.
 */
import type { NotificationRule } from '../sources/notification.js';

export const CLAUDE_NOTIFICATIONS: readonly NotificationRule[] = [
  { pattern: /^Claude needs your permission\b/, meaning: { type: 'blocked', kind: 'permission' } },
  { pattern: /^Claude needs your input\b/, meaning: { type: 'blocked', kind: 'question' } },
  { pattern: /^Claude needs your approval\b/, meaning: { type: 'blocked', kind: 'other' } },
  // "Claude is waiting for your input" comes 60 s after a turn ended: it repeats what was said.
];

export const GEMINI_NOTIFICATIONS: readonly NotificationRule[] = [
  { pattern: /^Gemini CLI needs your attention: Approval required\b/, meaning: { type: 'blocked', kind: 'permission' } },
  { pattern: /^Gemini CLI needs your attention\b/, meaning: { type: 'blocked', kind: 'other' } },
  { pattern: /^Gemini CLI session complete\b/, meaning: { type: 'turn-end' } },
];

export const CODEX_NOTIFICATIONS: readonly NotificationRule[] = [
  { pattern: /^Approval requested\b/, meaning: { type: 'blocked', kind: 'permission' } },
  { pattern: /^Question requested\b/, meaning: { type: 'blocked', kind: 'question' } },
  // At turn end Codex's notification is the model's last message: no fixed text to read.
];

/** Any command (an agent over SSH, in a shell): every agent's "needs you", none of their turn ends,
 * which a shell tile could not tell from the end of the command. */
export const SHELL_NOTIFICATIONS: readonly NotificationRule[] = [...CLAUDE_NOTIFICATIONS, ...GEMINI_NOTIFICATIONS, ...CODEX_NOTIFICATIONS].filter(
  (rule) => rule.meaning.type === 'blocked',
);
