/**
 * Whether Gemini CLI trusts a folder, by its own rules (0.61, packages/cli trustedFolders.ts): in a
 * folder the user chose not to trust, Gemini runs no settings hook at all — the user's nor ours —
 * so a tile there has no hooks to claim.
 *
 * Order: GEMINI_CLI_TRUST_WORKSPACE and restricted mode first; then folder trust off
 * (`security.folderTrust.enabled: false`) trusts everything; else the longest matching rule of the
 * trust file (TRUST_PARENT applies to the rule's parent folder). No rule: Gemini asks at start-up.
 */
import path from 'node:path';
import { canonicalPath } from '../platform/paths.js';

export type GeminiTrust = 'trusted' | 'untrusted' | 'unknown';

export interface GeminiTrustInput {
  cwd: string;
  /** The trust file's rules (path → TRUST_FOLDER | TRUST_PARENT | DO_NOT_TRUST). */
  rules: Record<string, unknown>;
  /** `security.folderTrust.enabled` from the user's settings (Gemini's default: on). */
  folderTrustEnabled: boolean;
  env: NodeJS.ProcessEnv;
  /** Canonical spelling of a path (realpath where it exists); injectable for tests. */
  canonical?: (p: string) => string;
}

export function geminiTrust(input: GeminiTrustInput): GeminiTrust {
  const env = input.env;
  if (env.GEMINI_RESTRICTED_MODE === 'true' || env.GEMINI_CLI_TRUST_WORKSPACE === 'false') return 'untrusted';
  if (env.GEMINI_CLI_TRUST_WORKSPACE === 'true' || !input.folderTrustEnabled) return 'trusted';
  const canonical = input.canonical ?? ((p: string) => canonicalPath(p));
  const location = canonical(input.cwd);
  let longest = -1;
  let level: unknown;
  for (const [rule, value] of Object.entries(input.rules)) {
    const effective = canonical(value === 'TRUST_PARENT' ? path.dirname(rule) : rule);
    if (!isWithin(effective, location)) continue;
    if (rule.length > longest) {
      longest = rule.length;
      level = value;
    }
  }
  if (level === 'DO_NOT_TRUST') return 'untrusted';
  if (level === 'TRUST_FOLDER' || level === 'TRUST_PARENT') return 'trusted';
  return 'unknown';
}

function isWithin(folder: string, location: string): boolean {
  const relative = path.relative(folder, location);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}
