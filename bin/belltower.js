#!/usr/bin/env node
// Thin launcher: the CLI lives in dist/bundle/ (built by `npm run build`: tsc, then
// scripts/bundle.mjs).
// React's production build is the bundle's only one (scripts/bundle.mjs): NODE_ENV is left as the
// user has it, and so are the tiles' programs, which inherit this process's environment.
// `belltower attach` first tries its own small entry (the client and the wire protocol only):
// attaching costs a connect, not the whole command line's load. It hands back (null) what it
// does not take: --help, the client's own options.
const full = () => import('../dist/bundle/belltower.js').then((cli) => cli.main(process.argv));
const start =
  process.argv[2] === 'attach'
    ? import('../dist/bundle/attach.js').then((fast) => fast.attachFast(process.argv)).then((status) => (status === null ? full() : process.exit(status)))
    : full();
start.then(
  () => undefined,
  (error) => {
    if (error && error.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('dist/bundle/belltower.js')) {
      process.stderr.write('belltower: the CLI is not built yet. Run `npm run build` in the belltower folder.\n');
    } else {
      process.stderr.write(`belltower: ${error && error.stack ? error.stack : String(error)}\n`);
    }
    process.exit(1);
  },
);
