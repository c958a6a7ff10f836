/**
 * The shape of what an agent's window title can tell (its glyph tables are data of each agent's
 * profile, in agents/title-glyphs.ts); the title source reads titles by these rules.
 */
import type { BlockedKind } from '../verdict/signals.js';

/** An inclusive range of Unicode code points. */
export interface GlyphRange {
  readonly from: number;
  readonly to: number;
}

/** What a title says when it matches no glyph rule. */
export type TitleMeaning = 'working' | 'at-rest' | 'unknown' | 'no-evidence';

export interface TitleGlyphs {
  readonly agent: string;
  /** Leading glyphs that mean the agent is working (spinners). */
  readonly working: readonly GlyphRange[];
  /** Leading glyphs that mean the agent is at rest. */
  readonly atRest: readonly GlyphRange[];
  /** Titles the agent shows but that are documented to mislead: always `unknown` with this
   * detail, checked before the glyphs. `sample` is one such title: what a recording keeps. */
  readonly unreliable: readonly { readonly pattern: RegExp; readonly detail: string; readonly sample: string }[];
  /** Titles in which the agent itself says it waits on the user, and that it shows at no other
   * moment (checked on every version run): `blocked` with this kind. Checked first. Most agents
   * have none — a glyph that also shows at rest or for a quiet shell is `unreliable`. */
  readonly asks?: readonly { readonly pattern: RegExp; readonly kind: BlockedKind; readonly detail: string; readonly sample: string }[];
  /** A title with a leading glyph that is in neither list. */
  readonly otherGlyph: TitleMeaning;
  /** A non-empty title that starts with no glyph at all (a letter, a digit, ASCII). */
  readonly glyphless: TitleMeaning;
}
