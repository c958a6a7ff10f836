/**
 * Text that came from an agent (an OSC 7501 `msg`, a title, a hook message) made safe to show to a
 * person: every control character — ESC, BEL, C1 controls, DEL, line breaks — becomes a visible
 * escape, so an agent can never move the user's cursor, change their title or write their
 * clipboard through a line belltower prints. JSON outputs escape on their own and do not need this.
 */

// C0 (0x00–0x1f), DEL (0x7f), C1 (0x80–0x9f), and the Unicode line/paragraph separators and
// bidirectional overrides that reorder what a reader sees.
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** `text` with every control character shown as `\xNN` / `\uNNNN` (tabs become one space). */
export function printable(text: string): string {
  return text.replace(UNSAFE, (ch) => {
    if (ch === '\t') return ' ';
    const code = ch.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}

/** `printable(text)` cut to at most `max` characters, with an ellipsis when cut. */
export function printableLine(text: string, max: number): string {
  const safe = printable(text);
  if (safe.length <= max) return safe;
  return max <= 1 ? safe.slice(0, max) : `${safe.slice(0, max - 1)}…`;
}
