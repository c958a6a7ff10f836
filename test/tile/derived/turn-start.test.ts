import { describe, expect, it } from 'vitest';
import { startsTurn } from '../../../src/tile/derived/turn-start.js';

describe('startsTurn', () => {
  it('is the user submitting, or the agent saying its prompt came', () => {
    expect(startsTurn({ type: 'prompt' })).toBe(true);
    expect(startsTurn({ type: 'prompt', local: true })).toBe(true);
    expect(startsTurn({ type: 'hook', event: 'UserPromptSubmit', payload: {} })).toBe(true);
    expect(startsTurn({ type: 'hook', event: 'BeforeAgent', payload: {} })).toBe(true);
    expect(startsTurn({ type: 'osc', code: 7501, payload: 'state=working' })).toBe(true);
    expect(startsTurn({ type: 'osc', code: 7501, payload: 'state=working:app=claude' })).toBe(true);
  });

  it("is not a subagent's work, another state, or any other evidence", () => {
    expect(startsTurn({ type: 'osc', code: 7501, payload: 'state=working:id=sub-1' })).toBe(false);
    expect(startsTurn({ type: 'osc', code: 7501, payload: 'state=workingish' })).toBe(false);
    expect(startsTurn({ type: 'osc', code: 7501, payload: 'state=done' })).toBe(false);
    expect(startsTurn({ type: 'osc', code: 2, payload: 'state=working' })).toBe(false);
    expect(startsTurn({ type: 'hook', event: 'Stop', payload: {} })).toBe(false);
    expect(startsTurn({ type: 'seen' })).toBe(false);
    expect(startsTurn({ type: 'spawn' })).toBe(false);
  });
});
