/**
 * JSON with comments and trailing commas (the workspace file is written by hand), parsed with the
 * line each value starts on, so an error can name the line a person must fix:
 * `belltower.json:7: tiles[2].cwd: …`. Pure; a syntax error is a value, not an exception.
 */

export type JsonPath = readonly (string | number)[];

export interface Located {
  value: unknown;
  /** The line (1-based) of the value at `path`, or of its nearest ancestor that exists. */
  lineOf(path: JsonPath): number;
}

/** Deeper than this is no workspace a person wrote: a file nested 100 000 levels overflowed the
 * stack. A value nested deeper is a syntax error at its line. */
export const MAX_DEPTH = 32;

export type ParseResult = { ok: true; located: Located } | { ok: false; line: number; message: string };

/** `tiles[2].cwd` */
export function showPath(path: JsonPath): string {
  return path.map((part, i) => (typeof part === 'number' ? `[${part}]` : i === 0 ? part : `.${part}`)).join('') || '(top level)';
}

class SyntaxProblem extends Error {
  constructor(
    readonly at: number,
    message: string,
  ) {
    super(message);
  }
}

export function parseJsoncLocated(text: string): ParseResult {
  const lines = new Map<string, number>();
  let i = 0;

  const lineAt = (offset: number): number => {
    let line = 1;
    for (let k = 0; k < offset && k < text.length; k++) if (text.charCodeAt(k) === 10) line++;
    return line;
  };

  const skip = (): void => {
    for (;;) {
      while (i < text.length && /\s/.test(text[i]!)) i++;
      if (text.startsWith('//', i)) {
        while (i < text.length && text[i] !== '\n') i++;
      } else if (text.startsWith('/*', i)) {
        const end = text.indexOf('*/', i + 2);
        if (end < 0) throw new SyntaxProblem(i, 'a /* comment is never closed');
        i = end + 2;
      } else return;
    }
  };

  const value = (path: JsonPath): unknown => {
    skip();
    const c = text[i];
    if (path.length >= MAX_DEPTH && (c === '{' || c === '[')) throw new SyntaxProblem(i, `nested deeper than ${MAX_DEPTH} levels`);
    lines.set(key(path), i);
    if (c === '{') return object(path);
    if (c === '[') return array(path);
    if (c === '"') return string();
    const literal = /^(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(text.slice(i, i + 400));
    if (!literal) throw new SyntaxProblem(i, c === undefined ? 'the file ends where a value should be' : `unexpected ${JSON.stringify(c)}`);
    i += literal[0].length;
    return JSON.parse(literal[0]);
  };

  const string = (): string => {
    const start = i++;
    while (i < text.length && text[i] !== '"') {
      if (text[i] === '\n') throw new SyntaxProblem(start, 'a string runs past the end of its line');
      i += text[i] === '\\' ? 2 : 1;
    }
    if (i >= text.length) throw new SyntaxProblem(start, 'a string is never closed');
    i++;
    try {
      return JSON.parse(text.slice(start, i)) as string;
    } catch {
      throw new SyntaxProblem(start, 'a string has a bad escape');
    }
  };

  const object = (path: JsonPath): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    i++;
    for (;;) {
      skip();
      if (text[i] === '}') {
        i++;
        return out;
      }
      if (text[i] !== '"') throw new SyntaxProblem(i, `expected a "name" or }, found ${describe(text[i])}`);
      const name = string();
      skip();
      if (text[i] !== ':') throw new SyntaxProblem(i, `expected : after "${name}"`);
      i++;
      if (Object.hasOwn(out, name)) throw new SyntaxProblem(i, `"${name}" is given twice`);
      // defineProperty: a "__proto__" key is a field like any other, never the object's prototype.
      Object.defineProperty(out, name, { value: value([...path, name]), enumerable: true, writable: true, configurable: true });
      skip();
      if (text[i] === ',') i++;
      else if (text[i] !== '}') throw new SyntaxProblem(i, `expected , or } after "${name}", found ${describe(text[i])}`);
    }
  };

  const array = (path: JsonPath): unknown[] => {
    const out: unknown[] = [];
    i++;
    for (;;) {
      skip();
      if (text[i] === ']') {
        i++;
        return out;
      }
      out.push(value([...path, out.length]));
      skip();
      if (text[i] === ',') i++;
      else if (text[i] !== ']') throw new SyntaxProblem(i, `expected , or ] in a list, found ${describe(text[i])}`);
    }
  };

  try {
    const parsed = value([]);
    skip();
    if (i < text.length) throw new SyntaxProblem(i, `unexpected ${describe(text[i])} after the end`);
    return {
      ok: true,
      located: {
        value: parsed,
        lineOf(path: JsonPath): number {
          for (let n = path.length; n >= 0; n--) {
            const offset = lines.get(key(path.slice(0, n)));
            if (offset !== undefined) return lineAt(offset);
          }
          return 1;
        },
      },
    };
  } catch (error) {
    if (error instanceof SyntaxProblem) return { ok: false, line: lineAt(error.at), message: error.message };
    throw error;
  }
}

function key(path: JsonPath): string {
  return JSON.stringify(path);
}

function describe(c: string | undefined): string {
  return c === undefined ? 'the end of the file' : JSON.stringify(c);
}
