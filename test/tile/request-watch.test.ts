import { describe, expect, it } from 'vitest';
import { requestWatch } from '../../src/tile/request-watch.js';

describe("a blocked tile's request, watched chunk by chunk", () => {
  it('tells each change of the request, once, and nothing while there is none or it stays', () => {
    let id: string | undefined;
    let told = 0;
    const watch = requestWatch(() => id, () => told++);
    watch();
    expect(told).toBe(0); // not blocked: nothing to tell
    id = 'asks-nothing-yet';
    watch();
    watch();
    expect(told).toBe(1);
    id = 'the-dialog-drawn'; // Codex draws what it asks a moment after it says it is blocked
    watch();
    expect(told).toBe(2);
    id = undefined; // answered
    watch();
    expect(told).toBe(2);
    id = 'the-dialog-drawn'; // the same words asked again later is told again
    watch();
    expect(told).toBe(3);
  });
});
