export * from './signals.js';
export * from './state.js';
export * from './effects.js';
export * from './timing.js';
export { reduce } from './reducer.js';
export type { Step } from './reducer.js';
export { advance, step } from './run.js';
export { readGate, describeGate } from './gate.js';
