import { describe, expect, it } from 'vitest';
import { codexNotifySignals } from '../../src/sources/hooks/codex-notify.js';
import { geminiHookSignals } from '../../src/sources/hooks/gemini-hooks.js';

/** Gemini 0.61 payload shapes from shared/facts/other-agents.md. */
const g = (event: string, extra: Record<string, unknown> = {}) => ({
  session_id: 'g-1',
  transcript_path: '/home/u/.gemini/tmp/app/chats/session-x.jsonl',
  cwd: '/work/app',
  hook_event_name: event,
  timestamp: '2026-11-30T10:00:00.000Z',
  ...extra,
});
const gm = (p: { hook_event_name: string }) => geminiHookSignals(p.hook_event_name, p);

describe('gemini hook → signals', () => {
  it('maps a turn: BeforeAgent → tools → permission → AfterAgent', () => {
    expect(gm(g('BeforeAgent', { prompt: 'hi' }))).toEqual([{ type: 'turn-start', real: true, source: 'hook' }]);
    expect(gm(g('BeforeTool', { tool_name: 'run_shell_command', tool_input: {} }))).toEqual([
      { type: 'working', detail: 'run_shell_command', source: 'hook' },
    ]);
    expect(gm(g('AfterTool', { tool_name: 'run_shell_command' }))[0]?.type).toBe('working');
    expect(gm(g('Notification', { notification_type: 'ToolPermission', message: 'Allow?', details: {} }))).toEqual([
      { type: 'blocked', kind: 'permission', detail: 'Allow?', source: 'hook' },
    ]);
    expect(gm(g('AfterAgent', { prompt: 'hi', prompt_response: 'hello', stop_hook_active: false }))).toEqual([
      { type: 'turn-end', detail: 'response: 5 chars', source: 'hook' },
    ]);
  });

  it('AfterAgent after an API error or an Esc (no text, "[no response text]") ends the turn without claiming an answer', () => {
    // Both seen on 0.61.0 against the fake API: HTTP 400, and Esc while the reply hung.
    expect(gm(g('AfterAgent', { prompt: 'hi', prompt_response: '[no response text]', stop_hook_active: false }))).toEqual([
      { type: 'turn-end', detail: 'no response text (an API error or an interrupt)', source: 'hook' },
    ]);
  });

  it('/clear latches; /quit ends the session; start-up is at rest; the rest says nothing', () => {
    expect(gm(g('SessionEnd', { reason: 'clear' }))).toEqual([{ type: 'quiet-latch', why: 'clear', phase: 'begin', source: 'hook' }]);
    expect(gm(g('SessionStart', { source: 'clear' }))).toEqual([{ type: 'quiet-latch', why: 'clear', phase: 'end', source: 'hook' }]);
    expect(gm(g('SessionEnd', { reason: 'exit' }))).toEqual([{ type: 'session-end', reason: 'exit', source: 'hook' }]);
    expect(gm(g('SessionStart', { source: 'startup' }))).toEqual([{ type: 'at-rest', detail: 'session startup', source: 'hook' }]);
    expect(gm(g('PreCompress', { trigger: 'auto' }))).toEqual([]);
    expect(gm(g('BeforeModel'))).toEqual([]);
    expect(gm(g('Notification', { notification_type: 'Other' }))).toEqual([]);
    expect(geminiHookSignals('AfterAgent', {})).toEqual([]);
  });
});

describe('codex notify → signals', () => {
  const turn = {
    type: 'agent-turn-complete',
    'thread-id': '0199-main',
    'turn-id': '1',
    cwd: '/work/app',
    client: 'codex-tui',
    'input-messages': ['add a test for the parser'],
    'last-assistant-message': 'Added the test.',
  };

  it('agent-turn-complete ends the turn (source notify)', () => {
    expect(codexNotifySignals(turn)).toEqual([{ type: 'turn-end', detail: 'last message: 15 chars', source: 'notify' }]);
    expect(codexNotifySignals({ ...turn, 'last-assistant-message': null })).toEqual([{ type: 'turn-end', source: 'notify' }]);
  });

  it("drops the hidden title thread's notify", () => {
    const title = { ...turn, 'thread-id': '0199-title', 'input-messages': ['Generate a concise, single-line task title for: add a test'] };
    expect(codexNotifySignals(title)).toEqual([]);
  });

  it('ignores anything else', () => {
    expect(codexNotifySignals({ type: 'approval-requested' })).toEqual([]);
    expect(codexNotifySignals('x')).toEqual([]);
  });
});
