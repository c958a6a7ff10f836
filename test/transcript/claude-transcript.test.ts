import { describe, expect, it } from 'vitest';
import {
  INITIAL_CLAUDE_TRANSCRIPT,
  claudeTranscriptQuiet,
  readClaudeRecord,
  type ClaudeTranscriptState,
} from '../../src/sources/transcript/claude-transcript.js';
import type { SourceSignal } from '../../src/verdict/signals.js';
import { r } from './claude-records.js';

/** Feeds records in order; `'quiet'` stands for "the file stayed quiet for a while". */
function run(steps: (unknown | 'quiet')[], start: ClaudeTranscriptState = INITIAL_CLAUDE_TRANSCRIPT) {
  let state = start;
  const signals: SourceSignal[] = [];
  for (const step of steps) {
    const read = step === 'quiet' ? claudeTranscriptQuiet(state) : readClaudeRecord(state, step);
    state = read.state;
    signals.push(...read.signals);
  }
  return { state, signals, types: signals.map((s) => s.type) };
}

describe('claude transcript meaning', () => {
  it('a plain turn: prompt → working → end_turn → marker = one turn-end, from the marker', () => {
    const { signals, state } = run([r.prompt, r.thinking, r.text, r.toolUse, r.preToolHookAttachment, r.toolResult, r.endTurn, r.stopHookAttachment, r.stopHookSummary, r.turnDuration, 'quiet']);
    expect(signals).toEqual([
      { type: 'turn-start', real: true, source: 'transcript' },
      { type: 'working', source: 'transcript' },
      { type: 'working', source: 'transcript' },
      { type: 'working', detail: 'Bash', source: 'transcript' },
      { type: 'working', detail: 'tool result', source: 'transcript' },
      { type: 'turn-end', detail: 'turn took 1234 ms', source: 'transcript' },
    ]);
    expect(state.writesMarkers).toBe(true);
  });

  it('a prompt queued mid-turn: only its removal from the queue (taken into the turn) is a signal', () => {
    // Shapes observed on 2.1.332: enqueue when typed, then dequeue (its own turn) or remove.
    const enqueue = { type: 'queue-operation', operation: 'enqueue', content: 'and then this' };
    const dequeue = { type: 'queue-operation', operation: 'dequeue' };
    const remove = { type: 'queue-operation', operation: 'remove', content: 'and then this', reason: 'absorbed_mid_turn' };
    expect(run([enqueue, dequeue]).signals).toEqual([]);
    expect(run([enqueue, remove]).signals).toEqual([{ type: 'queue-absorbed', source: 'transcript' }]);
  });

  it('the marker carries pending background agents', () => {
    expect(run([r.prompt, r.endTurn, r.turnDurationWithAgent]).signals.at(-1)).toEqual({
      type: 'turn-end',
      pendingAgents: 1,
      detail: 'turn took 2000 ms',
      source: 'transcript',
    });
  });

  it('without markers (older Claude), an end_turn ends the turn once the file is quiet', () => {
    const { types } = run([r.prompt, r.text, r.endTurn, r.stopHookAttachment, 'quiet']);
    expect(types).toEqual(['turn-start', 'working', 'turn-end']);
  });

  it('where markers are written, an end_turn alone never ends a turn (interrupt, error or a blocking Stop hook)', () => {
    const learned = run([r.prompt, r.endTurn, r.turnDuration]).state;
    expect(run([r.prompt, r.endTurn, 'quiet'], learned).types).toEqual(['turn-start']);
  });

  it('a tool awaiting its result is working; end_turn with a tool still open is no end', () => {
    const { types, state } = run([r.prompt, r.toolUse, 'quiet']);
    expect(types).toEqual(['turn-start', 'working']);
    expect(state.openTools).toEqual(['toolu_1']);
  });

  it('interrupts and API errors', () => {
    expect(run([r.prompt, r.text, r.interrupted, 'quiet']).signals.at(-1)).toEqual({ type: 'interrupted', source: 'transcript' });
    expect(run([r.prompt, r.toolUse, r.interruptedToolUse]).state.openTools).toEqual([]);
    expect(run([r.prompt, r.toolUse, r.interruptedToolUse]).types.at(-1)).toBe('interrupted');
    expect(run([r.prompt, r.apiError, 'quiet']).signals.slice(1)).toEqual([
      { type: 'failed', detail: 'API Error: 400 {"type":"error"}', source: 'transcript' },
    ]);
    expect(run([r.prompt, r.apiRetry]).signals.at(-1)).toEqual({ type: 'working', detail: 'API error, retrying', source: 'transcript' });
  });

  it('a <task-notification> prompt is a turn the agent started itself', () => {
    expect(run([r.taskNotification]).signals).toEqual([{ type: 'turn-start', real: false, source: 'transcript' }]);
    expect(run([r.promptBlocks]).signals).toEqual([{ type: 'turn-start', real: true, source: 'transcript' }]);
  });

  it('metadata, local commands, meta, summaries and sidechains change nothing', () => {
    const quiet = [r.fileHistory, r.lastPrompt, r.mode, r.permissionMode, r.summary, r.localCommand, r.localStdout, r.meta, r.compactSummary, r.sidechain, r.stopHookAttachment, r.stopHookSummary, null, 'text', 42, { type: 'unknown-kind' }];
    const after = run([r.prompt, r.endTurn]).state;
    const { signals, state } = run(quiet, after);
    expect(signals).toEqual([]);
    expect(state).toEqual(after); // the pending end_turn survives late metadata
  });
});
