/**
 * The layers of src/ (docs/design.md, "Where the code lives"): a folder imports only from its own
 * layer and those below it, never upward — the engine and the platform know nothing of sources,
 * sources nothing of agents or recordings, a tile nothing of the grid, the grid nothing of the
 * command line. A new upward import fails here, naming the file and what it imports.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { folderOf, importGraph, sources, SRC as src } from '../support/import-graph.js';

/** Lower numbers are lower layers. Folders on one layer may import each other (no circles:
 * import-circles.test.ts). */
export const LAYERS: Readonly<Record<string, number>> = {
  verdict: 0,
  platform: 0,
  // The attach protocol: bytes and frames, nothing else.
  wire: 0,
  sources: 1,
  // The thin attach client: the wire protocol and the terminal it relays (thin-client.test.ts).
  client: 1,
  control: 1,
  session: 1,
  // git's command line for a tile's worktree and its changes: only platform below it.
  worktree: 1,
  agents: 2,
  record: 2,
  remote: 2,
  tile: 3,
  ui: 4,
  restore: 5,
  workspace: 5,
  // A session's server: the tile set, its clients and one grid for each.
  server: 5,
  cli: 6,
};

/** `file → target` for every import from a layer above the importing file's. */
export function upwardImports(graph: ReadonlyMap<string, readonly string[]>, layerOf: (file: string) => number | undefined, show: (file: string) => string): string[] {
  const upward: string[] = [];
  for (const [file, targets] of graph) {
    const from = layerOf(file);
    for (const target of targets) {
      const to = layerOf(target);
      if (from !== undefined && to !== undefined && to > from) upward.push(`${show(file)} → ${show(target)}`);
    }
  }
  return upward;
}

describe('the layers of src/', () => {
  const files = sources(src);

  it('every folder has a layer', () => {
    const folders = [...new Set(files.map(folderOf))].filter((folder) => !folder.endsWith('.ts'));
    expect(folders.filter((folder) => LAYERS[folder] === undefined)).toEqual([]);
  });

  it('no file imports from a layer above its own', () => {
    expect(upwardImports(importGraph(files), (file) => LAYERS[folderOf(file)], (file) => path.relative(src, file))).toEqual([]);
  });

  it('finds an upward import where there is one (the check itself)', () => {
    const graph = new Map([
      ['session/a', ['platform/b']],
      ['sources/c', ['agents/d', 'verdict/e']],
    ]);
    const layer = (file: string) => LAYERS[file.split('/')[0]!];
    expect(upwardImports(graph, layer, (file) => file)).toEqual(['sources/c → agents/d']);
  });
});
