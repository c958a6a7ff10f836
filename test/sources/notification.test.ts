/** In-band desktop notifications: the payloads the real agents printed, and what they mean. */
import { describe, expect, it } from 'vitest';
import { CLAUDE_NOTIFICATIONS, CODEX_NOTIFICATIONS, GEMINI_NOTIFICATIONS, SHELL_NOTIFICATIONS } from '../../src/agents/notification-texts.js';
import { notificationSignals, parseNotification } from '../../src/sources/notification.js';
import type { NotificationRule } from '../../src/sources/notification.js';

const read = (rules: readonly NotificationRule[], code: number, payload: string) => {
  const n = parseNotification(code, payload);
  return n ? notificationSignals(rules, n) : [];
};

describe('parsing OSC 9, 777 and 99', () => {
  it('OSC 9 is the body; ConEmu/Windows Terminal `9;<n>;…` (progress, cwd) is no notification', () => {
    expect(parseNotification(9, 'Claude needs your permission')).toEqual({ body: 'Claude needs your permission' });
    expect(parseNotification(9, '4;1;50')).toBeUndefined();
    expect(parseNotification(9, '9;/home/ada')).toBeUndefined();
  });

  it('OSC 777 notify;<title>;<body>, and nothing for its other subcommands', () => {
    expect(parseNotification(777, 'notify;Gemini CLI session complete;Run finished | Gemini CLI finished responding.')).toEqual({
      title: 'Gemini CLI session complete',
      body: 'Run finished | Gemini CLI finished responding.',
    });
    expect(parseNotification(777, 'preexec')).toBeUndefined();
  });

  it('OSC 99 (kitty): each title or body chunk, base64 when e=1; icons and buttons are not text', () => {
    expect(parseNotification(99, 'i=3257:d=0:p=title;Claude Code')).toEqual({ body: 'Claude Code' });
    expect(parseNotification(99, 'i=3257:p=body;Claude needs your permission')).toEqual({ body: 'Claude needs your permission' });
    expect(parseNotification(99, 'i=3257:d=1:a=focus;')).toBeUndefined();
    expect(parseNotification(99, `i=1:e=1:p=body;${btoa('Claude needs your input')}`)).toEqual({ body: 'Claude needs your input' });
    expect(parseNotification(99, 'i=1:p=icon;AAAA')).toBeUndefined();
  });

  it('cuts what it keeps to a line', () => {
    expect(parseNotification(9, 'x'.repeat(10_000))?.body).toHaveLength(512);
  });
});

describe('what each agent means', () => {
  it('Claude Code 2.1.332 (OSC 9 iterm2, 777 ghostty, 99 kitty): permission is blocked; the 60 s idle reminder is nothing', () => {
    const blocked = [{ type: 'blocked', kind: 'permission', detail: 'notification "Claude needs your permission"', source: 'notification' }];
    expect(read(CLAUDE_NOTIFICATIONS, 9, 'Claude needs your permission')).toEqual(blocked);
    expect(read(CLAUDE_NOTIFICATIONS, 777, 'notify;Claude Code;Claude needs your permission')).toEqual([{ ...blocked[0], detail: 'notification "Claude Code: Claude needs your permission"' }]);
    expect(read(CLAUDE_NOTIFICATIONS, 99, 'i=3257:p=body;Claude needs your permission')).toEqual(blocked);
    expect(read(CLAUDE_NOTIFICATIONS, 99, 'i=3257:d=0:p=title;Claude Code')).toEqual([]);
    expect(read(CLAUDE_NOTIFICATIONS, 9, 'Claude needs your input')).toMatchObject([{ type: 'blocked', kind: 'question' }]);
    expect(read(CLAUDE_NOTIFICATIONS, 9, 'Claude is waiting for your input')).toEqual([]);
  });

  it('Gemini CLI 0.61 (OSC 777): attention at a confirmation is blocked, session complete is a turn end', () => {
    expect(read(GEMINI_NOTIFICATIONS, 777, 'notify;Gemini CLI needs your attention;Approval required | Approve tool action: Confirm Shell Command')).toMatchObject([
      { type: 'blocked', kind: 'permission', source: 'notification' },
    ]);
    expect(read(GEMINI_NOTIFICATIONS, 777, 'notify;Gemini CLI session complete;Run finished | Gemini CLI finished responding.')).toMatchObject([{ type: 'turn-end', source: 'notification' }]);
  });

  it("Codex 0.171 (OSC 9): an approval is blocked; its turn-end notification is the model's own text, read as nothing", () => {
    expect(read(CODEX_NOTIFICATIONS, 9, 'Approval requested: touch f.txt')).toMatchObject([{ type: 'blocked', kind: 'permission' }]);
    expect(read(CODEX_NOTIFICATIONS, 9, 'First answer.')).toEqual([]);
  });

  it('a shell tile (an agent over SSH) reads every agent\'s "needs you", and no turn end', () => {
    expect(read(SHELL_NOTIFICATIONS, 777, 'notify;Claude Code;Claude needs your permission')).toMatchObject([{ type: 'blocked' }]);
    expect(read(SHELL_NOTIFICATIONS, 777, 'notify;Gemini CLI session complete;Run finished')).toEqual([]);
  });
});
