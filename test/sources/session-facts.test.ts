import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeFacts, readFacts, tokenCount } from '../../src/sources/transcript/session-facts.js';
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
    // Used in all: each call's whole prompt (cached or not) and its output, once per message.
    expect(facts.totalTokens).toBe(1000 + 20_000 + 4_000 + 50 + (2000 + 20_000 + 4_000 + 70));
    expect(describeFacts(facts)).toBe('opus-5-5 · 13% context · 51k tokens');
  });

  it("reads the real Codex's tokens as its rollout states them (0.169.1, recorded whole)", () => {
    const file = join(import.meta.dirname, '..', '..', 'fixtures', 'codex-0.169.1', 'background-job.jsonl');
    const records = readFileSync(file, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { type: string; record?: Record<string, unknown> }).flatMap((line) => (line.type === 'transcript' && line.record ? [line.record] : []));
    let facts: SessionFacts = {};
    for (const record of records) facts = readFacts(facts, record);
    // What Codex itself says it used so far: its last token_count's running total.
    const counts = records.filter((r) => (r.payload as { type?: string } | undefined)?.type === 'token_count');
    const last = (counts.at(-1)!.payload as { info: { total_token_usage: { total_tokens: number; output_tokens: number }; model_context_window: number } }).info;
    expect(counts.length).toBeGreaterThan(1);
    expect(facts.totalTokens).toBe(last.total_token_usage.total_tokens);
    expect(facts.outputTokens).toBe(last.total_token_usage.output_tokens);
    expect(facts.contextWindow).toBe(last.model_context_window);
  });

  it("reads Codex's model and token counts from its rollout", () => {
    let facts: SessionFacts = {};
    facts = readFacts(facts, { type: 'turn_context', payload: { model: 'gpt-5.5-codex' } });
    facts = readFacts(facts, { type: 'event_msg', payload: { type: 'token_count', info: { total_token_usage: { input_tokens: 61_000, output_tokens: 900, total_tokens: 61_900 }, last_token_usage: { input_tokens: 54_400 }, model_context_window: 272_000 } } });
    expect(facts).toEqual({ model: 'gpt-5.5-codex', contextTokens: 54_400, outputTokens: 900, totalTokens: 61_900, contextWindow: 272_000 });
    expect(describeFacts(facts)).toBe('gpt-5.5-codex · 20% context · 62k tokens');
    // Without its total, what it read and wrote.
    expect(readFacts({}, { type: 'event_msg', payload: { type: 'token_count', info: { total_token_usage: { input_tokens: 100, output_tokens: 20 } } } }).totalTokens).toBe(120);
  });

  it("reads Gemini CLI's model and tokens from its chat, each message once though it is written again", () => {
    const message = (id: string, tokens: Record<string, number> | null) => ({ id, type: 'gemini', content: 'x', model: 'gemini-3-pro', ...(tokens ? { tokens } : {}) });
    let facts: SessionFacts = {};
    for (const record of [
      { id: 'u1', type: 'user', content: 'hi' },
      message('g1', null),
      message('g1', { input: 900, output: 40, cached: 0, thoughts: 10, tool: 0, total: 950 }),
      message('g1', { input: 900, output: 40, cached: 0, thoughts: 10, tool: 0, total: 950 }),
      message('g2', { input: 1200, output: 60, cached: 0, thoughts: 0, tool: 0, total: 1260 }),
    ]) facts = readFacts(facts, record);
    expect(facts).toMatchObject({ model: 'gemini-3-pro', contextTokens: 1200, outputTokens: 100, totalTokens: 2210 });
    expect(describeFacts(facts)).toBe('gemini-3-pro · 2.2k tokens');
  });

  it('says token counts as people read them', () => {
    expect([950, 1000, 1250, 9_960, 48_400, 999_499, 1_200_000, 12_600_000].map(tokenCount)).toEqual(['950', '1k', '1.3k', '10k', '48k', '999k', '1.2M', '13M']);
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
    // The tokens used are the transcript's own usage numbers, one message at a time.
    const usages = new Map<string, Record<string, number>>();
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      const value = line ? (JSON.parse(line) as { type: string; record?: { type?: string; isSidechain?: boolean; message?: { id?: string; usage?: Record<string, number> } } }) : null;
      const message = value?.type === 'transcript' && value.record?.type === 'assistant' && !value.record.isSidechain ? value.record.message : undefined;
      if (message?.id && message.usage) usages.set(message.id, message.usage);
    }
    expect(usages.size).toBeGreaterThan(0);
    const sum = [...usages.values()].reduce((n, u) => n + (u.input_tokens ?? 0) + (u.cache_read_input_tokens ?? 0) + (u.cache_creation_input_tokens ?? 0) + (u.output_tokens ?? 0), 0);
    expect(facts.totalTokens).toBe(sum);
  });
});
