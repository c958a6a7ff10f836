#!/usr/bin/env node
// Thin launcher: the CLI lives in dist/bundle/ (built by `npm run build`: tsc, then
// scripts/bundle.mjs).
// React's production build, unless the user chose otherwise: the development build costs about
// twice the CPU. It must be set before React loads, so here, ahead of the dynamic import.
process.env.NODE_ENV ??= 'production';
import('../dist/bundle/belltower.js').then(
  (cli) => cli.main(process.argv),
  (error) => {
    if (error && error.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('dist/bundle/belltower.js')) {
      process.stderr.write('belltower: the CLI is not built yet. Run `npm run build` in the belltower folder.\n');
    } else {
      process.stderr.write(`belltower: ${error && error.stack ? error.stack : String(error)}\n`);
    }
    process.exit(1);
  },
);
