import { durationProblem, MAX_DURATION_MS } from '../verdict/duration.js';

/** "10m", "30s", "1h30m", "500ms", "90" (seconds) → milliseconds; null when it is not a duration. */
export function parseDuration(text: string): number | null {
  const trimmed = text.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const unit: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
  const re = /(\d+(?:\.\d+)?)(ms|s|m|h)/gy;
  let total = 0;
  let matched = 0;
  for (let m = re.exec(trimmed); m; m = re.exec(trimmed)) {
    total += Number(m[1]) * (unit[m[2] as string] as number);
    matched = re.lastIndex;
  }
  return matched === trimmed.length && matched > 0 ? Math.round(total) : null;
}

/** `text` as a duration for `flag`, or the one-line reason it is not one (src/verdict/duration.ts
 * holds the range every wait shares). */
export function readDuration(text: string, flag: string): { ms: number } | { error: string } {
  const ms = parseDuration(text);
  if (ms === null || ms <= 0) return { error: `${flag} takes a duration such as 30s, 10m or 1h (got "${text}")` };
  if (durationProblem(ms)) return { error: `${flag} ${text} is too long: at most ${formatLongest()}` };
  return { ms };
}

function formatLongest(): string {
  const minutes = Math.floor(MAX_DURATION_MS / 60_000);
  return `${Math.floor(minutes / 60)}h${minutes % 60}m (24.8 days)`;
}
