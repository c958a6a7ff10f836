/** `text` as one word for /bin/sh: in single quotes, each quote in it closed, escaped and reopened. */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}
