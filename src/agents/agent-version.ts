/**
 * The version of the agent a tile is about to run, from its own `--version` (Claude Code prints
 * `2.1.332 (Claude Code)`, Codex `codex-cli 0.171.0`). Injection depends on it where the agent's
 * behaviour is observed rather than documented (Codex's hook trust hash, the hook events a Claude
 * version accepts); unknown means "do only what every version takes".
 */
import { execFile } from 'node:child_process';

/** Long enough for a cold start of a native binary on a loaded machine; a tile waits this at most. */
export const VERSION_PROBE_TIMEOUT_MS = 5_000;

export function probeAgentVersion(file: string, env: Record<string, string | undefined>, timeoutMs = VERSION_PROBE_TIMEOUT_MS): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile(file, ['--version'], { env: env as NodeJS.ProcessEnv, timeout: timeoutMs, maxBuffer: 64 * 1024, windowsHide: true }, (error, stdout) => {
      resolve(error ? undefined : parseVersion(String(stdout)));
    });
  });
}

/** The first `major.minor.patch` in the output. */
export function parseVersion(output: string): string | undefined {
  return /\b(\d+\.\d+\.\d+)\b/.exec(output)?.[1];
}

/** -1, 0 or 1 as `a` is older than, the same as, or newer than `b` (major.minor.patch). */
export function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < 3; i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return Math.sign(d);
  }
  return 0;
}
