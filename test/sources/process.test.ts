import { describe, expect, it } from 'vitest';
import { processSignals } from '../../src/sources/process.js';

describe('processSignals', () => {
  it('maps a spawn', () => {
    expect(processSignals({ kind: 'spawned' })).toEqual([{ type: 'spawned', source: 'process' }]);
  });

  it('maps an exit with a code, with a signal, and a start failure', () => {
    expect(processSignals({ kind: 'exit', code: 0, signal: null })).toEqual([{ type: 'exit', source: 'process', code: 0, signal: null }]);
    expect(processSignals({ kind: 'exit', code: null, signal: 'SIGTERM' })).toEqual([
      { type: 'exit', source: 'process', code: null, signal: 'SIGTERM' },
    ]);
    expect(processSignals({ kind: 'exit', code: null, signal: null, error: 'command not found: foo' })).toEqual([
      { type: 'exit', source: 'process', code: null, signal: null, error: 'command not found: foo' },
    ]);
  });
});
