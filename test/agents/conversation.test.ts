import { describe, expect, it } from 'vitest';
import { argsForResume, conversationArgs, freshConversation, reportedConversation } from '../../src/agents/conversation.js';

const id = '0f8a2b8e-6c1d-4c55-9a1e-2f6b7c8d9e01';

describe('the conversation a tile starts or resumes', () => {
  it('Claude and Gemini take an id from belltower; Codex chooses its own', () => {
    expect(freshConversation('claude', () => id)).toEqual({ id, resume: false });
    expect(freshConversation('gemini', () => id)).toEqual({ id, resume: false });
    expect(freshConversation('codex')).toBeNull();
    expect(freshConversation('shell')).toBeNull();
  });

  it("each agent's own flags, as checked on the pinned binaries", () => {
    expect(conversationArgs('claude', { id, resume: false })).toEqual(['--session-id', id]);
    expect(conversationArgs('claude', { id, resume: true })).toEqual(['--resume', id]);
    expect(conversationArgs('gemini', { id, resume: true })).toEqual(['--resume', id]);
    expect(conversationArgs('codex', { id, resume: true })).toEqual(['resume', id]);
    expect(conversationArgs('codex', { id, resume: false })).toEqual([]);
    expect(conversationArgs('command', { id, resume: true })).toEqual([]);
  });

  it('hears the id the agent reports, never the Codex title thread, never a shape that could be an option', () => {
    expect(reportedConversation('claude', { type: 'hook', event: 'SessionStart', payload: { session_id: id } })).toBe(id);
    expect(reportedConversation('codex', { type: 'notify', payload: { 'thread-id': id, 'input-messages': ['Remember PINEAPPLE'] } })).toBe(id);
    expect(reportedConversation('codex', { type: 'notify', payload: { 'thread-id': id, 'input-messages': ['Generate a concise, single-line task title of at most 36'] } })).toBeNull();
    expect(reportedConversation('claude', { type: 'hook', event: 'Stop', payload: { session_id: '--dangerously-skip-permissions' } })).toBeNull();
    expect(reportedConversation('claude', { type: 'hook', event: 'Stop', payload: { session_id: 'a b' } })).toBeNull();
    expect(reportedConversation('shell', { type: 'hook', event: 'Stop', payload: { session_id: id } })).toBeNull();
    expect(reportedConversation('claude', { type: 'prompt' })).toBeNull();
  });

  it('a resumed agent is not handed its first prompt again; its options stay', () => {
    expect(argsForResume('claude', ['--model', 'opus', 'fix the tests'])).toEqual(['--model', 'opus']);
    expect(argsForResume('claude', ['fix the tests', '--verbose'])).toEqual(['--verbose']);
    expect(argsForResume('codex', ['-m', 'o3', '-c', 'x=1', 'do it'])).toEqual(['-m', 'o3', '-c', 'x=1']);
    expect(argsForResume('gemini', ['-i', 'fix the tests', '--model', 'flash'])).toEqual(['--model', 'flash']);
    expect(argsForResume('claude', ['--settings=x.json', '--', '-not-an-option'])).toEqual(['--settings=x.json']);
  });
});
