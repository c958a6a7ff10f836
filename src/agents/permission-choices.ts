/**
 * The options of a permission dialog as the agent draws it, read from its screen rows, and which
 * of them is the user's answer. Claude Code, Codex and Gemini CLI each draw a numbered list under
 * the request and take the option's digit (Claude and Gemini select on it; each also marks the
 * highlighted one with `❯`, `›` or `●`):
 *
 *   Claude Code 2.1   ❯ 1. Yes / 2. Yes, and don't ask again for … / 3. No, and tell Claude what to do differently (esc)
 *   Claude Code 2.1.332 ❯ 1. Yes / 2. Yes, and don’t ask again for: npm * / 3. Yes, and switch to auto mode · … / 4. No
 *   Claude Code 2.1.332 (a file outside the rules) ❯ 1. Yes / 2. Yes, and always allow access to DIR from this
 *                     project / 3. Yes, and switch to auto mode · … / 4. No
 *   Codex 0.171       › 1. Yes, proceed (y) / 2. Yes, and don't ask again for commands that start with … (p) / 3. No, and tell Codex …
 *   Gemini CLI 0.61   ● 1. Allow once / 2. Allow for this session / 3. No, suggest changes (esc)
 *
 * Pure: rows in, options out; nothing is guessed when the rows hold no such list.
 */

import type { Answer, AnswerChoice } from '../control/protocol.js';
import { printable } from '../platform/printable.js';

export type { Answer };

export interface Choice {
  /** The key that picks it: its digit. */
  readonly key: string;
  readonly label: string;
  readonly answer: Answer | null;
}

const BOX_LEFT = /^\s*[│┃║]/;
const BOX_RIGHT = /[│┃║]\s*$/;
const OPTION = /^\s*[❯›●>▶]?\s*(\d)\.\s+(\S.*?)\s*$/;

/** The numbered options of a permission dialog drawn last on the screen (the dialog sits at the
 * bottom), in order: a yes and a no among them, or none. */
export function readChoices(rows: readonly string[]): Choice[] {
  const list = lastList(rows);
  // A dialog offers a yes and a no; a numbered list in an answer is not one.
  return list.some((c) => c.answer === 'allow') && list.some((c) => c.answer === 'deny') ? list : [];
}

/**
 * The options of a question the agent asks (Claude Code's AskUserQuestion: `❯ 1. Postgres`, its
 * description indented under it, `3. Type something.`), the numbered list drawn last. Read only
 * for a tile blocked on a question: any numbered list would do otherwise.
 */
export function readQuestion(rows: readonly string[]): Choice[] {
  return lastList(rows);
}

/** The option that takes an answer in the user's own words (`Type something.`), if drawn. */
export function ownWordsChoice(choices: readonly Choice[]): Choice | null {
  return choices.find((c) => /^(type something|other\b|something else|type your own|enter your own|enter a custom value)/i.test(c.label)) ?? null;
}

function lastList(rows: readonly string[]): Choice[] {
  let best: Choice[] = [];
  let run: Choice[] = [];
  for (const drawn of rows) {
    // Gemini CLI draws its dialog in a box: the list is read inside the box's sides.
    const row = drawn.replace(BOX_LEFT, '').replace(BOX_RIGHT, '');
    const m = OPTION.exec(row);
    if (m && Number(m[1]) === run.length + 1) run = [...run, { key: m[1]!, label: m[2]!, answer: classify(m[2]!) }];
    else if (m && Number(m[1]) === 1) run = [{ key: '1', label: m[2]!, answer: classify(m[2]!) }];
    // A wrapped option's second line does not end the list; anything else that is not blank does.
    else if (row.trim() !== '' && !/^\s{3,}\S/.test(row)) run = [];
    if (run.length >= 2) best = run;
  }
  return best;
}

function classify(label: string): Answer | null {
  // "Yes, and switch to auto mode" (Claude Code 2.1.3xx) changes how every later request is
  // handled: no answer of belltower's picks it.
  if (/\bswitch to\b|\bauto[- ]?mode\b|\bbypass\b|\byolo\b/i.test(label)) return null;
  // Claude Code 2.1.332 writes "don’t" with a typographic apostrophe.
  if (/don['’]?t ask again|always|for this session|allow all|for all/i.test(label)) return 'always';
  if (/^(yes|allow|approve|proceed)\b/i.test(label)) return 'allow';
  if (/^(no|deny|reject|cancel)\b/i.test(label)) return 'deny';
  return null;
}

/** The option that gives `answer`, the first of them. */
export function choiceFor(choices: readonly Choice[], answer: Answer): Choice | null {
  return choices.find((c) => c.answer === answer) ?? null;
}

/** How each answer is said to the user. */
export const ANSWER_WORDS: Readonly<Record<Answer, string>> = { allow: 'allow', always: 'allow always', deny: 'deny' };

/** An answer as said to the user: `allow`, `option 2`, `your own words`. */
export function answerWords(answer: AnswerChoice): string {
  if (answer === 'text') return 'your own words';
  return /^\d$/.test(answer) ? `option ${answer}` : ANSWER_WORDS[answer as Answer];
}

/** The option that gives `answer`: a permission answer, an option's number, or the own-words one. */
export function pickChoice(choices: readonly Choice[], answer: AnswerChoice): Choice | null {
  if (answer === 'text') return ownWordsChoice(choices);
  if (/^\d$/.test(answer)) return choices.find((c) => c.key === answer) ?? null;
  return choiceFor(choices, answer as Answer);
}

/**
 * What a dialog drawn on the screen asks, for an agent that says it in no hook (Codex 0.150–0.171:
 * `Would you like to run the following command?` … `$ touch a.txt` above its options), in the
 * agent-words form (`approve command \`touch a.txt\``); undefined when no such dialog is drawn.
 */
export function dialogAsks(rows: readonly string[]): string | undefined {
  let asks: string | undefined;
  for (let y = 0; y < rows.length; y++) {
    const question = /^\s*Would you like to (.+?)\?\s*$/.exec(rows[y]!);
    if (!question) continue;
    if (!/^run the following command$/i.test(question[1]!)) {
      asks = `approve: ${question[1]!}`;
      continue;
    }
    // The command is the first `$ ` line under the question, before the options.
    const command = rows.slice(y + 1, y + 8).map((row) => /^\s*\$ (\S.*?)\s*$/.exec(row)?.[1]).find((found) => found !== undefined);
    asks = command ? `approve command \`${command}\`` : 'approve command';
  }
  return asks;
}

/** What a blocked tile asks, as its header and row say it: `approve Bash: npm test`. */
export function requestWords(asks: string): string {
  const approve = /^approve (\S+) `(.*)`$/s.exec(asks);
  return printable(approve ? `approve ${approve[1]}: ${approve[2]}` : asks);
}
