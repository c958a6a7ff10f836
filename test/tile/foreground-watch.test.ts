import { afterEach, describe, expect, it } from 'vitest';
import { ForegroundWatch } from '../../src/tile/foreground-watch.js';

const watches: ForegroundWatch[] = [];
afterEach(() => {
  for (const w of watches.splice(0)) w.stop();
});

function watch(facts: { busy: boolean; reading: boolean; fullScreen: boolean }) {
  const changes: [boolean, boolean][] = [];
  const w = new ForegroundWatch({
    shellPid: 1,
    busy: () => facts.busy,
    fullScreen: () => facts.fullScreen,
    read: (pid) => ({ pid, reading: facts.reading }),
    onChange: (reading, fullScreen) => changes.push([reading, fullScreen]),
    intervalMs: 60_000,
  });
  watches.push(w);
  return { w, changes };
}

describe('ForegroundWatch', () => {
  it('reports changes only, never a steady state', () => {
    const facts = { busy: true, reading: false, fullScreen: false };
    const { w, changes } = watch(facts);
    w.check();
    w.check();
    expect(changes).toEqual([]);
    facts.reading = true;
    w.check();
    w.check();
    facts.fullScreen = true;
    w.check();
    expect(changes).toEqual([
      [true, false],
      [true, true],
    ]);
  });

  it('forgets what it saw when the command ends, so the next command starts from nothing known', () => {
    const facts = { busy: true, reading: true, fullScreen: false };
    const { w, changes } = watch(facts);
    w.check();
    facts.busy = false;
    w.sync();
    facts.busy = true;
    w.sync();
    w.check();
    expect(changes).toEqual([
      [true, false],
      [true, false],
    ]);
  });

  it('runs no timer while no command runs', () => {
    const facts = { busy: false, reading: false, fullScreen: false };
    const { w } = watch(facts);
    w.sync();
    expect((w as unknown as { timer: unknown }).timer).toBeUndefined();
    facts.busy = true;
    w.sync();
    expect((w as unknown as { timer: unknown }).timer).toBeDefined();
  });
});
