/**
 * Parses JSON with // and /* *\/ comments and trailing commas, as Gemini CLI's settings files
 * allow (it reads them through strip-json-comments).
 */
export function parseJsonc(text: string): unknown {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i] as string;
    const next = text[i + 1];
    if (c === '"') {
      const start = i++;
      while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
      out += text.slice(start, ++i);
    } else if (c === '/' && next === '/') {
      while (i < text.length && text[i] !== '\n') i++;
    } else if (c === '/' && next === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end === -1 ? text.length : end + 2;
    } else {
      if (c === '}' || c === ']') out = out.replace(/,\s*$/, ''); // a trailing comma, outside any string
      out += c;
      i++;
    }
  }
  return JSON.parse(out);
}
