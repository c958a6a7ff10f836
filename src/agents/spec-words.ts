/**
 * The words of a SPEC: split on blanks with single and double quotes, as a shell would split them
 * without expanding anything, and a word written back so that it splits the same. A leaf module:
 * the SPEC reader (launch-spec.ts) and the ssh line reader (remote/ssh-command.ts) both use it.
 */

export class SpecError extends Error {
  override name = 'SpecError';
}

/** A word for a SPEC that `splitWords` reads back unchanged: bare when safe, else single-quoted. */
export function specWord(word: string): string {
  if (/^[\w@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'"'"'`)}'`;
}

/** Split on blanks, honouring single and double quotes (no expansions: that is the shell's job). */
export function splitWords(text: string): string[] {
  const words: string[] = [];
  let current = '';
  let quote: '"' | "'" | null = null;
  let inWord = false;
  for (const ch of text) {
    if (quote) {
      if (ch === quote) quote = null;
      else current += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      inWord = true;
    } else if (/\s/.test(ch)) {
      if (inWord) words.push(current);
      current = '';
      inWord = false;
    } else {
      current += ch;
      inWord = true;
    }
  }
  if (quote) throw new SpecError(`unbalanced ${quote} in "${text}"`);
  if (inWord) words.push(current);
  return words;
}
