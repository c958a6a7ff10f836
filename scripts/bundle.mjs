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

/**
 * Three start-up costs of dependencies, removed where the bundle loads them. Each patch names the
 * exact text it replaces: a dependency whose text changed fails the build here, never silently.
 * - yoga-layout's loader fetches its own embedded wasm (a data: URL) with fetch() when fetch exists,
 *   and fetch's first call loads Node's HTTP client (undici): 30–45 ms before the first frame. Its
 *   other path already decodes a data: URL itself (`ua`, "is a data URL"); this one now does too.
 * - string-width compiles its emoji pattern (\p{RGI_Emoji}, ~28 ms) as its module loads, for every
 *   command; now on its first use, which the chrome's narrow text never reaches.
 * - zod's namespace (`z`) carries its error messages in some fifty languages (`z.locales`, about
 *   330 KB of the bundle's 1.8 MB, compiled at every start); belltower's are English, the default
 *   zod configures itself with: the namespace keeps `en` alone.
 */
const PATCHES = [
  {
    file: join(repo, 'node_modules', 'yoga-layout', 'dist', 'binaries', 'yoga-wasm-base64-esm.js'),
    from: 'function ya(){return w||"function"!=typeof fetch?',
    to: 'function ya(){return w||"function"!=typeof fetch||ua(H)?',
  },
  {
    // Ink's and the chrome's copy (wrap-ansi keeps an older one of its own, without the pattern).
    file: join(repo, 'node_modules', 'string-width', 'index.js'),
    from: 'const rgiEmojiRegex = /^\\p{RGI_Emoji}$/v;',
    to: 'let rgiEmojiPattern;\nconst rgiEmojiRegex = {test: (text) => (rgiEmojiPattern ??= /^\\p{RGI_Emoji}$/v).test(text)};',
  },
  ...['core/index.js', 'classic/external.js'].map((file) => ({
    file: join(repo, 'node_modules', 'zod', 'v4', ...file.split('/')),
    from: 'export * as locales from "../locales/index.js";',
    to: 'import __belltowerZodEn from "../locales/en.js";\nexport const locales = Object.freeze({ __proto__: null, en: __belltowerZodEn });',
  })),
];
const patched = new Set();
const patchDependencies = {
  name: 'patch-dependencies',
  setup(build) {
    build.onLoad({ filter: /[\\/](yoga-wasm-base64-esm|string-width[\\/]index|zod[\\/]v4[\\/]core[\\/]index|zod[\\/]v4[\\/]classic[\\/]external)\.js$/ }, (args) => {
      const patch = PATCHES.find((p) => p.file === args.path);
      if (!patch) return undefined;
      const source = readFileSync(args.path, 'utf8');
      if (source.split(patch.from).length !== 2) throw new Error(`bundle: ${args.path} no longer holds, once, the text patched: ${patch.from}`);
      patched.add(patch);
      return { contents: source.replace(patch.from, patch.to), loader: 'js' };
    });
  },
};

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
  // React's production build, always (the development build costs about twice the CPU): its
  // development builds, two thirds of the grid's chunk, are left out. NODE_ENV itself stays as the
  // user has it, for the tiles' programs (bin/belltower.js).
  define: { 'process.env.NODE_ENV': '"production"' },
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
  plugins: [patchDependencies],
});
for (const patch of PATCHES) if (!patched.has(patch)) throw new Error(`bundle: no file matched ${patch.file}: its patch was not applied`);
rmSync(entryFile, { force: true });
