import { describe, expect, it } from 'vitest';
import { codexRecordForRecording, codexRolloutSignals } from '../../src/sources/transcript/codex-rollout.js';
import { geminiChatSignals } from '../../src/sources/transcript/gemini-chat.js';

const ev = (payload: Record<string, unknown>) => ({ timestamp: '2026-11-30T10:12:00.000Z', type: 'event_msg', payload });
/** When `ev`'s records were written, in ms since the Unix epoch: each signal carries it. */
const wall = Date.parse('2026-11-30T10:12:00.000Z');

describe('codex rollout meaning', () => {
  it('brackets a turn with task_started / task_complete, and turn_aborted is an interrupt', () => {
    expect(codexRolloutSignals(ev({ type: 'task_started', model_context_window: 1000 }))).toEqual([{ type: 'turn-start', real: true, source: 'transcript', wall }]);
    expect(codexRolloutSignals(ev({ type: 'task_complete', duration_ms: 7000, last_agent_message: 'done' }))).toEqual([
      { type: 'turn-end', detail: 'turn took 7000 ms', source: 'transcript', wall },
    ]);
    expect(codexRolloutSignals(ev({ type: 'turn_aborted', reason: 'interrupted' }))).toEqual([{ type: 'interrupted', source: 'transcript', wall }]);
  });

  it('a command still running when Codex hands back to the model opens a child; its completion closes it', () => {
    // Shapes observed on 0.171.0 (trimmed).
    const running = {
      type: 'response_item',
      payload: { type: 'function_call_output', call_id: 'call_wsq', output: 'Chunk ID: 281bba\nWall time: 0.5006 seconds\nProcess running with session ID 28719\nOriginal token count: 0\nOutput:\n' },
    };
    const finished = { type: 'response_item', payload: { type: 'function_call_output', call_id: 'call_x', output: 'Chunk ID: 1\nProcess exited with code 0\nOutput:\nhi\n' } };
    const completed = ev({ type: 'item_completed', item: { type: 'CommandExecution', id: 'call_wsq', process_id: '28719', command: ['/bin/bash', '-lc', 'sleep 8'] } });
    expect(codexRolloutSignals(running)).toEqual([{ type: 'child', id: 'call_wsq', open: true, detail: 'a command still running', source: 'transcript' }]);
    expect(codexRolloutSignals(finished)).toEqual([]);
    expect(codexRolloutSignals(completed)).toEqual([{ type: 'child', id: 'call_wsq', open: false, detail: 'command finished', source: 'transcript', wall }]);
    expect(codexRolloutSignals(ev({ type: 'item_completed', item: { type: 'AgentMessage', id: 'msg_1' } }))).toEqual([]);
  });

  it('each signal carries when Codex wrote its record; a recording keeps that time (issue 24, item 6)', () => {
    // The prompt record of a real 0.171.0 approval run: written 6 ms after OSC 7501 working, read
    // 95 ms later (the tail starts when SessionStart names the file).
    const record = { timestamp: '2026-12-02T15:07:50.731Z', type: 'event_msg', payload: { type: 'task_started', turn_id: '01a2374c-3447', model_context_window: 258400 } };
    expect(codexRolloutSignals(record)).toEqual([{ type: 'turn-start', real: true, source: 'transcript', wall: Date.parse('2026-12-02T15:07:50.731Z') }]);
    const kept = codexRecordForRecording(record);
    expect(kept).toEqual({ timestamp: '2026-12-02T15:07:50.731Z', type: 'event_msg', payload: { type: 'task_started' } });
    // Replay reads the kept record to the same signals.
    expect(codexRolloutSignals(kept)).toEqual(codexRolloutSignals(record));
    // A record without a time (or with a broken one) is as old as its reading.
    expect(codexRolloutSignals({ ...record, timestamp: 'yesterday' })).toEqual([{ type: 'turn-start', real: true, source: 'transcript' }]);
  });

  it('everything else says nothing', () => {
    expect(codexRolloutSignals(ev({ type: 'agent_message', message: 'hi' }))).toEqual([]);
    expect(codexRolloutSignals({ type: 'response_item', payload: { type: 'message' } })).toEqual([]);
    expect(codexRolloutSignals({ type: 'session_meta', payload: { id: 't' } })).toEqual([]);
    expect(codexRolloutSignals(null)).toEqual([]);
  });
});

describe('gemini chat meaning', () => {
  it('an API error record is failed, "Request cancelled." is an interrupt; the rest restates the hooks', () => {
    // Records observed on 0.61.0, written just before AfterAgent.
    expect(geminiChatSignals({ id: 'x', type: 'error', content: '[API Error: {"error":{"code":400,"message":"belltower probe error","status":"INVALID_ARGUMENT"}}]' })).toEqual([
      { type: 'failed', detail: '[API Error: {"error":{"code":400,"message":"belltower probe error","status":"INVALID_ARGUMENT"}}]', source: 'transcript' },
    ]);
    expect(geminiChatSignals({ id: 'y', type: 'info', content: 'Request cancelled.' })).toEqual([{ type: 'interrupted', source: 'transcript' }]);
    expect(geminiChatSignals({ id: 'z', type: 'info', content: 'This request failed. Press F12 for diagnostics' })).toEqual([]);
    expect(geminiChatSignals({ id: 'u', type: 'user', content: [{ text: 'Do the thing' }] })).toEqual([]);
    expect(geminiChatSignals({ $set: { lastUpdated: '2026-12-01T03:46:54.857Z' } })).toEqual([]);
  });
});
