/**
 * Text that came from an agent (an OSC 7501 `msg`, a title, a hook message) made safe to show to a
 * person: every control character — ESC, BEL, C1 controls, DEL, line breaks — becomes a visible
 * escape, so an agent can never move the user's cursor, change their title or write their
 * clipboard through a line belltower prints. JSON outputs escape on their own and do not need this.
 */

// C0 (0x00–0x1f), DEL (0x7f), C1 (0x80–0x9f), the Unicode line/paragraph separators, and the
// invisible marks that hide or reorder what a reader sees: zero-width space, joiners and
// direction marks (U+200B–U+200F), the Arabic letter mark (U+061C), the bidirectional embeddings,
// overrides and isolates (U+202A–U+202E, U+2066–U+2069), and the zero-width no-break space.
const INVISIBLE_MARKS = '\u061c\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff';
const INVISIBLE = new RegExp(`[${INVISIBLE_MARKS}]`, 'g');
const UNSAFE = new RegExp(`[\u0000-\u001f\u007f-\u009f\u2028\u2029${INVISIBLE_MARKS}]`, 'g');
/** A zero-width joiner inside an emoji sequence (👨‍👩‍👧) is part of the picture, not a hidden mark. */
const EMOJI_BEFORE = /\p{Extended_Pictographic}[\u{fe0f}\u{1f3fb}-\u{1f3ff}]?$/u;
const EMOJI_AFTER = /^\p{Extended_Pictographic}/u;

/** `text` with every control character and invisible mark shown as `\xNN` / `\uNNNN` (tabs become
 * one space). */
export function printable(text: string): string {
  return text.replace(UNSAFE, (ch, at: number) => {
    if (ch === '\t') return ' ';
    if (isEmojiJoiner(text, ch, at)) return ch;
    const code = ch.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}

/** `text` without the invisible marks `printable` escapes (for text that cannot show an escape:
 * a desktop notification), keeping a joiner inside an emoji sequence. */
export function withoutInvisibleMarks(text: string): string {
  return text.replace(INVISIBLE, (ch, at: number) => (isEmojiJoiner(text, ch, at) ? ch : ''));
}

function isEmojiJoiner(text: string, ch: string, at: number): boolean {
  return ch === '\u200d' && EMOJI_BEFORE.test(text.slice(Math.max(0, at - 4), at)) && EMOJI_AFTER.test(text.slice(at + 1, at + 3));
}

/** `printable(text)` cut to at most `max` characters, with an ellipsis when cut. */
export function printableLine(text: string, max: number): string {
  const safe = printable(text);
  if (safe.length <= max) return safe;
  return max <= 1 ? safe.slice(0, max) : `${safe.slice(0, max - 1)}…`;
}
