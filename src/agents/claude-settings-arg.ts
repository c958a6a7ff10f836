/**
 * A user's own `--settings` in a Claude Code SPEC (`claude --settings team.json`). Claude keeps
 * only the last `--settings` it is given, so passing it after belltower's would drop belltower's
 * hooks (and every verdict with them) without a word: it is taken out of the arguments and merged
 * into the one belltower writes (claude-injection.ts). Claude takes a file or a JSON string there.
 */

export interface SettingsArg {
  /** The last `--settings` value, as given: a path, or JSON text (starting with `{`). */
  value: string | null;
  /** The arguments without any `--settings` (Claude keeps the last; the others had no effect). */
  rest: string[];
}

/** Pure: `--settings VALUE` and `--settings=VALUE`, before a `--` (after it, words are the prompt's). */
export function takeSettingsArg(args: readonly string[]): SettingsArg {
  const rest: string[] = [];
  let value: string | null = null;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      rest.push(...args.slice(i));
      break;
    }
    if (arg === '--settings' && i + 1 < args.length) {
      value = args[++i]!;
      continue;
    }
    if (arg.startsWith('--settings=')) {
      value = arg.slice('--settings='.length);
      continue;
    }
    rest.push(arg);
  }
  return { value, rest };
}

/** Whether a `--settings` value is JSON text rather than a file's path (as Claude tells them). */
export function isInlineSettings(value: string): boolean {
  return value.trimStart().startsWith('{');
}
