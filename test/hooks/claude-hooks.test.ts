import { describe, expect, it } from 'vitest';
import { claudeHookForRecording, claudeHookSignals, claudeTranscriptSwitch } from '../../src/sources/hooks/claude-hooks.js';
import { claude } from './claude-payload-shapes.js';

const map = (payload: { hook_event_name: string }) => claudeHookSignals(payload.hook_event_name, payload);

describe('claude hook → signals', () => {
  it('UserPromptSubmit starts a turn; a <task-notification> prompt is not a real one', () => {
    expect(map(claude.prompt)).toEqual([{ type: 'turn-start', real: true, source: 'hook' }]);
    expect(map(claude.taskNotification)).toEqual([{ type: 'turn-start', real: false, source: 'hook' }]);
  });

  it('tool events say working with the tool name', () => {
    for (const p of [claude.preTool, claude.postTool, claude.postToolFailure]) {
      expect(map(p)).toEqual([{ type: 'working', detail: 'Bash', source: 'hook' }]);
    }
    expect(map(claude.postToolAsync)).toEqual([{ type: 'working', detail: 'Agent', source: 'hook' }]);
  });

  it('Stop ends the turn with the running background tasks (ids kept, finished ones dropped)', () => {
    expect(map(claude.stop)).toEqual([{ type: 'turn-end', background: [], detail: 'last message: 15 chars', source: 'hook' }]);
    expect(map(claude.stopWithShell)).toEqual([
      { type: 'turn-end', background: [{ id: 'bash_1', type: 'shell' }], detail: 'last message: 37 chars', source: 'hook' },
    ]);
    expect(map(claude.stopWithSubagent)[0]).toMatchObject({ type: 'turn-end', background: [{ id: 'agent_a1', type: 'subagent' }] });
    expect(map(claude.stopAfterBlock)[0]?.type).toBe('turn-end');
    expect((map(claude.stopAfterBlock)[0] as { detail: string }).detail).toContain('after a Stop hook');
  });

  it('Stop without a background list says nothing about background work', () => {
    const { background_tasks: _, ...bare } = claude.stop;
    expect(map(bare)).toEqual([{ type: 'turn-end', detail: 'last message: 15 chars', source: 'hook' }]);
  });

  it('folds unknown and internal task type names, and skips malformed entries', () => {
    const odd = {
      ...claude.stop,
      background_tasks: [
        { id: 'a', type: 'local_bash', status: 'running' },
        { id: 'b', type: 'in_process_teammate', status: 'running', name: 'rev' },
        { id: 'c', type: 'remote_agent', status: 'running' },
        { id: 'd', type: 'monitor', status: 'running' },
        { type: 'shell', status: 'running' },
        'junk',
      ],
    };
    expect(map(odd)[0]).toMatchObject({
      background: [
        { id: 'a', type: 'shell' },
        { id: 'b', type: 'teammate', name: 'rev' },
        { id: 'c', type: 'subagent' },
        { id: 'd', type: 'other' },
      ],
    });
  });

  it('StopFailure is a failed turn carrying the error', () => {
    expect(map(claude.stopFailure)).toEqual([{ type: 'failed', detail: 'invalid_request', source: 'hook' }]);
    const { error: _, ...noError } = claude.stopFailure;
    expect(map(noError)[0]).toMatchObject({ type: 'failed', detail: 'API Error: 400 {"type":"error"}' });
  });

  it('permission requests and prompts block (a Notification as a reminder of the request); idle_prompt and auth notices say nothing', () => {
    expect(map(claude.permissionRequest)).toEqual([{ type: 'blocked', kind: 'permission', detail: 'approve Bash', source: 'hook' }]);
    // AskUserQuestion goes through the permission flow too: it is a question, whichever channel
    // says it first (OSC 7501 says kind=question).
    const question = { ...claude.permissionRequest, tool_name: 'AskUserQuestion', tool_input: { questions: [{ question: 'Which database?' }] } };
    expect(map(question)).toEqual([{ type: 'blocked', kind: 'question', detail: 'approve AskUserQuestion', source: 'hook' }]);
    expect(map(claude.notifyPermission)).toEqual([
      { type: 'blocked', kind: 'permission', reminder: true, detail: 'Claude needs your permission to use Bash', source: 'hook' },
    ]);
    expect(map(claude.notifyElicitation)[0]).toMatchObject({ type: 'blocked', kind: 'question' });
    expect(map(claude.notifyIdle)).toEqual([]);
    expect(map(claude.notifyAuth)).toEqual([]);
  });

  it('an untyped Notification (Claude Code before 2.0.37) is read by its words: the permission one blocks, the idle one says nothing', () => {
    // 1.0.128, observed: ~6 s after the dialog, and 60 s after a turn; no notification_type.
    const base = { session_id: 's', transcript_path: '/t.jsonl', cwd: '/w', hook_event_name: 'Notification' };
    const said = (message: string) => map(Object.assign({ message }, base));
    expect(said('Claude needs your permission to use Bash')).toEqual([
      { type: 'blocked', kind: 'permission', reminder: true, detail: 'Claude needs your permission', source: 'hook' },
    ]);
    expect(said('Claude is waiting for your input')).toEqual([]);
    expect(map(base)).toEqual([]);
    // The recording keeps the words it read (the fixed ones, not the tool), so a replay blocks the same way.
    const kept = claudeHookForRecording('Notification', { ...base, message: 'Claude needs your permission to use Bash' });
    expect(kept).toEqual({ session_id: 's', hook_event_name: 'Notification', message: 'Claude needs your permission' });
    expect(claudeHookSignals('Notification', kept)).toEqual(said('Claude needs your permission to use Bash'));
    expect(claudeHookForRecording('Notification', { ...base, message: 'Claude is waiting for your input' })).toEqual({ session_id: 's', hook_event_name: 'Notification' });
  });

  it('/clear and /compact are quiet latches; other session ends are session-end', () => {
    expect(map(claude.sessionEndClear)).toEqual([{ type: 'quiet-latch', why: 'clear', phase: 'begin', source: 'hook' }]);
    expect(map(claude.sessionStartClear)).toEqual([{ type: 'quiet-latch', why: 'clear', phase: 'end', source: 'hook' }]);
    expect(map(claude.preCompact)).toEqual([{ type: 'quiet-latch', why: 'compact', phase: 'begin', source: 'hook' }]);
    expect(map(claude.sessionStartCompact)).toEqual([{ type: 'quiet-latch', why: 'compact', phase: 'end', source: 'hook' }]);
    expect(map(claude.postCompact)).toEqual([{ type: 'quiet-latch', why: 'compact', phase: 'end', source: 'hook' }]);
    expect(map(claude.sessionEndExit)).toEqual([{ type: 'session-end', reason: 'prompt_input_exit', source: 'hook' }]);
  });

  it('start-up and resume are at rest (waiting for a prompt), never a finished turn', () => {
    expect(map(claude.sessionStartStartup)).toEqual([{ type: 'at-rest', detail: 'session startup', source: 'hook' }]);
    expect(map(claude.sessionStartResume)).toEqual([{ type: 'at-rest', detail: 'session resume', source: 'hook' }]);
  });

  it('subagents are counted by agent_id; a SubagentStop drops its own entry from the list', () => {
    expect(map(claude.subagentStart)).toEqual([{ type: 'subagent-start', id: 'agent_a1', source: 'hook' }]);
    expect(map(claude.subagentStop)).toEqual([
      { type: 'subagent-stop', id: 'agent_a1', background: [{ id: 'agent_b2', type: 'subagent' }], source: 'hook' },
    ]);
    expect(map(claude.compactionSubagentStop)).toEqual([{ type: 'subagent-stop', id: 'compact_1', background: [], source: 'hook' }]);
    expect(map(claude.teammateIdle)).toEqual([{ type: 'teammate-idle', name: 'reviewer', source: 'hook' }]);
  });

  it('yields nothing (never throws) for unknown events and payloads missing their fields', () => {
    expect(map(claude.messageDisplay)).toEqual([]);
    for (const event of ['UserPromptSubmit', 'PreToolUse', 'Stop', 'SessionEnd', 'SessionStart', 'SubagentStart', 'TeammateIdle', 'Notification']) {
      expect(claudeHookSignals(event, { hook_event_name: event }), event).toEqual([]);
      expect(claudeHookSignals(event, null), event).toEqual([]);
      expect(claudeHookSignals(event, 'garbage'), event).toEqual([]);
    }
    expect(claudeHookSignals('UserPromptSubmit', { session_id: 's', prompt: 42 })).toEqual([]);
  });

  it('only SessionStart moves the transcript tail', () => {
    expect(claudeTranscriptSwitch('SessionStart', claude.sessionStartClear)).toBe(claude.sessionStartClear.transcript_path);
    expect(claudeTranscriptSwitch('SessionEnd', claude.sessionEndClear)).toBeUndefined();
    expect(claudeTranscriptSwitch('Stop', claude.stop)).toBeUndefined();
  });
});
