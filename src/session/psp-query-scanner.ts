/**
 * Remembers which terminator each OSC 7501 feature query used, so the answer can echo the same
 * bytes (`ESC ] 7501 ; ?` + BEL, or + `ESC \`).
 *
 * Why a second scanner: xterm's OSC handler receives only the payload (`?`), not the terminator.
 * This one runs over the raw stream as it is handed to xterm (before parsing), keeps its state
 * across chunk boundaries, and queues one terminator per query; the OSC handler takes them in the
 * same order when xterm parses the queries. It follows xterm's rules for where an OSC ends: BEL,
 * or ESC (xterm ends the OSC on ESC whatever follows; `ESC \` is the usual ST), and CAN/SUB abort it
 * (xterm then calls no handler, so nothing is queued).
 */

const ESC = '\x1b';
const BEL = '\x07';
const CAN = '\x18';
const SUB = '\x1a';
export const ST = '\x1b\\';
const QUERY = '7501;?';

// The scanner's state, as numbers: it runs over every byte of every output chunk, and an object
// per escape sequence (there is one per colour change) was a measurable share of a flood's cost.
const GROUND = 0;
const ESCAPE = 1;
/** Inside an OSC whose first `matched` characters equal QUERY's. */
const PREFIX = 2;
/** Inside an OSC that is not a 7501 query: wait for its end. */
const OTHER_OSC = 3;

export class PspQueryScanner {
  private state = GROUND;
  private matched = 0;
  private readonly terminators: string[] = [];

  /** Scan the next chunk of raw output, in stream order. */
  feed(data: string): void {
    let i = 0;
    while (i < data.length) {
      // On the ground only an ESC can start a query: jump to it (this runs over every byte of a
      // flood, so it must not step through plain text character by character).
      if (this.state === GROUND) {
        i = data.indexOf(ESC, i);
        if (i < 0) return;
      }
      this.step(data[i] as string);
      i++;
    }
  }

  /** The terminator of the oldest query not yet answered (BEL if the scanner lost track). */
  take(): string {
    return this.terminators.shift() ?? BEL;
  }

  private step(ch: string): void {
    if (ch === ESC) {
      // ESC ends any OSC in xterm; a query that ends here used ST.
      if (this.state === PREFIX && this.matched === QUERY.length) this.terminators.push(ST);
      this.state = ESCAPE;
      return;
    }
    switch (this.state) {
      case GROUND:
        return;
      case ESCAPE:
        if (ch === ']') {
          this.state = PREFIX;
          this.matched = 0;
        } else {
          this.state = GROUND;
        }
        return;
      case PREFIX:
        if (ch === BEL) {
          if (this.matched === QUERY.length) this.terminators.push(BEL);
          this.state = GROUND;
        } else if (ch === CAN || ch === SUB) {
          this.state = GROUND;
        } else if (this.matched < QUERY.length && ch === QUERY[this.matched]) {
          this.matched++;
        } else {
          this.state = OTHER_OSC;
        }
        return;
      case OTHER_OSC:
        if (ch === BEL || ch === CAN || ch === SUB) this.state = GROUND;
        return;
    }
  }
}
