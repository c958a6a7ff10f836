import { describe, expect, it } from 'vitest';
import { codexRolloutSignals } from '../../src/sources/transcript/codex-rollout.js';

const ev = (payload: Record<string, unknown>) => ({ timestamp: '2026-11-30T10:12:00.000Z', type: 'event_msg', payload });

describe('codex rollout meaning', () => {
  it('brackets a turn with task_started / task_complete, and turn_aborted is an interrupt', () => {
    expect(codexRolloutSignals(ev({ type: 'task_started', model_context_window: 1000 }))).toEqual([{ type: 'turn-start', real: true, source: 'transcript' }]);
    expect(codexRolloutSignals(ev({ type: 'task_complete', duration_ms: 7000, last_agent_message: 'done' }))).toEqual([
      { type: 'turn-end', detail: 'turn took 7000 ms', source: 'transcript' },
    ]);
    expect(codexRolloutSignals(ev({ type: 'turn_aborted', reason: 'interrupted' }))).toEqual([{ type: 'interrupted', source: 'transcript' }]);
  });

  it('everything else says nothing', () => {
    expect(codexRolloutSignals(ev({ type: 'agent_message', message: 'hi' }))).toEqual([]);
    expect(codexRolloutSignals({ type: 'response_item', payload: { type: 'message' } })).toEqual([]);
    expect(codexRolloutSignals({ type: 'session_meta', payload: { id: 't' } })).toEqual([]);
    expect(codexRolloutSignals(null)).toEqual([]);
  });
});
