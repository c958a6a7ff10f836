/**
 * `Tile` stays a composition root (issue 27): tile.ts under 250 lines and 15 imports, and no file in
 * src/tile/ over 300 lines. A new kind of evidence gets its own part, not another method of Tile.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const TILE_DIR = join(import.meta.dirname, '..', '..', 'src', 'tile');
const lines = (file: string) => readFileSync(file, 'utf8').replace(/\n$/, '').split('\n');

describe('the tile stays in parts', () => {
  it('tile.ts is under 250 lines and imports fewer than 15 modules', () => {
    const tile = lines(join(TILE_DIR, 'tile.ts'));
    expect(tile.length).toBeLessThan(250);
    expect(tile.filter((line) => line.startsWith('import ')).length).toBeLessThan(15);
  });

  it('no file in src/tile is over 300 lines', () => {
    const files = readdirSync(TILE_DIR, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.ts'));
    const over = files.filter((name) => lines(join(TILE_DIR, name)).length > 300);
    expect(over).toEqual([]);
  });
});
