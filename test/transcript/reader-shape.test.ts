import { describe, expect, it } from 'vitest';
import type { TranscriptReader } from '../../src/agents/profile.js';
import { claudeTranscriptReader } from '../../src/sources/transcript/claude-transcript.js';
import { codexRolloutReader } from '../../src/sources/transcript/codex-rollout.js';
import { r } from './claude-records.js';

describe('readers in the profile shape', () => {
  it('plug into AgentProfile.transcript', () => {
    const readers: TranscriptReader[] = [claudeTranscriptReader, codexRolloutReader];
    const claude = readers[0] as TranscriptReader;
    const { signals } = claude.read(claude.initial(), r.prompt);
    expect(signals).toEqual([{ type: 'turn-start', real: true, source: 'transcript' }]);
    const codex = readers[1] as TranscriptReader;
    expect(codex.read(codex.initial(), { type: 'event_msg', payload: { type: 'task_complete' } }).signals[0]?.type).toBe('turn-end');
  });
});
