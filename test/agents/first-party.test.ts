import { describe, expect, it } from 'vitest';
import { firstPartyFor } from '../../src/agents/first-party/registry.js';
import { CODING_AGENTS } from '../../src/agents/profile.js';

describe('first-party wiring per agent', () => {
  it('exists for each coding agent and for nothing else', () => {
    for (const agent of CODING_AGENTS) expect(firstPartyFor(agent)).not.toBeNull();
    expect(firstPartyFor('shell')).toBeNull();
    expect(firstPartyFor('command')).toBeNull();
  });

  it('asks the version of the agents whose hooks depend on it (Claude, Codex)', () => {
    expect(firstPartyFor('claude')?.versionMatters).toBe(true);
    expect(firstPartyFor('codex')?.versionMatters).toBe(true);
    expect(firstPartyFor('gemini')?.versionMatters).toBe(false);
  });

  it('has hooks over ssh for Claude Code only', () => {
    expect(firstPartyFor('claude')?.remoteHooks).toBeTypeOf('function');
    expect(firstPartyFor('codex')?.remoteHooks).toBeUndefined();
    expect(firstPartyFor('gemini')?.remoteHooks).toBeUndefined();
  });

  it("reads Codex's notify program, which comes through the hook relay, as notify evidence", () => {
    const payload = { type: 'agent-turn-complete' };
    expect(firstPartyFor('codex')?.evidence('notify', payload)).toEqual({ type: 'notify', payload });
    expect(firstPartyFor('codex')?.evidence('SessionStart', payload)).toEqual({ type: 'hook', event: 'SessionStart', payload });
    expect(firstPartyFor('claude')?.evidence('notify', payload)).toEqual({ type: 'hook', event: 'notify', payload });
  });
});
