import { describe, expect, it } from 'vitest';
import { codexNotifySignals, codexNotifyWords } from '../../src/sources/hooks/codex-notify.js';
import { geminiHookForRecording, geminiHookSignals } from '../../src/sources/hooks/gemini-hooks.js';

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
    // `begins`: fired as the prompt goes to the model, so never a prompt queued behind a turn.
    expect(gm(g('BeforeAgent', { prompt: 'hi' }))).toEqual([{ type: 'turn-start', real: true, begins: true, source: 'hook' }]);
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

  it("its ask_user tool's confirmation is a question, not a permission (0.61)", () => {
    const asked = g('Notification', { notification_type: 'ToolPermission', message: 'Tool requires confirmation', details: { type: 'ask_user', title: 'Ask User' } });
    expect(gm(asked)).toEqual([{ type: 'blocked', kind: 'question', detail: 'Tool requires confirmation', source: 'hook' }]);
    // A recording keeps what the confirmation is about, never its words, and replays the same.
    const kept = geminiHookForRecording('Notification', asked as Record<string, unknown>);
    expect(kept.details).toEqual({ type: 'ask_user' });
    expect(JSON.stringify(kept)).not.toContain('Ask User');
    expect(gm({ ...kept, hook_event_name: 'Notification' })).toMatchObject([{ type: 'blocked', kind: 'question' }]);
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

  it("the tile's words are the turn's own final message, never the title thread's generated title (issue 24, item 5)", () => {
    // Both notifies of a real 0.171.0 first turn (fixtures/codex-0.171.0/plain.jsonl), trimmed.
    const titleThread = {
      type: 'agent-turn-complete',
      'thread-id': '01a22c46-792b-7a50-91c8-9bde9fb1a47f',
      'turn-id': '01a22c46-793f-7e10-a4a9-17a255b35086',
      cwd: '/tmp/belltower-codex-project-ITZXxl',
      client: 'codex-tui',
      'input-messages': [
        'Generate a concise, single-line task title of at most 36 characters and under five words where possible. Start with an imperative verb. … Do not answer the request.\n\nUser prompt:\nSay something short for the belltower codex test',
      ],
      'last-assistant-message': 'Fake task title',
    };
    const userTurn = {
      ...titleThread,
      'thread-id': '01a22c46-7623-7f81-999f-a2650334186b',
      'turn-id': '01a22c46-78a2-7fd2-8e44-f48ef0e9b1e5',
      'input-messages': ['Say something short for the belltower codex test'],
      'last-assistant-message': 'Belltower codex answer.',
    };
    expect(codexNotifyWords(userTurn)).toBe('Belltower codex answer.');
    expect(codexNotifyWords(titleThread)).toBeNull();
    // Whichever order they come in, the words that stand are the answer's.
    const said = (payloads: unknown[]): string | null => payloads.map(codexNotifyWords).reduce<string | null>((last, words) => words ?? last, null);
    expect(said([titleThread, userTurn])).toBe('Belltower codex answer.');
    expect(said([userTurn, titleThread])).toBe('Belltower codex answer.');
    expect(codexNotifyWords({ ...userTurn, 'last-assistant-message': null })).toBeNull();
    expect(codexNotifyWords({ ...userTurn, 'last-assistant-message': '' })).toBeNull();
    expect(codexNotifyWords({ type: 'approval-requested' })).toBeNull();
  });

  it('ignores anything else', () => {
    expect(codexNotifySignals({ type: 'approval-requested' })).toEqual([]);
    expect(codexNotifySignals('x')).toEqual([]);
  });
});
