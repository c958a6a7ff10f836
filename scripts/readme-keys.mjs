#!/usr/bin/env node
// Rewrites the key table in README.md from the keymap (src/ui/keymap.ts, built into dist/).
// test/ui/readme-keys.test.ts fails when the two disagree.
//   npm run build && node scripts/readme-keys.mjs
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const { keyHelp, DEFAULT_ESCAPE_KEY } = await import(path.join(root, 'dist', 'ui', 'keymap.js'));
const rows = keyHelp(DEFAULT_ESCAPE_KEY).flatMap((group) => group.rows.map(([key, help]) => `| ${group.mode} | \`${key}\` | ${help} |`));
const table = ['| mode | key | does |', '|------|-----|------|', ...rows].join('\n');
const file = path.join(root, 'README.md');
const readme = readFileSync(file, 'utf8');
// A function, not a replacement string: a `$` in a key's help must stay as written.
const next = readme.replace(/(<!-- keys:begin[^>]*-->\n)[\s\S]*?(<!-- keys:end -->)/, (_, begin, end) => `${begin}${table}\n${end}`);
if (next === readme) console.log('README.md: the key table is already up to date');
else {
  writeFileSync(file, next);
  console.log('README.md: key table rewritten');
}
