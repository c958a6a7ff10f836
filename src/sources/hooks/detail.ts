/**
 * Short, content-free details for signals. A detail shows up in "why?" and in verdict lines that
 * scripts read, so it says how much the agent wrote, not what.
 */
export function lengthDetail(label: string, text: unknown): string | undefined {
  // A recording keeps the length of a text, not the text (src/record/recorded-form.ts).
  if (typeof text === 'number' && Number.isInteger(text) && text >= 0) return `${label}: ${text} chars`;
  return typeof text === 'string' ? `${label}: ${text.length} chars` : undefined;
}

/** A free text as a recording keeps it: its length (anything but a text or a length becomes null). */
export function textLength(text: unknown): number | null {
  return typeof text === 'string' ? text.length : typeof text === 'number' ? text : null;
}

/** An error's one-line description, whatever shape the agent gives it. */
export function errorDetail(error: unknown, fallback?: unknown): string | undefined {
  // Claude 2.1.332 sends `error: "unknown"` on an API error; its last message says what happened.
  if (typeof error === 'string' && error.length > 0 && error !== 'unknown') return firstLine(error);
  if (typeof error === 'object' && error !== null) {
    const message = (error as { message?: unknown }).message;
    if (typeof message === 'string') return firstLine(message);
  }
  return typeof fallback === 'string' && fallback.length > 0 ? firstLine(fallback) : undefined;
}

/** The first line of a text, at most `max` characters: an error's summary, not its body. */
export function firstLine(text: string, max = 200): string {
  const line = text.split('\n', 1)[0] ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
