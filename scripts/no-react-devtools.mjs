// What the bundle has for React's devtools (scripts/bundle.mjs): Ink asks for them only with
// DEV=true, and then hears why there are none.
const unavailable = () => {
  throw new Error('belltower is bundled without React devtools; run it from dist/cli/main.js (node -e "import(\'./dist/cli/main.js\').then((c) => c.main(process.argv))") to use them');
};
export default { initialize: unavailable, connectToDevTools: unavailable };
