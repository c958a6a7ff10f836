/** POSIX single-quoting: the one quoting that needs no escape table ('it'"'"'s' style). */
export function shellQuote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}
