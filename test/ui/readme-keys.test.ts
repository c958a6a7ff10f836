import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_ESCAPE_KEY, keyHelp } from '../../src/ui/keymap.js';

describe("the README's key table", () => {
  it('is the keymap: the same keys, the same words', () => {
    const readme = readFileSync(join(import.meta.dirname, '..', '..', 'README.md'), 'utf8');
    const table = /<!-- keys:begin[^>]*-->\n([\s\S]*?)<!-- keys:end -->/.exec(readme)?.[1] ?? '';
    const expected = [
      '| mode | key | does |',
      '|------|-----|------|',
      ...keyHelp(DEFAULT_ESCAPE_KEY).flatMap((group) => group.rows.map(([key, help]) => `| ${group.mode} | \`${key}\` | ${help} |`)),
    ];
    expect(table.trim().split('\n')).toEqual(expected);
  });
});
