#!/usr/bin/env node
/**
 * The CLI as bin/belltower.js loads it: dist/ (tsc's output) bundled with its dependencies into
 * dist/bundle/, so that start-up reads a few files instead of some 600 modules (measured: loading
 * the CLI's modules fell from ~230 ms to ~110 ms; docs/performance.md, item 6). The grid's modules
 * (Ink, React) stay a chunk of their own, loaded by the dynamic import in cli/ui-command.ts only
 * when the grid opens: `belltower ls` never loads them.
 *
 * Kept out of the bundle: node-pty and belltower's own native addon (native code, loaded from
 * node_modules and build/ as before). The bundle sits two folders deep, as every dist/ module
 * does, so paths the code finds from its own URL (package.json, shell-integration/, demo/,
 * build/Release) stay the same.
 */
import { build } from 'esbuild';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(repo, 'dist', 'bundle');
const require = createRequire(join(repo, 'package.json'));
const inkRoot = dirname(dirname(require.resolve('ink')));
const inkVersion = JSON.parse(readFileSync(join(inkRoot, 'package.json'), 'utf8')).version;

// The row cache (src/ui/ink-row-cache.ts) patches Ink's Output class. Unbundled it imports the
// class from Ink's own file; in the bundle that file's module is the bundle's copy, so the entry
// hands that copy over (with the version bundled) before anything renders.
const entry = `
import Output from ${JSON.stringify(join(inkRoot, 'build', 'output.js'))};
globalThis[Symbol.for('belltower.bundled-ink-output')] = { version: ${JSON.stringify(inkVersion)}, Output };
export { main } from ${JSON.stringify(join(repo, 'dist', 'cli', 'main.js'))};
`;

rmSync(out, { recursive: true, force: true });
// Two entries sharing chunks: the whole command line, and `belltower attach`'s own (the launcher
// tries it first), which reaches only the attach client, the wire protocol and a few checks.
const entryFile = join(repo, 'dist', 'belltower-entry.js');
writeFileSync(entryFile, entry);
await build({
  entryPoints: [
    { in: entryFile, out: 'belltower' },
    { in: join(repo, 'dist', 'cli', 'attach-fast.js'), out: 'attach' },
  ],
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.19',
  outdir: out,
  entryNames: '[name]',
  chunkNames: 'chunk-[hash]',
  sourcemap: 'linked',
  external: ['node-pty', '*.node'],
  alias: {
    // Ink loads React's devtools only with DEV=true; the bundle has none to offer.
    'react-devtools-core': join(repo, 'scripts', 'no-react-devtools.mjs'),
    // Ink measures every text node of every render with widest-line: the same widths, remembered
    // (src/ui/ink-widest-line.ts).
    'widest-line': join(repo, 'dist', 'ui', 'ink-widest-line.js'),
  },
  // CommonJS packages in an ES module bundle call require() for Node's built-ins.
  banner: { js: "import { createRequire as __belltowerRequire } from 'node:module'; const require = __belltowerRequire(import.meta.url);" },
  logLevel: 'warning',
});
rmSync(entryFile, { force: true });
