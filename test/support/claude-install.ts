/**
 * The pinned agent CLIs for end-to-end tests, installed on demand into `.cache/agents/` (see
 * scripts/install-claude.mjs, which holds the implementation so that CI can run it as plain JS).
 *
 *   const found = await tryInstallClaude();
 *   if (!found.ok) ctx.skip(found.reason);
 *
 * `BELLTOWER_CLAUDE_BIN` (and `BELLTOWER_CODEX_BIN`, `BELLTOWER_GEMINI_BIN`) point at an
 * executable to use instead; `BELLTOWER_AGENT_CACHE` moves the cache folder.
 */
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export type AgentName = 'claude' | 'codex' | 'gemini';
/** Older versions still in use that the suite runs too (scripts/install-claude.mjs lists them). */
export type OlderAgent = 'claude@1.0.128' | 'codex@0.169.1' | 'codex@0.150.1' | 'gemini@0.55.1';

export const PINNED_VERSIONS: Readonly<Record<AgentName, string>> = {
  claude: '2.1.332',
  codex: '0.171.0',
  gemini: '0.61.0',
};

export interface InstallOptions {
  /** Progress lines (default: none). */
  log?: (line: string) => void;
  /** Limit for npm and for waiting on another process's install; default 15 minutes. */
  timeoutMs?: number;
}

export type InstallResult = { ok: true; bin: string } | { ok: false; reason: string };

interface InstallerModule {
  installAgent(name: AgentName | OlderAgent, options?: InstallOptions): Promise<string>;
  agentCacheRoot(): string;
}

const installerUrl = pathToFileURL(
  path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'scripts', 'install-claude.mjs'),
).href;

let installer: Promise<InstallerModule> | undefined;
function load(): Promise<InstallerModule> {
  // A computed specifier: the plain-JS module needs no declaration file.
  installer ??= import(installerUrl) as Promise<InstallerModule>;
  return installer;
}

/** Installs (when needed) the pinned agent and returns the absolute path of its executable. */
export async function installAgent(name: AgentName, options: InstallOptions = {}): Promise<string> {
  return (await load()).installAgent(name, options);
}

/** Like installAgent, but never throws: a failure comes back as a reason to skip a test. */
export async function tryInstallAgent(name: AgentName, options: InstallOptions = {}): Promise<InstallResult> {
  try {
    return { ok: true, bin: await installAgent(name, options) };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return { ok: false, reason: `${name} ${PINNED_VERSIONS[name]} is not available: ${message.split('\n')[0] ?? message}` };
  }
}

/** An older version (`codex@0.169.1`), installed like the pinned ones (its own `BELLTOWER_…_BIN`
 * points at one instead); a failure comes back as a reason to skip. */
export async function tryInstallOlder(name: OlderAgent, options: InstallOptions = {}): Promise<InstallResult> {
  try {
    return { ok: true, bin: await (await load()).installAgent(name, options) };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return { ok: false, reason: `${name} is not available: ${message.split('\n')[0] ?? message}` };
  }
}

/** `@anthropic-ai/claude-code@2.1.332`: the path of `claude` (a native binary). */
export const installClaude = (options?: InstallOptions): Promise<string> => installAgent('claude', options);
export const tryInstallClaude = (options?: InstallOptions): Promise<InstallResult> => tryInstallAgent('claude', options);

/** `@openai/codex@0.171.0` (optional). */
export const installCodex = (options?: InstallOptions): Promise<string> => installAgent('codex', options);
export const tryInstallCodex = (options?: InstallOptions): Promise<InstallResult> => tryInstallAgent('codex', options);

/** `@google/gemini-cli@0.61.0` (optional). */
export const installGemini = (options?: InstallOptions): Promise<string> => installAgent('gemini', options);
export const tryInstallGemini = (options?: InstallOptions): Promise<InstallResult> => tryInstallAgent('gemini', options);

/** The cache folder (default `<repo>/.cache/agents`). */
export async function agentCacheRoot(): Promise<string> {
  return (await load()).agentCacheRoot();
}
