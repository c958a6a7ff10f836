/**
 * How many columns a tile's screen gives each character: xterm's Unicode 11 table, plus the one
 * rule tmux (3.3) and the programs' own width libraries (string-width) apply to emoji sequences
 * and xterm does not — a character after a zero-width joiner joins the cell before it, keeping
 * that cell's width. So 👨‍👩‍👧 is one cell of two columns, where plain Unicode 11 makes three
 * cells (six columns) of it and pushes the rest of the row four columns right of where the
 * program, and every terminal that draws the sequence as one picture, put it.
 *
 * The rule is tmux's, to the letter: only a character outside ASCII joins (`a‍b` stays two
 * cells), and the cell keeps the width of its first character (🏳️‍🌈 is one column, as 🏳️ is).
 */
import unicode11 from '@xterm/addon-unicode11';
import type { IUnicodeVersionProvider, Terminal } from '@xterm/headless';

// The package is CommonJS without `exports` (see screen.ts).
const { Unicode11Addon } = unicode11;

/** The version name the screens switch to. */
export const SCREEN_UNICODE_VERSION = '11-zwj';

const ZWJ = 0x200d;
/** Kind bits of a character's properties that mean: a joiner that joined a cell. */
const JOINED_ZWJ = 1;

// xterm's packing of a character's properties (UnicodeService.createPropertyValue and friends):
// bit 0 = joins the previous cell, bits 1–2 = width, the bits above = a kind the provider keeps
// from one character to the next (reset by anything that is not printed text).
const pack = (kind: number, width: number, joins: boolean) => ((kind & 0xffffff) << 3) | ((width & 3) << 1) | (joins ? 1 : 0);
const widthOf = (properties: number) => (properties >> 1) & 3;
const kindOf = (properties: number) => properties >>> 3;
const joins = (properties: number) => (properties & 1) !== 0;

/** Unicode 11 with tmux's joiner rule, built on the addon's own table (captured from its
 * `activate`, which only registers it: the addon exports no other way to reach it). */
export function screenWidths(): IUnicodeVersionProvider {
  let base: IUnicodeVersionProvider | undefined;
  new Unicode11Addon().activate({ unicode: { register: (provider: IUnicodeVersionProvider) => (base = provider) } } as unknown as Parameters<InstanceType<typeof Unicode11Addon>['activate']>[0]);
  if (!base) throw new Error('@xterm/addon-unicode11 registered no width table');
  return joinAfterZwj(base);
}

/** `base` with the joiner rule on top. */
export function joinAfterZwj(base: IUnicodeVersionProvider): IUnicodeVersionProvider {
  return {
    version: SCREEN_UNICODE_VERSION,
    wcwidth: (codepoint) => base.wcwidth(codepoint),
    charProperties(codepoint, preceding) {
      // After a joiner, tmux joins the next character whatever its width (another joiner keeps
      // joining): the cell stays as wide as it was.
      if (kindOf(preceding) === JOINED_ZWJ && codepoint >= 0x80 && widthOf(preceding) > 0) return pack(codepoint === ZWJ ? JOINED_ZWJ : 0, widthOf(preceding), true);
      const properties = base.charProperties(codepoint, pack(0, widthOf(preceding), joins(preceding)));
      return codepoint === ZWJ && joins(properties) ? pack(JOINED_ZWJ, widthOf(properties), true) : properties;
    },
  };
}

/** Give `term` the screens' widths. */
export function useScreenWidths(term: Pick<Terminal, 'unicode'>): void {
  term.unicode.register(screenWidths());
  term.unicode.activeVersion = SCREEN_UNICODE_VERSION;
}
