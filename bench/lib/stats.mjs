/** Small statistics for benchmark samples. */

export function median(xs) {
  return percentile(xs, 50);
}

/** Nearest-rank percentile (p in 0–100) of the samples; NaN when there are none. */
export function percentile(xs, p) {
  if (xs.length === 0) return NaN;
  const sorted = [...xs].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Resolves when `predicate()` holds, checking every `everyMs`; rejects after `timeoutMs` (generous:
 * the machine may be loaded; a wait that ends is never a measurement).
 */
export async function until(predicate, what, timeoutMs = 60_000, everyMs = 10) {
  const t0 = performance.now();
  while (!predicate()) {
    if (performance.now() - t0 > timeoutMs) throw new Error(`bench: timed out waiting for ${what}`);
    await sleep(everyMs);
  }
}

/** `promise`, or a rejection naming `what` if it has not settled after `timeoutMs`. */
export function deadline(promise, what, timeoutMs) {
  let timer;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`bench: timed out waiting for ${what} (${Math.round(timeoutMs / 1000)} s)`)), timeoutMs);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}
