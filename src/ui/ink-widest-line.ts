/**
 * Ink's `widest-line`, for the bundled CLI only: scripts/bundle.mjs resolves the package to this
 * file. Ink calls it on every text node of every render (render-node-to-output.js, and
 * measure-text.js when its own cache misses), and the package runs string-width, which segments
 * graphemes and tests emoji patterns, on each line each time: half of a busy grid's chrome render
 * went there, re-measuring texts that had not changed. Same numbers, remembered.
 */
export { widestLine as default } from './display-width.js';
