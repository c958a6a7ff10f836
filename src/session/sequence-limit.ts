/**
 * A bound on what one escape-sequence string may grow to, at the screen's input.
 *
 * An OSC (and a DCS, APC, PM or SOS string) is collected whole before anything acts on it: xterm
 * keeps up to 10 MB of an OSC payload, and belltower's sources, recorder and "why" then hold it
 * again (a 10 MB OSC 7501 cost ~400 MB; an unterminated 100 MB one ~750 MB and seconds of input
 * delay). No sequence a terminal program legitimately sends to a headless screen is anywhere near
 * 64 KiB — a title, a status, a prompt mark with its command line, a folder, a notification — so
 * a string that passes MAX_SEQUENCE_CHARS is aborted there (a CAN, as xterm itself aborts one) and
 * the rest of it, up to its terminator, is dropped. Only the program that sent the broken
 * sequence loses anything: the bytes after its terminator reach the screen as before.
 *
 * It follows xterm's parser on where a string ends: ESC (whatever follows: `ESC \` is the usual
 * ST), ST as the C1 character U+009C, CAN or SUB (aborts), and BEL for an OSC only.
 */

export const MAX_SEQUENCE_CHARS = 64 * 1024;

const GROUND = 0;
/** After ESC: the next character says whether a string starts. */
const ESCAPE = 1;
const STRING = 2;
/** Past the bound: skipping to the string's end. */
const DROPPING = 3;

const C1_INTRODUCER = /[\x90\x98\x9d\x9e\x9f]/;
const INTRODUCERS_C1 = /[\x90\x98\x9d\x9e\x9f]/g;
const OSC_END = /[\x07\x1b\x9c\x18\x1a]/g;
const STRING_END = /[\x1b\x9c\x18\x1a]/g;
const CAN = '\x18';

export class SequenceLimiter {
  private state = GROUND;
  private osc = false;
  private length = 0;
  /** Strings cut so far (for the log). */
  cut = 0;

  constructor(private readonly max = MAX_SEQUENCE_CHARS) {}

  /** `data` as the screen may take it: the same string when nothing had to be cut. */
  filter(data: string): string {
    let out: string[] | null = null;
    /** Where the text not yet copied to `out` starts. */
    let kept = 0;
    let i = 0;
    const drop = (from: number, to: number, insert = '') => {
      out ??= [];
      out.push(data.slice(kept, from), insert);
      kept = to;
    };
    // C1 introducers (U+0090…U+009F) are rare in decoded output: look for them only in a chunk
    // that has one, and otherwise jump from ESC to ESC (this runs over every byte of a flood).
    // -1: none left in this chunk; -2: not looked for yet.
    let c1 = C1_INTRODUCER.test(data) ? -2 : -1;
    while (i < data.length) {
      if (this.state === GROUND) {
        const esc = data.indexOf('\x1b', i);
        if (c1 === -2 || (c1 >= 0 && c1 < i)) {
          INTRODUCERS_C1.lastIndex = i;
          c1 = INTRODUCERS_C1.exec(data)?.index ?? -1;
        }
        if (c1 >= 0 && (esc === -1 || c1 < esc)) {
          this.begin(data[c1] === '\x9d');
          i = c1 + 1;
          continue;
        }
        if (esc === -1) break;
        i = esc + 1;
        this.state = ESCAPE;
        continue;
      }
      if (this.state === ESCAPE) {
        const ch = data[i]!;
        if (ch === ']' || ch === 'P' || ch === '_' || ch === '^' || ch === 'X') {
          this.begin(ch === ']');
          i++;
        } else if (ch === '\x1b') {
          i++;
        } else {
          this.state = GROUND;
          i++;
        }
        continue;
      }
      const end = this.osc ? OSC_END : STRING_END;
      end.lastIndex = i;
      const found = end.exec(data);
      const stop = found ? found.index : data.length;
      if (this.state === STRING) {
        const room = this.max - this.length;
        if (stop - i <= room) {
          this.length += stop - i;
          if (!found) return this.finish(out, data, kept);
          i = this.ended(found[0], stop);
          continue;
        }
        // Over the bound: abort the string where it passes it, drop the rest of it.
        this.cut++;
        this.state = DROPPING;
        const at = i + room;
        if (!found) {
          drop(at, data.length, CAN);
          return this.finish(out, data, kept);
        }
        drop(at, stop, CAN);
        i = stop;
        continue;
      }
      // DROPPING
      if (!found) {
        drop(i, data.length);
        return this.finish(out, data, kept);
      }
      drop(i, found[0] === '\x1b' ? stop : stop + 1);
      if (found[0] === '\x1b') {
        this.state = ESCAPE;
        i = stop + 1;
      } else {
        this.state = GROUND;
        i = stop + 1;
      }
    }
    return this.finish(out, data, kept);
  }

  private begin(osc: boolean): void {
    this.state = STRING;
    this.osc = osc;
    this.length = 0;
  }

  /** The string ended at `at` with `terminator`; where scanning goes on. */
  private ended(terminator: string, at: number): number {
    this.state = terminator === '\x1b' ? ESCAPE : GROUND;
    return at + 1;
  }

  private finish(out: string[] | null, data: string, kept: number): string {
    if (out === null) return data;
    out.push(data.slice(kept));
    return out.join('');
  }
}
