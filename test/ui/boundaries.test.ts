import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const src = join(import.meta.dirname, '..', '..', 'src');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : /\.tsx?$/.test(name) ? [path] : [];
  });
}

describe('layering', () => {
  it('nothing in tile, session, sources or verdict imports the UI', () => {
    const offenders = ['tile', 'session', 'sources', 'verdict']
      .flatMap((layer) => files(join(src, layer)))
      .filter((file) => /from '(\.\.\/)+ui\//.test(readFileSync(file, 'utf8')))
      .map((file) => relative(src, file));
    expect(offenders).toEqual([]);
  });

  it('the UI reaches the tiles only through the workspace view', () => {
    const offenders = files(join(src, 'ui'))
      .filter((file) => /from '(\.\.\/)+tile\/(?!workspace-view)/.test(readFileSync(file, 'utf8')))
      .map((file) => relative(src, file));
    expect(offenders).toEqual([]);
  });
});
