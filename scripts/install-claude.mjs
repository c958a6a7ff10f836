#!/usr/bin/env node
// Installs the pinned coding-agent CLIs used by the end-to-end tests into the repo's cache
// (.cache/agents/<name>-<version>/, gitignored) and prints the path of the executable.
//
//   node scripts/install-claude.mjs            # claude (default)
//   node scripts/install-claude.mjs codex gemini
//   node scripts/install-claude.mjs --all
//   node scripts/install-claude.mjs codex@0.169.1     # an older version the suite also runs
//
// Idempotent: an install whose executable answers `--version` with the pinned version is reused.
// BELLTOWER_CLAUDE_BIN / BELLTOWER_CODEX_BIN / BELLTOWER_GEMINI_BIN override (no install at all).
// BELLTOWER_AGENT_CACHE moves the cache folder.
//
// This file is the implementation; test/support/claude-install.ts is its typed face for tests.

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** @typedef {{ name: string, pkg: string, version: string, envVar: string, bin: (dir: string) => string[], versionPattern: RegExp, postinstall?: (pkgDir: string) => void }} AgentSpec */

/** @type {Record<string, AgentSpec>} */
export const AGENTS = {
  claude: {
    name: 'claude',
    pkg: '@anthropic-ai/claude-code',
    version: '2.1.332',
    envVar: 'BELLTOWER_CLAUDE_BIN',
    // bin/claude.exe is a 500-byte shell stub until the package's postinstall (install.cjs) puts
    // the native binary from @anthropic-ai/claude-code-<platform> in its place. npm 11 still runs
    // that script (with an "install scripts not yet covered by allowScripts" warning); if a
    // stricter npm skipped it we run it ourselves, and as a last resort use the platform
    // package's binary directly.
    bin: (dir) => {
      const scope = path.join(dir, 'node_modules', '@anthropic-ai');
      const candidates = [path.join(scope, 'claude-code', 'bin', 'claude.exe')];
      if (fs.existsSync(scope)) {
        for (const entry of fs.readdirSync(scope)) {
          if (!entry.startsWith('claude-code-')) continue;
          candidates.push(path.join(scope, entry, process.platform === 'win32' ? 'claude.exe' : 'claude'));
        }
      }
      return candidates;
    },
    versionPattern: /^2\.1\.332 \(Claude Code\)/m,
    postinstall: (dir) => {
      const pkgDir = path.join(dir, 'node_modules', '@anthropic-ai', 'claude-code');
      if (fs.existsSync(path.join(pkgDir, 'install.cjs'))) {
        spawnSync(process.execPath, ['install.cjs'], { cwd: pkgDir, stdio: ['ignore', 2, 2], timeout: 120_000 });
      }
    },
  },
  codex: {
    name: 'codex',
    pkg: '@openai/codex',
    version: '0.171.0',
    envVar: 'BELLTOWER_CODEX_BIN',
    bin: (dir) => [path.join(dir, 'node_modules', '.bin', process.platform === 'win32' ? 'codex.cmd' : 'codex')],
    versionPattern: /0\.171\.0/,
  },
  gemini: {
    name: 'gemini',
    pkg: '@google/gemini-cli',
    version: '0.61.0',
    envVar: 'BELLTOWER_GEMINI_BIN',
    bin: (dir) => [path.join(dir, 'node_modules', '.bin', process.platform === 'win32' ? 'gemini.cmd' : 'gemini')],
    versionPattern: /0\.61\.0/,
  },
  // Older versions still in use, each with what it lacks (test/e2e/older-versions.test.ts):
  // Claude Code 1.0 has no PermissionRequest hook, Codex 0.150 no OSC 7501, 0.169 no SessionStart;
  // Gemini CLI 0.55 sends a tool's AfterTool after an Esc ended its turn, as 0.61 does.
  'claude@1.0.128': {
    name: 'claude',
    pkg: '@anthropic-ai/claude-code',
    version: '1.0.128',
    envVar: 'BELLTOWER_CLAUDE_1_0_BIN',
    bin: (dir) => [path.join(dir, 'node_modules', '.bin', process.platform === 'win32' ? 'claude.cmd' : 'claude')],
    versionPattern: /^1\.0\.128 \(Claude Code\)/m,
  },
  'codex@0.169.1': {
    name: 'codex',
    pkg: '@openai/codex',
    version: '0.169.1',
    envVar: 'BELLTOWER_CODEX_0_169_BIN',
    bin: (dir) => [path.join(dir, 'node_modules', '.bin', process.platform === 'win32' ? 'codex.cmd' : 'codex')],
    versionPattern: /0\.169\.1/,
  },
  'gemini@0.55.1': {
    name: 'gemini',
    pkg: '@google/gemini-cli',
    version: '0.55.1',
    envVar: 'BELLTOWER_GEMINI_0_55_BIN',
    bin: (dir) => [path.join(dir, 'node_modules', '.bin', process.platform === 'win32' ? 'gemini.cmd' : 'gemini')],
    versionPattern: /0\.55\.1/,
  },
  'codex@0.150.1': {
    name: 'codex',
    pkg: '@openai/codex',
    version: '0.150.1',
    envVar: 'BELLTOWER_CODEX_0_150_BIN',
    bin: (dir) => [path.join(dir, 'node_modules', '.bin', process.platform === 'win32' ? 'codex.cmd' : 'codex')],
    versionPattern: /0\.150\.1/,
  },
};

/** The folder that holds every cached agent install. */
export function agentCacheRoot() {
  return path.resolve(process.env.BELLTOWER_AGENT_CACHE || path.join(REPO_ROOT, '.cache', 'agents'));
}

/** @param {AgentSpec} spec */
export function agentInstallDir(spec) {
  return path.join(agentCacheRoot(), `${spec.name}-${spec.version}`);
}

/**
 * Runs `<bin> --version`; returns its output when it matches the pinned version, else null.
 * @param {string} bin @param {AgentSpec} spec
 */
export function probeVersion(bin, spec) {
  if (!fs.existsSync(bin)) return null;
  const env = { ...process.env, DISABLE_AUTOUPDATER: '1', DISABLE_TELEMETRY: '1', NO_COLOR: '1' };
  const r = spawnSync(bin, ['--version'], { encoding: 'utf8', timeout: 60_000, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const out = `${r.stdout ?? ''}${r.stderr ?? ''}`.trim();
  return r.status === 0 && spec.versionPattern.test(out) ? out : null;
}

/** @param {AgentSpec} spec @param {string} dir */
function findWorkingBin(spec, dir) {
  for (const candidate of spec.bin(dir)) if (probeVersion(candidate, spec)) return candidate;
  return null;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A cross-process lock (mkdir is atomic) so that parallel test files install only once.
 * @param {string} lockDir @param {number} timeoutMs
 */
async function withLock(lockDir, timeoutMs, fn) {
  const started = Date.now();
  for (;;) {
    try {
      fs.mkdirSync(lockDir);
      fs.writeFileSync(path.join(lockDir, 'pid'), String(process.pid));
      break;
    } catch (err) {
      if (/** @type {NodeJS.ErrnoException} */ (err).code !== 'EEXIST') throw err;
      let stale = false;
      try {
        const pid = Number(fs.readFileSync(path.join(lockDir, 'pid'), 'utf8'));
        if (pid > 0) process.kill(pid, 0);
      } catch (e) {
        // ESRCH: the owner died; a missing pid file older than a minute: an interrupted locker.
        const code = /** @type {NodeJS.ErrnoException} */ (e).code;
        if (code === 'ESRCH') stale = true;
        if (code === 'ENOENT') stale = Date.now() - fs.statSync(lockDir, { throwIfNoEntry: false })?.mtimeMs > 60_000;
      }
      if (stale) {
        fs.rmSync(lockDir, { recursive: true, force: true });
        continue;
      }
      if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for the install lock ${lockDir}`);
      await sleep(500);
    }
  }
  try {
    return await fn();
  } finally {
    fs.rmSync(lockDir, { recursive: true, force: true });
  }
}

/**
 * Installs (if needed) one pinned agent and returns the absolute path of its executable.
 * @param {keyof typeof AGENTS | string} name
 * @param {{ log?: (line: string) => void, timeoutMs?: number }} [options]
 * @returns {Promise<string>}
 */
export async function installAgent(name, options = {}) {
  const spec = AGENTS[name];
  if (!spec) throw new Error(`unknown agent ${name} (known: ${Object.keys(AGENTS).join(', ')})`);
  const log = options.log ?? (() => {});
  const override = process.env[spec.envVar];
  if (override) {
    if (!fs.existsSync(override)) throw new Error(`${spec.envVar}=${override} does not exist`);
    return path.resolve(override);
  }

  const dir = agentInstallDir(spec);
  const ready = findWorkingBin(spec, dir);
  if (ready) return ready;

  fs.mkdirSync(agentCacheRoot(), { recursive: true });
  return withLock(`${dir}.lock`, options.timeoutMs ?? 15 * 60_000, async () => {
    const again = findWorkingBin(spec, dir); // another process may have finished meanwhile
    if (again) return again;

    // Install next to the final place, then rename: a crash never leaves a half install there.
    const tmp = `${dir}.tmp-${process.pid}`;
    fs.rmSync(tmp, { recursive: true, force: true });
    fs.mkdirSync(tmp, { recursive: true });
    // A package.json of our own keeps npm from walking up into the repo's package.json.
    // It also approves the one install script that matters (npm 11 `allowScripts`).
    const manifest = { name: `belltower-agent-${spec.name}`, private: true, allowScripts: { [spec.pkg]: true } };
    fs.writeFileSync(path.join(tmp, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const args = [
      'install',
      '--prefix',
      tmp,
      '--no-save',
      '--no-package-lock',
      '--no-audit',
      '--no-fund',
      '--loglevel=error',
      `${spec.pkg}@${spec.version}`,
    ];
    log(`installing ${spec.pkg}@${spec.version} into ${dir} …`);
    const started = Date.now();
    const r = spawnSync(npm, args, { cwd: tmp, encoding: 'utf8', timeout: options.timeoutMs ?? 15 * 60_000, stdio: ['ignore', 'pipe', 'pipe'] });
    if (r.status !== 0) {
      fs.rmSync(tmp, { recursive: true, force: true });
      throw new Error(`npm ${args.join(' ')} failed (${r.status ?? r.signal ?? r.error?.message}):\n${(r.stderr ?? '').slice(-2000)}`);
    }
    const [preferred] = spec.bin(tmp);
    if (spec.postinstall && preferred !== undefined && !probeVersion(preferred, spec)) {
      log(`running ${spec.name}'s postinstall by hand (npm skipped it)`);
      spec.postinstall(tmp);
    }
    fs.rmSync(dir, { recursive: true, force: true });
    fs.renameSync(tmp, dir);
    const bin = findWorkingBin(spec, dir);
    if (!bin) throw new Error(`${spec.pkg}@${spec.version} installed in ${dir} but no executable answers --version`);
    log(`installed ${spec.pkg}@${spec.version} in ${((Date.now() - started) / 1000).toFixed(1)} s: ${bin}`);
    return bin;
  });
}

export const installClaude = (options) => installAgent('claude', options);
export const installCodex = (options) => installAgent('codex', options);
export const installGemini = (options) => installAgent('gemini', options);

// CLI
if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const args = process.argv.slice(2);
  const names = args.includes('--all') ? Object.keys(AGENTS) : args.length > 0 ? args : ['claude'];
  let failed = false;
  for (const name of names) {
    try {
      const bin = await installAgent(name, { log: (line) => console.error(line) });
      console.log(bin);
    } catch (err) {
      failed = true;
      console.error(`install-claude: ${name}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  process.exitCode = failed ? 1 : 0;
}
