/**
 * The options of a permission dialog as the agent draws it, read from its screen rows, and which
 * of them is the user's answer. Claude Code, Codex and Gemini CLI each draw a numbered list under
 * the request and take the option's digit (Claude and Gemini select on it; each also marks the
 * highlighted one with `❯`, `›` or `●`):
 *
 *   Claude Code 2.1   ❯ 1. Yes / 2. Yes, and don't ask again for … / 3. No, and tell Claude what to do differently (esc)
 *   Codex 0.171       › 1. Yes, proceed (y) / 2. Yes, and don't ask again for commands that start with … (p) / 3. No, and tell Codex …
 *   Gemini CLI 0.61   ● 1. Allow once / 2. Allow for this session / 3. No, suggest changes (esc)
 *
 * Pure: rows in, options out; nothing is guessed when the rows hold no such list.
 */

export type Answer = 'allow' | 'always' | 'deny';

export interface Choice {
  /** The key that picks it: its digit. */
  readonly key: string;
  readonly label: string;
  readonly answer: Answer | null;
}

const OPTION = /^\s*[❯›●>▶]?\s*(\d)\.\s+(\S.*?)\s*$/;

/** The numbered options drawn last on the screen (the dialog sits at the bottom), in order. */
export function readChoices(rows: readonly string[]): Choice[] {
  let best: Choice[] = [];
  let run: Choice[] = [];
  for (const row of rows) {
    const m = OPTION.exec(row);
    if (m && Number(m[1]) === run.length + 1) run = [...run, { key: m[1]!, label: m[2]!, answer: classify(m[2]!) }];
    else if (m && Number(m[1]) === 1) run = [{ key: '1', label: m[2]!, answer: classify(m[2]!) }];
    // A wrapped option's second line does not end the list; anything else that is not blank does.
    else if (row.trim() !== '' && !/^\s{3,}\S/.test(row)) run = [];
    if (run.length >= 2) best = run;
  }
  // A dialog offers a yes and a no; a numbered list in an answer is not one.
  return best.some((c) => c.answer === 'allow') && best.some((c) => c.answer === 'deny') ? best : [];
}

function classify(label: string): Answer | null {
  if (/don'?t ask again|always|for this session|allow all|for all/i.test(label)) return 'always';
  if (/^(yes|allow|approve|proceed)\b/i.test(label)) return 'allow';
  if (/^(no|deny|reject|cancel)\b/i.test(label)) return 'deny';
  return null;
}

/** The option that gives `answer`, the first of them. */
export function choiceFor(choices: readonly Choice[], answer: Answer): Choice | null {
  return choices.find((c) => c.answer === answer) ?? null;
}
