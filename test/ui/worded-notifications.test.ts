import { describe, expect, it } from 'vitest';
import type { TileInfo } from '../../src/control/protocol.js';
import { WordedNotifications } from '../../src/ui/worded-notifications.js';

/** A tile's info as the view gives it; `asks`: the request's words, if they came. */
function tile(state: TileInfo['state'], asks?: string, says?: string): TileInfo {
  return {
    id: 1, name: 'claude', agent: 'claude', state, kind: 'permission', source: 'psp', confidence: 'first-party', reason: '', sinceMs: 0,
    ...(says ? { says } : {}),
    ...(state === 'blocked' ? { request: { id: 'r1', asks: asks ?? '', options: [] } } : {}),
  } as TileInfo;
}

function setup(initial: TileInfo) {
  let current: TileInfo | undefined = initial;
  const sent: string[] = [];
  const timers: { run: () => void; live: boolean }[] = [];
  const queue = new WordedNotifications({
    info: () => current,
    send: (info, state) => sent.push(`${state}: ${info.request?.asks || info.says || '(no words)'}`),
    setTimer: (run) => {
      const timer = { run, live: true };
      timers.push(timer);
      return () => void (timer.live = false);
    },
  });
  return {
    queue,
    sent,
    set: (info: TileInfo | undefined) => void (current = info),
    elapse: () => timers.filter((t) => t.live).forEach((t) => ((t.live = false), t.run())),
  };
}

describe("a blocked tile's notification", () => {
  it('goes at once when the words are there, and for a done or a failure always at once', () => {
    const t = setup(tile('blocked', 'approve Bash: npm test'));
    t.queue.ring(tile('blocked', 'approve Bash: npm test'), 'blocked');
    t.queue.ring(tile('done', undefined, 'All green.'), 'done');
    expect(t.sent).toEqual(['blocked: approve Bash: npm test', 'done: All green.']);
  });

  it('waits for the words (OSC 7501 blocked came before the hook that names the command), then goes once', () => {
    const t = setup(tile('blocked'));
    t.queue.ring(tile('blocked'), 'blocked');
    t.queue.changed();
    expect(t.sent).toEqual([]);
    t.set(tile('blocked', 'approve Bash: touch a.txt'));
    t.queue.changed();
    t.queue.changed();
    t.elapse();
    expect(t.sent).toEqual(['blocked: approve Bash: touch a.txt']);
  });

  it('goes without words when none come in time', () => {
    const t = setup(tile('blocked'));
    t.queue.ring(tile('blocked'), 'blocked');
    t.elapse();
    expect(t.sent).toEqual(['blocked: (no words)']);
  });

  it('is not sent when the tile stopped asking meanwhile, or is gone', () => {
    const t = setup(tile('blocked'));
    t.queue.ring(tile('blocked'), 'blocked');
    t.set(tile('working'));
    t.queue.changed();
    t.elapse();
    const gone = setup(tile('blocked'));
    gone.queue.ring(tile('blocked'), 'blocked');
    gone.set(undefined);
    gone.elapse();
    expect([...t.sent, ...gone.sent]).toEqual([]);
  });
});
