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
