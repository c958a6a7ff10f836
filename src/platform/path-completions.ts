/**
 * What Tab completes in the add form: program names on PATH and folders, read from the file
 * system when Tab is pressed (never on a timer). Bounded: a PATH folder or a folder with a
 * hundred thousand entries costs one read, and at most MAX_MATCHES names come back.
 */
import { accessSync, constants, readdirSync, statSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';

const MAX_MATCHES = 200;

/** Programs on `path` (a PATH value) whose names start with `prefix`, each once. */
export function programsOnPath(prefix: string, path: string | undefined): string[] {
  if (prefix === '' || prefix.includes('/')) return [];
  const found = new Set<string>();
  for (const dir of (path ?? '').split(delimiter)) {
    if (dir === '' || found.size >= MAX_MATCHES) continue;
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      continue;
    }
    for (const name of names) {
      if (!name.startsWith(prefix) || found.has(name)) continue;
      try {
        accessSync(join(dir, name), constants.X_OK);
        if (statSync(join(dir, name)).isFile()) found.add(name);
      } catch {
        // not a program we may run
      }
      if (found.size >= MAX_MATCHES) break;
    }
  }
  return [...found];
}

/** Whether `typed` (relative to `cwd`, or absolute, or from `~`) is a folder. */
export function isFolderTyped(typed: string, cwd: string, home: string | undefined): boolean {
  if (typed.trim() === '') return false;
  const expanded = (typed === '~' || typed.startsWith('~/')) && home ? join(home, typed.slice(1)) : typed;
  try {
    return statSync(resolve(cwd, expanded)).isDirectory();
  } catch {
    return false;
  }
}

/** Folders completing `partial` (relative to `cwd`, or absolute, or from `~`), written as typed
 * and ending in `/`. Hidden folders only when the partial name starts with a dot. */
export function foldersFrom(partial: string, cwd: string, home: string | undefined): string[] {
  const slash = partial.lastIndexOf('/');
  const typedDir = slash >= 0 ? partial.slice(0, slash + 1) : '';
  const base = partial.slice(slash + 1);
  const expanded = typedDir.startsWith('~/') && home ? join(home, typedDir.slice(2)) : typedDir;
  const dir = resolve(cwd, expanded === '' ? '.' : expanded);
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const name of entries) {
    if (!name.startsWith(base) || (name.startsWith('.') && !base.startsWith('.'))) continue;
    try {
      if (statSync(join(dir, name)).isDirectory()) out.push(`${typedDir}${name}/`);
    } catch {
      // gone, or a broken link
    }
    if (out.length >= MAX_MATCHES) break;
  }
  return out;
}
