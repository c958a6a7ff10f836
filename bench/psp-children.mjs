#!/usr/bin/env node
/**
 * The cost of one OSC 7501 child record as more unique ids arrive, as a ratio: the engine must
 * spend the same on the 16,000th id as on the 1,000th (the gate keeps the newest 64). Before the
 * bound, each record copied every open id: 16,000 ids took 45 s. Runs the BUILT output:
 *
 *   npm run build && node bench/psp-children.mjs
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const { initialState, step } = await import(path.join(here, '..', 'dist', 'verdict', 'index.js')).catch(() => {
  console.error('bench: dist/ is missing or stale — run `npm run build` first');
  process.exit(1);
});

let state = step(initialState({ promptsFromHooks: true }), { type: 'turn-start', real: true, source: 'hook', t: 0, seq: 1 }).state;
const perRecord = (from, to) => {
  const start = performance.now();
  for (let i = from; i < to; i++) state = step(state, { type: 'child', id: `task-${i}`, open: true, source: 'psp', t: i, seq: state.lastSeq + 1 }).state;
  return ((performance.now() - start) * 1000) / (to - from);
};
perRecord(0, 1_000); // warm-up
const early = perRecord(1_000, 2_000);
perRecord(2_000, 15_000);
const late = perRecord(15_000, 16_000);
console.log(`µs per child record: ids 1k–2k ${early.toFixed(1)}, ids 15k–16k ${late.toFixed(1)}; ratio late/early ${(late / early).toFixed(2)} (bounded: ~1)`);
