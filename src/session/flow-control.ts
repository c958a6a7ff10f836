/**
 * Flow control between a pty and its screen, as a pure state machine.
 *
 * Parsing (about 20–35 MB/s per core) is slower than a pty can deliver (about 50–60 MB/s), and
 * @xterm/headless throws "write data discarded" once 50 MB are waiting. So the session counts what
 * it handed to the screen but the screen has not parsed yet, pauses reading the pty above the high
 * watermark — the child then blocks in write(), as it would on a slow terminal — and resumes below
 * the low one. The gap between the two keeps pause/resume from flapping on every chunk.
 *
 * Amounts are string lengths (UTF-16 code units), the unit xterm counts its own backlog in; for
 * terminal output that is close to bytes.
 */

export interface FlowLimits {
  /** Pause reading the pty when this much output waits to be parsed. */
  readonly high: number;
  /** Resume once the backlog has drained below this. */
  readonly low: number;
}

export const DEFAULT_FLOW_LIMITS: FlowLimits = Object.freeze({ high: 1024 * 1024, low: 128 * 1024 });

export interface FlowState {
  readonly pending: number;
  readonly paused: boolean;
}

export const IDLE_FLOW: FlowState = Object.freeze({ pending: 0, paused: false });

export type FlowAction = 'pause' | 'resume' | undefined;

/** `amount` was handed to the screen. */
export function received(state: FlowState, amount: number, limits: FlowLimits): [FlowState, FlowAction] {
  const pending = state.pending + amount;
  if (!state.paused && pending > limits.high) return [{ pending, paused: true }, 'pause'];
  return [{ pending, paused: state.paused }, undefined];
}

/** The screen finished parsing `amount`. */
export function parsed(state: FlowState, amount: number, limits: FlowLimits): [FlowState, FlowAction] {
  const pending = Math.max(0, state.pending - amount);
  if (state.paused && pending < limits.low) return [{ pending, paused: false }, 'resume'];
  return [{ pending, paused: state.paused }, undefined];
}

/** Refuses limits that would never resume or never pause. */
export function checkFlowLimits(limits: FlowLimits): FlowLimits {
  if (!(limits.low > 0 && limits.high > limits.low && limits.high < 40 * 1024 * 1024)) {
    throw new RangeError(
      `flow control needs 0 < low < high < 40 MB (xterm discards data above 50 MB pending); got low=${limits.low}, high=${limits.high}`,
    );
  }
  return limits;
}
