/** Polls a predicate until it holds: tests wait on conditions, never on fixed sleeps. */
export async function waitFor<T>(
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  { timeoutMs = 5_000, intervalMs = 5, what = 'condition' }: { timeoutMs?: number; intervalMs?: number; what?: string } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
