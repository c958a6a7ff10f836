import { describe, expect, it } from 'vitest';
import { foldFacts, shownFacts } from '../../../src/tile/derived/facts.js';

const assistant = (id: string, output: number) => ({
  type: 'assistant',
  message: { id, model: 'claude-opus-5-5', usage: { input_tokens: 20, cache_read_input_tokens: 5, output_tokens: output } },
});

describe('foldFacts', () => {
  it('reads the model and tokens from transcript evidence only', () => {
    const facts = [assistant('m1', 10), assistant('m1', 10), assistant('m2', 2)].reduce((f, record) => foldFacts(f, { type: 'transcript', path: '/t.jsonl', record }), {});
    expect(shownFacts(facts)).toEqual({ model: 'claude-opus-5-5', contextWindow: 200_000, contextTokens: 25, outputTokens: 12, totalTokens: 62 });
    expect(foldFacts(facts, { type: 'hook', event: 'Stop', payload: { model: 'other' } })).toBe(facts);
  });

  it('shows nothing until there is a model or a context size', () => {
    expect(shownFacts({})).toBeUndefined();
    expect(shownFacts({ outputTokens: 3 })).toBeUndefined();
    expect(shownFacts({ contextTokens: 0 })).toEqual({ contextTokens: 0 });
  });
});
