/**
 * Notification source: the desktop notifications an agent prints in-band, to its terminal — OSC 9
 * (iTerm2), OSC 777 `notify;<title>;<body>` (rxvt, Ghostty) and OSC 99 (kitty) — read as the
 * agent's own words. They survive an SSH hop, where hooks do not.
 *
 * Observed (shared facts, "Observed since"): Claude Code 2.1.332 with `preferredNotifChannel`
 * prints "Claude needs your permission" ~6 s after a permission dialog opens (OSC 9, 777 or 99 by
 * channel) and nothing at turn end; Gemini CLI 0.61 with `general.enableNotifications` prints
 * OSC 777 "Gemini CLI needs your attention" at a confirmation and "Gemini CLI session complete" at
 * each turn end; Codex 0.171 with `tui.notifications` prints OSC 9 "Approval requested: <command>"
 * at an approval and its last message at turn end (no fixed text: not read).
 *
 * What a text means is per agent, as data (agents/notification-texts.ts). belltower never passes
 * an agent's notification on to the user's terminal: it rings once, itself.
 */
import type { BlockedKind, SourceSignal } from '../verdict/signals.js';
import { decodeBase64 } from './psp.js';

export const NOTIFICATION_OSC_CODES: readonly number[] = [9, 777, 99];

/** Longer texts are cut: a notification is a line, and the detail is shown to people. */
const TEXT_MAX = 512;

export interface InbandNotification {
  title?: string;
  body: string;
}

/** What a known notification text means. */
export type NotificationMeaning = { type: 'blocked'; kind: BlockedKind } | { type: 'turn-end' };

export interface NotificationRule {
  /** Tested against the title and the body joined by ": ", and against the body alone (Gemini says
   * it in the title, Claude in the body). */
  readonly pattern: RegExp;
  readonly meaning: NotificationMeaning;
}

/** One OSC 9/777/99 payload as a notification, or undefined when it is another use of the code. */
export function parseNotification(code: number, payload: string): InbandNotification | undefined {
  switch (code) {
    case 9:
      // ConEmu and Windows Terminal use `9;<digit>;…` for progress, cwd and more: not a notification.
      if (/^\d+(;|$)/.test(payload)) return undefined;
      return text({ body: payload });
    case 777: {
      // `notify;<title>;<body>`; other 777 subcommands (shell integrations' precmd…) are not.
      const match = /^notify;([^;]*);?([\s\S]*)$/.exec(payload);
      return match ? text({ title: match[1] ?? '', body: match[2] ?? '' }) : undefined;
    }
    case 99: {
      // kitty: `<key=value:…>;<text>`, the title and the body often in separate sequences.
      const split = payload.indexOf(';');
      if (split < 0) return undefined;
      const meta = payload.slice(0, split);
      if (/(^|:)p=(?!title|body)/.test(meta)) return undefined; // icons, buttons, queries
      const encoded = /(^|:)e=1(:|$)/.test(meta);
      const raw = payload.slice(split + 1);
      const bytes = encoded ? decodeBase64(raw) : undefined;
      if (typeof bytes === 'string') return undefined; // not base64 after all
      const body = bytes ? new TextDecoder().decode(bytes) : raw;
      return body === '' ? undefined : text({ body });
    }
    default:
      return undefined;
  }
}

/** The signals a notification means under an agent's rules: none when no rule knows it. */
export function notificationSignals(rules: readonly NotificationRule[], notification: InbandNotification): SourceSignal[] {
  const said = notification.title ? `${notification.title}: ${notification.body}` : notification.body;
  const rule = rules.find((r) => r.pattern.test(said) || r.pattern.test(notification.body));
  if (!rule) return [];
  const detail = `notification "${said}"`;
  if (rule.meaning.type === 'blocked') return [{ type: 'blocked', kind: rule.meaning.kind, detail, source: 'notification' }];
  return [{ type: 'turn-end', detail, source: 'notification' }];
}

function text(n: InbandNotification): InbandNotification {
  const cut = (s: string) => (s.length > TEXT_MAX ? s.slice(0, TEXT_MAX) : s);
  return { ...(n.title !== undefined ? { title: cut(n.title.trim()) } : {}), body: cut(n.body.trim()) };
}
