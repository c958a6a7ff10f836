import { describe, expect, it } from 'vitest';
import type { Evidence } from '../../../src/record/format.js';
import { derive, initialDerived } from '../../../src/tile/derived/derived.js';

const ID = '33333333-3333-4333-8333-333333333333';

describe('derive', () => {
  it('applies each piece of evidence once to every fold', () => {
    const stream: Evidence[] = [
      { type: 'osc', code: 7, payload: 'file://host/work' },
      { type: 'hook', event: 'UserPromptSubmit', payload: { session_id: ID } },
      { type: 'transcript', path: '/t.jsonl', record: { type: 'assistant', message: { id: 'm', model: 'claude-opus-5-5', usage: { input_tokens: 7, output_tokens: 3 } } } },
      { type: 'hook', event: 'Stop', payload: { session_id: ID, last_assistant_message: 'All done.' } },
    ];
    const derived = stream.reduce((d, e) => derive(d, e, { agent: 'claude', remote: false, state: 'working' }), initialDerived({ id: ID, used: false }));
    expect(derived.words).toEqual({ done: 'All done.' });
    expect(derived.facts.model).toBe('claude-opus-5-5');
    expect(derived.facts.outputTokens).toBe(3);
    expect(derived.conversation).toEqual({ id: ID, used: true });
    expect(derived.folder.folder).toBe('/work');
  });
});
