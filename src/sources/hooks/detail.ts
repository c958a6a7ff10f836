/**
 * Short, content-free details for signals. A detail shows up in "why?" and in verdict lines that
 * scripts read, so it says how much the agent wrote, not what (the recording keeps the payload).
 */
export function lengthDetail(label: string, text: unknown): string | undefined {
  return typeof text === 'string' ? `${label}: ${text.length} chars` : undefined;
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

function firstLine(text: string, max = 200): string {
  const line = text.split('\n', 1)[0] ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
