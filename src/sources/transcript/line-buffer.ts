/**
 * Splits appended bytes into complete lines, keeping the unfinished last line for later. Pure:
 * state in, state out. Splitting happens on bytes, so a UTF-8 character cut across two reads is
 * never decoded in halves; pieces of a long line are kept as a list and joined once (no quadratic
 * re-copying while a multi-megabyte record trickles in).
 */
export interface LineState {
  pending: Buffer[];
  pendingBytes: number;
  /** Dropping the rest of a line that grew past the cap, up to its newline. */
  skipping: boolean;
}

export const EMPTY_LINES: LineState = Object.freeze({ pending: [], pendingBytes: 0, skipping: false }) as LineState;

export interface Fed {
  state: LineState;
  /** Complete lines, decoded, without their newline (and without a trailing CR). */
  lines: string[];
  /** Lines dropped because they exceeded the cap. */
  oversized: number;
}

const NL = 0x0a;

export function feedLines(state: LineState, chunk: Buffer, maxLineBytes: number): Fed {
  const lines: string[] = [];
  let { pending, pendingBytes, skipping } = state;
  pending = [...pending];
  let oversized = 0;
  let start = 0;
  for (let nl = chunk.indexOf(NL, start); nl !== -1; nl = chunk.indexOf(NL, start)) {
    const piece = chunk.subarray(start, nl);
    if (skipping) {
      skipping = false;
    } else if (pendingBytes + piece.length > maxLineBytes) {
      oversized++;
    } else {
      lines.push(decode(pending.length === 0 ? piece : Buffer.concat([...pending, piece])));
    }
    pending = [];
    pendingBytes = 0;
    start = nl + 1;
  }
  const rest = chunk.subarray(start);
  if (rest.length > 0 && !skipping) {
    if (pendingBytes + rest.length > maxLineBytes) {
      oversized++;
      pending = [];
      pendingBytes = 0;
      skipping = true;
    } else {
      pending.push(Buffer.from(rest)); // copy: the read buffer is reused
      pendingBytes += rest.length;
    }
  }
  return { state: { pending, pendingBytes, skipping }, lines, oversized };
}

function decode(bytes: Buffer): string {
  const text = bytes.toString('utf8');
  return text.endsWith('\r') ? text.slice(0, -1) : text;
}
