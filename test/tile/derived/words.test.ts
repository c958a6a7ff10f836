import { describe, expect, it } from 'vitest';
import type { Evidence } from '../../../src/record/format.js';
import { foldWords, NO_WORDS } from '../../../src/tile/derived/words.js';
import type { TileWords } from '../../../src/tile/derived/words.js';
import type { TileStateName } from '../../../src/verdict/state.js';

const permission: Evidence = { type: 'hook', event: 'PermissionRequest', payload: { tool_name: 'Bash', tool_input: { command: 'make deploy' } } };
const reminder: Evidence = { type: 'hook', event: 'Notification', payload: { notification_type: 'permission_prompt', message: 'Claude needs your permission to use Bash' } };
const stop: Evidence = { type: 'hook', event: 'Stop', payload: { last_assistant_message: 'Deployed.' } };

function fold(evidence: readonly Evidence[], state: TileStateName = 'idle', from: TileWords = NO_WORDS): TileWords {
  return evidence.reduce((words, e) => foldWords(words, e, state), from);
}

describe('foldWords', () => {
  it('keeps the latest words per state they explain', () => {
    expect(fold([permission, stop])).toEqual({ blocked: 'approve Bash `make deploy`', done: 'Deployed.' });
  });

  it('forgets the last turn’s words when a new turn starts', () => {
    expect(fold([permission, stop, { type: 'prompt' }])).toEqual({});
    expect(fold([stop, { type: 'hook', event: 'UserPromptSubmit', payload: {} }, permission])).toEqual({ blocked: 'approve Bash `make deploy`' });
  });

  it('lets a reminder not replace what a standing request asks, but say it when nothing was said', () => {
    const asked = fold([permission]);
    expect(foldWords(asked, reminder, 'blocked')).toBe(asked);
    expect(foldWords(asked, reminder, 'working')).toEqual({ blocked: 'Claude needs your permission to use Bash' });
    expect(foldWords(NO_WORDS, reminder, 'blocked')).toEqual({ blocked: 'Claude needs your permission to use Bash' });
  });

  it("the agent's OSC 7501 working starts a turn only from rest: while it works or asks it is the same turn", () => {
    const working: Evidence = { type: 'osc', code: 7501, payload: 'state=working:app=claude-code' };
    // Claude Code says working again just before its permission dialog; read after the hook that
    // named the request (a loaded machine), it must not forget what is asked.
    const asked = fold([permission]);
    expect(foldWords(asked, working, 'blocked')).toBe(asked);
    expect(foldWords(asked, working, 'working')).toBe(asked);
    // From rest it is the next turn: the last turn's words go.
    expect(foldWords(fold([stop]), working, 'done')).toEqual({});
    expect(foldWords(fold([stop]), working, 'idle')).toEqual({});
  });

  it('changes nothing for evidence without words', () => {
    const words = fold([stop]);
    expect(foldWords(words, { type: 'seen' }, 'done')).toBe(words);
    expect(foldWords(words, { type: 'osc', code: 2, payload: '✳ Claude' }, 'done')).toBe(words);
  });
});
