/**
 * The attach client is a relay: it must load neither React/Ink nor xterm, so attaching costs a
 * socket connect and not a module load. Every file it reaches (through any import, types
 * included) is in client/, wire/ or platform/, and none of them names a package that draws. The
 * command line's own way in for `belltower attach` (cli/attach-fast.ts, which the launcher tries
 * first) adds only a few checks to that.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { folderOf, importGraph, sources, SRC as src } from '../support/import-graph.js';

const DRAWING_PACKAGES = /from\s+'(react|ink|@xterm\/[^']+|node-pty)'|import\(\s*'(react|ink|@xterm\/[^']+|node-pty)'\s*\)/;

function reachable(graph: ReadonlyMap<string, readonly string[]>, from: string): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const next of graph.get(file) ?? []) visit(next);
  };
  visit(from);
  return seen;
}

describe('the attach client', () => {
  const client = path.join(src, 'client', 'attach-client.ts');
  const reached = reachable(importGraph(sources(src)), client);

  it('reaches only the wire protocol and the platform', () => {
    const outside = [...reached].map((file) => path.relative(src, file)).filter((file) => !['client', 'wire', 'platform'].includes(folderOf(path.join(src, file))));
    expect(outside).toEqual([]);
    expect(reached.size).toBeGreaterThan(2); // it does reach the wire protocol (the walk works)
  });

  it('names no package that draws or parses a terminal', () => {
    const drawing = [...reached].filter((file) => DRAWING_PACKAGES.test(fs.readFileSync(file, 'utf8'))).map((file) => path.relative(src, file));
    expect(drawing).toEqual([]);
    // The check itself: the grid does name them.
    expect(DRAWING_PACKAGES.test(fs.readFileSync(path.join(src, 'ui', 'grid-app.ts'), 'utf8'))).toBe(true);
  });
});

describe("belltower attach's own entry", () => {
  const entry = path.join(src, 'cli', 'attach-fast.ts');
  const reached = reachable(importGraph(sources(src)), entry);
  const CHECKS = ['cli/attach-fast.ts', 'cli/attach-session.ts', 'cli/output.ts', 'cli/session-name.ts', 'cli/version.ts', 'control/socket-path.ts'];

  it('reaches the client, the wire protocol, the platform and a few checks: nothing of the grid, the tiles or the command line', () => {
    const outside = [...reached].map((file) => path.relative(src, file)).filter((file) => !['client', 'wire', 'platform'].includes(file.split(path.sep)[0]!) && !CHECKS.includes(file.split(path.sep).join('/')));
    expect(outside).toEqual([]);
    expect(reached.has(path.join(src, 'client', 'attach-client.ts'))).toBe(true);
  });

  it('names no package that draws, parses a terminal or parses a command line', () => {
    const heavy = /from\s+'(react|ink|@xterm\/[^']+|node-pty|commander|zod|chokidar)'/;
    expect([...reached].filter((file) => heavy.test(fs.readFileSync(file, 'utf8'))).map((file) => path.relative(src, file))).toEqual([]);
  });
});
