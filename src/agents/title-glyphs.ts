/**
 * What each agent's window title (OSC 0/2) can tell, as data: which leading glyph means working,
 * which means at rest, which titles are known to lie, and what a title without a glyph means.
 *
 * Observed on the versions named in /work/shared/facts (Claude Code 2.1.332, Codex 0.171.0,
 * Gemini CLI 0.61.0). Glyphs change between versions (Claude's moved from Braille to ◐◑ at
 * 2.1.228), which is why unknown glyphs read `unknown`, never a guess.
 */

import type { GlyphRange, TitleGlyphs } from '../sources/title-rules.js';

export type { GlyphRange, TitleGlyphs, TitleMeaning } from '../sources/title-rules.js';

const one = (cp: number): GlyphRange => ({ from: cp, to: cp });

/** Braille Patterns: the spinner of cli-spinners' "dots", used by Codex, Claude ≤ 2.1.227 and
 * many command-line tools. */
export const BRAILLE: GlyphRange = { from: 0x2800, to: 0x28ff };

export const CLAUDE_TITLE: TitleGlyphs = {
  agent: 'claude',
  working: [{ from: 0x25d0, to: 0x25d3 } /* ◐◑◒◓ */, BRAILLE],
  atRest: [one(0x2733) /* ✳ — also shown during a permission prompt: at rest, never "done" */],
  unreliable: [],
  otherGlyph: 'unknown',
  // With OSC 7501 on, the title is fixed to "Claude Code" and never animates: no evidence.
  glyphless: 'no-evidence',
};

export const CODEX_TITLE: TitleGlyphs = {
  agent: 'codex',
  working: [BRAILLE],
  atRest: [],
  unreliable: [],
  // Alternates "[ . ]" / "[ ! ]" each second while a view that waits on the user is open (an
  // approval, a question): 0.150.1 and 0.171 alike, never at other moments. 0.150.1 sends no OSC
  // 7501, so this is its only word that it asks; the kind is not in the title.
  asks: [{ pattern: /^\[ [.!] \] Action Required/, kind: 'other', detail: 'codex title "Action Required"', sample: '[ ! ] Action Required' }],
  otherGlyph: 'unknown',
  // The folder name, or "<first prompt> | <folder>": the spinner prefix is gone, so the turn
  // loop is at rest.
  glyphless: 'at-rest',
};

export const GEMINI_TITLE: TitleGlyphs = {
  agent: 'gemini',
  working: [one(0x2726) /* ✦ Working… */, one(0x23f2) /* ⏲ a shell silent for 60 s: still running */],
  atRest: [one(0x25c7) /* ◇ Ready */],
  unreliable: [
    // ✋ shows for a confirmation dialog and ALSO for a shell that printed and then stayed quiet
    // for 30 s: a false "blocked" if trusted.
    { pattern: /^\u270b/, detail: 'gemini title ✋ "Action Required" (also shown for a quiet shell)', sample: '\u270b Action Required' },
  ],
  otherGlyph: 'unknown',
  glyphless: 'no-evidence',
};

/**
 * Any other command. A title is free text here, so it says nothing — except a Braille spinner,
 * the one near-universal "busy" convention. A glyph-less title is NOT "at rest": shells title the
 * window with the running command (bash/zsh preexec), so "make" reads glyph-less while make runs.
 * Rest for a shell comes from other evidence (OSC 7501, the exit). The cost: a spinner left
 * behind by a program that never reset its title keeps saying "working" — a status that never
 * rings, the harmless direction; a false rest could ring.
 */
export const SHELL_TITLE: TitleGlyphs = {
  agent: 'shell',
  working: [BRAILLE],
  atRest: [],
  unreliable: [],
  otherGlyph: 'no-evidence',
  glyphless: 'no-evidence',
};

export const TITLE_GLYPHS: Readonly<Record<string, TitleGlyphs>> = {
  claude: CLAUDE_TITLE,
  codex: CODEX_TITLE,
  gemini: GEMINI_TITLE,
  shell: SHELL_TITLE,
};
