import { describe, expect, it } from 'vitest';
import { IDLE_FLOW, checkFlowLimits, parsed, received } from '../../src/session/flow-control.js';

const limits = { high: 1000, low: 100 };

describe('flow control', () => {
  it('pauses above the high watermark, once', () => {
    let [state, action] = received(IDLE_FLOW, 900, limits);
    expect(action).toBeUndefined();
    [state, action] = received(state, 200, limits);
    expect(action).toBe('pause');
    expect(state).toEqual({ pending: 1100, paused: true });
    [state, action] = received(state, 200, limits);
    expect(action).toBeUndefined();
  });

  it('resumes only below the low watermark', () => {
    let state = { pending: 1300, paused: true };
    let action;
    [state, action] = parsed(state, 1000, limits);
    expect(action).toBeUndefined(); // 300 left: still above low
    [state, action] = parsed(state, 250, limits);
    expect(action).toBe('resume');
    expect(state).toEqual({ pending: 50, paused: false });
  });

  it('refuses limits that could never resume or would reach xterm\'s discard limit', () => {
    expect(() => checkFlowLimits({ high: 100, low: 100 })).toThrow(/0 < low < high/);
    expect(() => checkFlowLimits({ high: 60e6, low: 100 })).toThrow(/50 MB/);
    expect(checkFlowLimits(limits)).toBe(limits);
  });
});
