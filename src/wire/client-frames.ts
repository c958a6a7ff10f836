/**
 * A client's frames as a server door reads them — the attach socket and the keys socket alike:
 * each frame bounded in size (WireDecoder) and all of them in rate, at a pace no person typing or
 * pasting comes near. A peer past either bound is not a client of ours and is dropped.
 */
import { WireDecoder, WireError } from './wire-protocol.js';
import type { ClientMessage } from './wire-protocol.js';

/** Messages a client may send a second; a client far over it is not a person typing. */
export const MAX_MESSAGES_PER_SECOND = 2000;

export class ClientFrames {
  private readonly decoder = new WireDecoder('client');
  private window = { start: 0, count: 0 };

  constructor(private readonly now: () => number = Date.now) {}

  /** The messages `chunk` completes, or why the peer must be dropped. */
  push(chunk: Buffer): ClientMessage[] | string {
    const now = this.now();
    if (now - this.window.start >= 1000) this.window = { start: now, count: 0 };
    let messages: ClientMessage[];
    try {
      messages = this.decoder.push(chunk) as ClientMessage[];
    } catch (error) {
      if (error instanceof WireError) return error.message;
      throw error;
    }
    this.window.count += messages.length;
    if (this.window.count > MAX_MESSAGES_PER_SECOND) return `over ${MAX_MESSAGES_PER_SECOND} messages a second`;
    return messages;
  }
}
