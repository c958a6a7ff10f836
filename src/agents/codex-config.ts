/**
 * Reads the user's own `notify` program from Codex's config.toml, so that ours can chain to it:
 * `-c notify=…` on the command line replaces the configured one, and belltower only adds.
 *
 * Not a TOML parser: it finds a top-level `notify = [ "…", '…' ]` (one or more lines, comments
 * allowed) before the first [table] header. Anything else yields undefined.
 */
export function readCodexNotify(toml: string): string[] | undefined {
  const top = toml.split(/^\s*\[/m, 1)[0] ?? '';
  const match = /^[ \t]*notify[ \t]*=[ \t]*\[/m.exec(top);
  if (!match) return undefined;
  return parseStringArray(top, match.index + match[0].length);
}

function parseStringArray(text: string, start: number): string[] | undefined {
  const items: string[] = [];
  let i = start;
  while (i < text.length) {
    const c = text[i];
    if (c === ']') return items;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === ',') {
      i++;
    } else if (c === '#') {
      while (i < text.length && text[i] !== '\n') i++;
    } else if (c === "'") {
      const end = text.indexOf("'", i + 1);
      if (end === -1) return undefined;
      items.push(text.slice(i + 1, end));
      i = end + 1;
    } else if (c === '"') {
      const parsed = basicString(text, i + 1);
      if (!parsed) return undefined;
      items.push(parsed.value);
      i = parsed.next;
    } else {
      return undefined; // not an array of strings
    }
  }
  return undefined;
}

const ESCAPES: Record<string, string> = { b: '\b', t: '\t', n: '\n', f: '\f', r: '\r', '"': '"', '\\': '\\' };

function basicString(text: string, start: number): { value: string; next: number } | undefined {
  let value = '';
  for (let i = start; i < text.length; i++) {
    const c = text[i] as string;
    if (c === '"') return { value, next: i + 1 };
    if (c === '\n') return undefined;
    if (c !== '\\') {
      value += c;
      continue;
    }
    const e = text[++i] ?? '';
    if (e === 'u' || e === 'U') {
      const len = e === 'u' ? 4 : 8;
      const code = Number.parseInt(text.slice(i + 1, i + 1 + len), 16);
      if (Number.isNaN(code)) return undefined;
      value += String.fromCodePoint(code);
      i += len;
    } else if (ESCAPES[e] !== undefined) {
      value += ESCAPES[e];
    } else {
      return undefined;
    }
  }
  return undefined;
}

/** A TOML basic string (JSON string escapes are valid TOML ones). */
export function tomlString(text: string): string {
  return JSON.stringify(text);
}

/** A TOML array of basic strings. */
export function tomlStringArray(items: readonly string[]): string {
  return `[${items.map(tomlString).join(', ')}]`;
}
