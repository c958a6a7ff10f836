/**
 * What the real-Claude grid tests need before they start: tmux, the pinned Claude Code CLI, and the
 * built belltower. One call in `beforeAll`; a reason to skip when something is missing.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { tryInstallClaude } from './claude-install.js';
import type { InstallResult } from './claude-install.js';
import { tmuxMissing } from './tmux.js';

export const REPO = join(import.meta.dirname, '..', '..');
export const BELLTOWER_BIN = join(REPO, 'bin', 'belltower.js');

export async function claudeInTmux(): Promise<InstallResult> {
  const noTmux = tmuxMissing();
  if (noTmux) return { ok: false, reason: noTmux };
  const install = await tryInstallClaude({ log: (line) => console.error(`[claude-install] ${line}`) });
  if (install.ok && !existsSync(join(REPO, 'dist', 'cli', 'main.js'))) return { ok: false, reason: 'the CLI is not built (npm run build)' };
  return install;
}
