/**
 * Banner source: the SHAPE of a completion banner on a rendered row —
 *
 *   ✻ Churned for 7s · done 9:44 AM
 *   │ └ a capitalised past-tense verb, "for", a duration, optionally " · …"
 *   └ a glyph at the start of the line
 *
 * — never a word list: the verbs change with every release (Baked, Brewed, Sautéed, …).
 *
 * The banner is an accelerator: it may only make a done appear sooner, and a false one is the
 * harm (a missed one costs nothing). So the shape is strict: the glyph must start the row (prose
 * that quotes a banner does not), the duration must end it or be followed by " · ", and the glyph
 * must be a symbol outside ASCII and outside box drawing — markdown bullets (- * + >) and frame
 * borders (│) are how agents print ordinary text. Rows are read rendered (after cursor moves),
 * because in the raw bytes Claude separates the words with cursor moves (`✻ESC[3GChurned…`).
 */
import type { SourceSignal } from '../verdict/signals.js';

// The glyph: one code point that is not a letter, number, mark, separator, control, ASCII, or
// a drawing piece — box drawing and block elements (U+2500–U+259F), bracket pieces and connectors
// (U+239B–U+23BF, e.g. the `⎿` Claude hangs tool output from) — with an optional emoji
// presentation selector. Pieces of frames and trees carry other text, not a status.
const GLYPH = String.raw`[^\p{L}\p{N}\p{M}\p{Z}\p{C}\u0000-\u007f\u239b-\u23bf\u2500-\u259f]\ufe0f?`;
// Capitalised, at least two letters before "ed": Worked, Sautéed, Cogitated.
const VERB = String.raw`\p{Lu}\p{Ll}+ed`;
// 7s · 2.5s · 500ms · 2m · 2m 30s · 1h · 1h 2m · 1h 2m 3s · 1h 3s
const DURATION = String.raw`(?:\d+h(?: \d+m)?(?: \d+s)?|\d+m(?: \d+s)?|\d+(?:\.\d+)?s|\d+ms)`;

const BANNER = new RegExp(String.raw`^ *${GLYPH} {1,3}${VERB} for ${DURATION}(?: · .*)?\s*$`, 'u');

/** The banner on this row (trimmed), or undefined. */
export function matchBanner(rowText: string): string | undefined {
  return BANNER.test(rowText) ? rowText.trim() : undefined;
}

/** How many distinct banner texts a scanner remembers. */
export const BANNER_MEMORY = 64;

/**
 * Emits a banner signal once per banner, however often it is redrawn.
 *
 * A banner stays on screen for many frames, scrolls, and is repainted whole by full-screen
 * programs (a resize, /clear, any alternate-screen redraw): a row that changed is not a new
 * banner. So the scanner reads the whole visible screen and remembers, per banner text, the most
 * copies it has seen at once: only a text not seen before, or more copies of it than ever, is news.
 * Two turns whose banners read exactly alike (`✻ Brewed for 0s · done 12:25 PM`, a minute apart at
 * most) then still make two dones — a second copy appears below the first. A banner that scrolled
 * away and comes back by itself is no news; a missed banner is harmless, a repeated one is a false
 * done.
 *
 * A banner repainted with a status segment dropped or added is the same banner, too: Claude Code
 * 2.1.332 paints `✻ Brewed for 0s · done 11:24 AM · 1 shell still running` when a turn leaves a
 * background shell, and when the shell ends repaints it as `✻ Brewed for 0s · done 11:24 AM` —
 * while its follow-up turn is already running. Read as news, that repaint was a done during the
 * follow-up turn (seen end to end without hooks or OSC 7501, test/e2e/claude-headless.test.ts).
 */
export class BannerScanner {
  /** Banner text → the most copies visible at once; the oldest texts are forgotten first. */
  private readonly seen = new Map<string, number>();

  constructor(private readonly memory: number = BANNER_MEMORY) {}

  /** Scan the visible rows, top to bottom (all of them: copies are counted). */
  scan(rows: readonly { readonly text: string }[]): SourceSignal[] {
    const visible = new Map<string, { count: number; text: string }>();
    for (const row of rows) {
      const text = matchBanner(row.text);
      if (text === undefined) continue;
      const key = this.keyOf(text, visible);
      const entry = visible.get(key);
      // The newest variant of a banner is the one that speaks (a repaint drops "still running").
      visible.set(key, { count: (entry?.count ?? 0) + 1, text });
    }
    const signals: SourceSignal[] = [];
    for (const [key, { count, text }] of visible) {
      const most = this.seen.get(key) ?? 0;
      this.seen.delete(key);
      this.seen.set(key, Math.max(most, count));
      if (this.seen.size > this.memory) this.seen.delete(this.seen.keys().next().value as string);
      if (count <= most) continue;
      // `✻ Brewed for 3s · done 9:44 AM · 1 shell still running`: the banner itself says the work
      // goes on. Remembered (its repaint without the segment is the same banner), never a done.
      if (STILL_RUNNING.test(text)) continue;
      signals.push({ type: 'banner', source: 'banner', text });
    }
    return signals;
  }

  /** The remembered (or just seen) text this banner is a variant of, else itself. */
  private keyOf(text: string, visible: Map<string, unknown>): string {
    for (const known of [...visible.keys(), ...this.seen.keys()]) if (sameBanner(known, text)) return known;
    return text;
  }
}

/** A trailing status segment that says background work is still running. */
const STILL_RUNNING = / · [^·]*\bstill running\b[^·]*$/;

/** The same banner, or one repainted with trailing ` · …` segments added or dropped. */
function sameBanner(a: string, b: string): boolean {
  return a === b || a.startsWith(`${b} · `) || b.startsWith(`${a} · `);
}
