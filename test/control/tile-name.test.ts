/**
 * One rule for tile names wherever a name comes from — the R form and the add form (through the
 * tile set), `belltower add --name` and `rename`, the control socket, the workspace file: letters
 * of any script, CJK included, digits, dots, dashes and underscores.
 */
import { describe, expect, it } from 'vitest';
import { MAX_TILE_NAME, tileNameProblem } from '../../src/control/tile-name.js';
import { parseRequest } from '../../src/control/protocol.js';
import { nameProblem } from '../../src/tile/tile-set.js';
import { parseWorkspace } from '../../src/workspace/workspace-file.js';

const ACCEPTED = ['日本', '한국어', 'ｱｲｳ', 'ひらがな', 'api-日本', '日本_2', 'Ωmega.1', '日'.repeat(MAX_TILE_NAME)];
const REFUSED: [string, string][] = [
  ['日本 語', 'a tile name is letters, digits, dots, dashes and underscores (got "日本 語")'],
  ['日'.repeat(MAX_TILE_NAME + 1), `a tile name is at most ${MAX_TILE_NAME} characters (got ${MAX_TILE_NAME + 1})`],
  ['👨‍👩‍👧', 'a tile name is letters, digits, dots, dashes and underscores (got "👨‍👩‍👧")'],
  ['12', 'a tile name cannot be only digits: "12" would read as a tile number'],
];

/** What each path says of `name`: null when it takes it. */
function everywhere(name: string): Record<string, string | null> {
  const socketError = (op: object) => {
    const parsed = parseRequest(JSON.stringify({ v: 1, id: 1, ...op }));
    return parsed.ok ? null : parsed.error.replace(/^name: /, '');
  };
  const workspace = parseWorkspace(JSON.stringify({ tiles: [{ agent: 'shell', name }] }), '/nowhere/belltower.json', 'belltower.json');
  return {
    rule: tileNameProblem(name),
    'the grid (add and R forms) and the tile set': nameProblem(name, ['other']),
    'socket add': socketError({ op: 'add', spec: 'shell', name }),
    'socket rename': socketError({ op: 'rename', tile: '1', name }),
    'workspace file': workspace.ok ? null : workspace.errors.join('; ').replace(/^belltower\.json:1: tiles\[0\]\.name: /, ''),
  };
}

describe('tile names, the same everywhere', () => {
  it.each(ACCEPTED)('%s is a name on every path', (name) => {
    for (const [path, problem] of Object.entries(everywhere(name))) expect(problem, path).toBeNull();
  });

  it.each(REFUSED)('%s is refused on every path, in the same words', (name, words) => {
    for (const [path, problem] of Object.entries(everywhere(name))) expect(problem, path).toBe(words);
  });
});
