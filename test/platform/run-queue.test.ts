/** RunQueue: at most `limit` jobs at once, the rest in order, and a bound on how many wait. */
import { describe, expect, it } from 'vitest';
import { RunQueue, RunQueueFull } from '../../src/platform/run-queue.js';

function gate(): { promise: Promise<void>; open: () => void } {
  let open = () => {};
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

describe('RunQueue', () => {
  it('runs at most `limit` jobs at once, and the waiting ones in the order they came', async () => {
    const queue = new RunQueue(2, 10);
    const gates = [gate(), gate(), gate(), gate()];
    const started: number[] = [];
    const done = gates.map((g, i) =>
      queue.run(async () => {
        started.push(i);
        await g.promise;
        return i;
      }),
    );
    await Promise.resolve();
    expect(started).toEqual([0, 1]);
    expect(queue.busy).toBe(2);
    expect(queue.queued).toBe(2);
    gates[1]!.open();
    await done[1];
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual([0, 1, 2]);
    gates[0]!.open();
    await done[0];
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual([0, 1, 2, 3]);
    gates[2]!.open();
    gates[3]!.open();
    expect(await Promise.all(done)).toEqual([0, 1, 2, 3]);
    expect(queue.busy).toBe(0);
  });

  it('refuses a job when as many as allowed already wait, and a failed job frees its place', async () => {
    const queue = new RunQueue(1, 1);
    const first = gate();
    const running = queue.run(() => first.promise);
    const waiting = queue.run(async () => 'second');
    await expect(queue.run(async () => 'third')).rejects.toBeInstanceOf(RunQueueFull);
    first.open();
    await running;
    expect(await waiting).toBe('second');
    await expect(queue.run(async () => Promise.reject(new Error('no')))).rejects.toThrow('no');
    expect(await queue.run(async () => 'after')).toBe('after');
    expect(queue.busy).toBe(0);
  });
});
