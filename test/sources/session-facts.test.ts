import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeFacts, readFacts } from '../../src/sources/transcript/session-facts.js';
import type { SessionFacts } from '../../src/sources/transcript/session-facts.js';

describe('readFacts', () => {
  it("reads Claude's model, context and output tokens, counting a message once across its blocks", () => {
    const block = (id: string, input: number, out: number) => ({
      type: 'assistant',
      message: { id, model: 'claude-opus-5-5', usage: { input_tokens: input, cache_read_input_tokens: 20_000, cache_creation_input_tokens: 4_000, output_tokens: out } },
    });
    let facts: SessionFacts = {};
    for (const record of [block('m1', 1000, 50), block('m1', 1000, 50), block('m2', 2000, 70)]) facts = readFacts(facts, record);
    expect(facts).toMatchObject({ model: 'claude-opus-5-5', contextTokens: 26_000, contextWindow: 200_000, outputTokens: 120 });
    expect(describeFacts(facts)).toBe('opus-5-5 · 13% context');
  });

  it("reads Codex's model and token counts from its rollout", () => {
    let facts: SessionFacts = {};
    facts = readFacts(facts, { type: 'turn_context', payload: { model: 'gpt-5.5-codex' } });
    facts = readFacts(facts, { type: 'event_msg', payload: { type: 'token_count', info: { total_token_usage: { output_tokens: 900 }, last_token_usage: { input_tokens: 54_400 }, model_context_window: 272_000 } } });
    expect(facts).toEqual({ model: 'gpt-5.5-codex', contextTokens: 54_400, outputTokens: 900, contextWindow: 272_000 });
    expect(describeFacts(facts)).toBe('gpt-5.5-codex · 20% context');
  });

  it('ignores records that do not fit, and subagents (sidechains)', () => {
    expect(readFacts({}, null)).toEqual({});
    expect(readFacts({}, { type: 'assistant', isSidechain: true, message: { model: 'x', usage: { input_tokens: 5 } } })).toEqual({});
    expect(describeFacts({})).toBeNull();
  });

  it('reads the model from a real Claude 2.1.332 transcript (a recorded fixture)', () => {
    const file = join(import.meta.dirname, '..', '..', 'fixtures', 'claude-2.1.332', 'hooks-psp', 'plain-turn.jsonl');
    let facts: SessionFacts = {};
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (!line) continue;
      const value = JSON.parse(line) as { type: string; record?: unknown };
      if (value.type === 'transcript') facts = readFacts(facts, value.record);
    }
    expect(facts.model).toBe('claude-opus-5-5');
    expect(facts.contextTokens).toBeGreaterThan(0);
  });
});
