/**
 * The import graph of src/ for the architecture tests: each file's relative imports, re-exports
 * and dynamic imports (types included), its circles, and the folder each file is in.
 */
import fs from 'node:fs';
import path from 'node:path';

export const SRC = path.join(import.meta.dirname, '..', '..', 'src');

export function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

/** Each file's relative imports and re-exports (`import … from './x.js'`, `export … from`,
 * `import './x.js'`, `import('./x.js')`), as files. */
export function importGraph(files: readonly string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const text = fs.readFileSync(file, 'utf8');
    const targets: string[] = [];
    for (const match of text.matchAll(/^(?:import|export)\s[^;]*?from\s+'(\.[^']+)'/gms)) {
      const base = path.resolve(path.dirname(file), match[1]!).replace(/\.js$/, '');
      const found = [`${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')].find((candidate) => fs.existsSync(candidate));
      if (found) targets.push(found);
    }
    // A side-effect import (`import './x.js'`) runs the module: an edge like any other.
    for (const match of text.matchAll(/^import\s+'(\.[^']+)'/gm)) {
      const base = path.resolve(path.dirname(file), match[1]!).replace(/\.js$/, '');
      const found = [`${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')].find((candidate) => fs.existsSync(candidate));
      if (found) targets.push(found);
    }
    for (const match of text.matchAll(/import\(\s*'(\.[^']+)'\s*\)/g)) {
      const base = path.resolve(path.dirname(file), match[1]!).replace(/\.js$/, '');
      const found = [`${base}.ts`, `${base}.tsx`].find((candidate) => fs.existsSync(candidate));
      if (found) targets.push(found);
    }
    graph.set(file, targets);
  }
  return graph;
}

/** The strongly connected parts with more than one file (Tarjan): each is a circle. */
export function circles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const part: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        part.push(w);
      } while (w !== v);
      if (part.length > 1) found.push(part.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

/** The top folder of `file` under src/ (`tile` for src/tile/tile.ts). */
export function folderOf(file: string): string {
  return path.relative(SRC, file).split(path.sep)[0]!;
}
