import { describe, expect, it } from 'vitest';
import { foldConversation, toResume } from '../../../src/tile/derived/conversation.js';
import type { ConversationState } from '../../../src/tile/derived/conversation.js';

const A = '11111111-1111-4111-8111-111111111111';
const B = '22222222-2222-4222-8222-222222222222';

describe('foldConversation', () => {
  it('has something to resume once a turn began in it (Claude, Gemini)', () => {
    let state: ConversationState = { id: A, used: false };
    expect(toResume(state)).toBeNull();
    state = foldConversation('claude', state, { type: 'hook', event: 'SessionStart', payload: { session_id: A } });
    expect(state).toEqual({ id: A, used: false });
    state = foldConversation('claude', state, { type: 'prompt' });
    expect(toResume(state)).toBe(A);
  });

  it('takes a new id the agent reports (after /clear) as empty until its first prompt', () => {
    let state: ConversationState = { id: A, used: true };
    state = foldConversation('claude', state, { type: 'hook', event: 'SessionStart', payload: { session_id: B, source: 'clear' } });
    expect(state).toEqual({ id: B, used: false });
    state = foldConversation('claude', state, { type: 'hook', event: 'UserPromptSubmit', payload: { session_id: B } });
    expect(state).toEqual({ id: B, used: true });
  });

  it("takes a Codex thread as used from the start (it is reported only once it has a prompt), not its title thread", () => {
    const none: ConversationState = { id: null, used: false };
    expect(foldConversation('codex', none, { type: 'notify', payload: { 'thread-id': A, 'input-messages': ['fix it'] } })).toEqual({ id: A, used: true });
    expect(foldConversation('codex', none, { type: 'notify', payload: { 'thread-id': A, 'input-messages': ['Generate a concise, single-line task title for …'] } })).toBe(none);
  });

  it('changes nothing for evidence that names no conversation and starts no turn', () => {
    const state: ConversationState = { id: A, used: false };
    expect(foldConversation('claude', state, { type: 'seen' })).toBe(state);
    expect(foldConversation('shell', state, { type: 'hook', event: 'SessionStart', payload: { session_id: B } })).toBe(state);
  });
});
