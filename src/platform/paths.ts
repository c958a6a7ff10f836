/**
 * Path canonicalisation for everything belltower watches or compares.
 *
 * Why: the same folder has many spellings. A symlinked home, macOS's /var → /private/var, and on
 * Windows a different letter case or an 8.3 short name (C:\Users\RUNNER~1) all name one folder; the
 * field learned this from Windows 8.3 short paths, where a watcher keyed by one spelling never
 * matched the events reported under the other. The platform is a parameter so this logic is
 * tested on any machine.
 */
import fs from 'node:fs';
import path from 'node:path';

export type Platform = NodeJS.Platform;

export interface PathDeps {
  platform?: Platform;
  /** Resolves an existing path to its canonical spelling; throws when it does not exist. */
  realpath?: (p: string) => string;
}

function pathApi(platform: Platform): path.PlatformPath {
  return platform === 'win32' ? path.win32 : path.posix;
}

/**
 * The canonical spelling of `p`: realpath of the deepest existing ancestor, with the
 * not-yet-existing rest re-appended. A file that does not exist yet (a transcript before the
 * agent's first write) still gets the same spelling it will have once it exists.
 */
export function canonicalPath(p: string, deps: PathDeps = {}): string {
  const platform = deps.platform ?? process.platform;
  const realpath = deps.realpath ?? fs.realpathSync.native;
  const api = pathApi(platform);
  let existing = api.resolve(p);
  const rest: string[] = [];
  for (;;) {
    try {
      const real = realpath(existing);
      return rest.length === 0 ? real : api.join(real, ...rest.reverse());
    } catch {
      const parent = api.dirname(existing);
      if (parent === existing) return api.resolve(p); // nothing exists, not even the root
      rest.push(api.basename(existing));
      existing = parent;
    }
  }
}

/** Separators, trailing separators and `.`/`..` normalised; not touching the disk. */
function lexical(p: string, platform: Platform): string {
  const api = pathApi(platform);
  const resolved = api.resolve(p);
  const root = api.parse(resolved).root;
  return resolved.length > root.length ? resolved.replace(/[\\/]+$/, '') : resolved;
}

/**
 * Whether two spellings name the same folder. POSIX: equal canonical paths (case matters).
 * Windows only: case-insensitive, and when the spellings still differ, a canonical fallback that
 * expands 8.3 short names through realpath.
 */
/** A folder is there (following links); false when missing or unreadable. */
export function isFolder(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}

export function sameFolder(a: string, b: string, deps: PathDeps = {}): boolean {
  const platform = deps.platform ?? process.platform;
  if (platform !== 'win32') return canonicalPath(a, deps) === canonicalPath(b, deps);
  const fold = (p: string) => lexical(p, platform).toLowerCase();
  if (fold(a) === fold(b)) return true;
  const canon = (p: string) => lexical(canonicalPath(p, deps), platform).toLowerCase();
  return canon(a) === canon(b);
}
