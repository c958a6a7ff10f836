/**
 * No import circles in src/: every module can be read (and moved into the server, or a client)
 * without dragging in the modules that import it. Type-only imports count: a circle of types is
 * still two files that cannot be understood apart. A new circle fails here, naming its files.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { circles, importGraph, sources, SRC as src } from '../support/import-graph.js';

describe('the import graph of src/', () => {
  it('has no circles', () => {
    const found = circles(importGraph(sources(src))).map((part) => part.map((file) => path.relative(src, file)).join(' → '));
    expect(found).toEqual([]);
  });

  it('finds a circle where there is one (the check itself)', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a', 'd']],
      ['d', []],
    ]);
    expect(circles(graph)).toEqual([['a', 'b', 'c']]);
  });
});
