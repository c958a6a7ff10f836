import { describe, expect, it } from 'vitest';
import { parseSpec, SpecError, splitWords } from '../../src/agents/launch-spec.js';
import { parseDuration } from '../../src/cli/duration.js';
import { parseTimingFlags } from '../../src/cli/run-setup.js';
import { resolveTiming, TimingError } from '../../src/verdict/timing.js';

describe('SPEC', () => {
  it('names an agent, with its own arguments', () => {
    expect(parseSpec('claude', {})).toMatchObject({ agent: 'claude', file: 'claude', args: [] });
    expect(parseSpec('claude --model "opus 4"', {})).toMatchObject({ agent: 'claude', args: ['--model', 'opus 4'] });
    expect(parseSpec('codex', { BELLTOWER_CODEX_BIN: '/opt/codex' })).toMatchObject({ agent: 'codex', file: '/opt/codex' });
  });

  it('shell is the user shell; a plain command runs directly; shell syntax goes through /bin/sh', () => {
    expect(parseSpec('shell', { SHELL: '/bin/zsh' })).toMatchObject({ agent: 'shell', file: '/bin/zsh', args: [] });
    expect(parseSpec('npm test', {})).toMatchObject({ agent: 'command', name: 'npm', file: 'npm', args: ['test'] });
    expect(parseSpec('make && ./deploy.sh', {})).toMatchObject({ agent: 'command', file: '/bin/sh', args: ['-c', 'make && ./deploy.sh'] });
    expect(parseSpec('FOO=1 node x.js', {})).toMatchObject({ agent: 'command', file: '/bin/sh' });
  });

  it('a shell named alone is a shell tile; with arguments it is a command', () => {
    expect(parseSpec('zsh', {})).toMatchObject({ agent: 'shell', name: 'zsh', file: 'zsh', args: [] });
    expect(parseSpec('/usr/bin/fish', {})).toMatchObject({ agent: 'shell', name: 'fish', file: '/usr/bin/fish' });
    expect(parseSpec('bash ./build.sh', {})).toMatchObject({ agent: 'command', file: 'bash', args: ['./build.sh'] });
    expect(parseSpec('dash', {})).toMatchObject({ agent: 'command' });
  });

  it('refuses an empty spec and unbalanced quotes', () => {
    expect(() => parseSpec('  ', {})).toThrow(SpecError);
    expect(() => splitWords('say "hi')).toThrow(/unbalanced "/);
  });
});

describe('durations and timing overrides', () => {
  it('parses the forms people type', () => {
    expect(parseDuration('10m')).toBe(600_000);
    expect(parseDuration('1h30m')).toBe(5_400_000);
    expect(parseDuration('500ms')).toBe(500);
    expect(parseDuration('90')).toBe(90_000);
    expect(parseDuration('1.5s')).toBe(1_500);
    expect(parseDuration('soon')).toBeNull();
    expect(parseDuration('10x')).toBeNull();
  });

  it('every timing default can be overridden, and a wrong one is refused by name', () => {
    expect(resolveTiming(parseTimingFlags(['conflictWindowMs=1000'])).conflictWindowMs).toBe(1000);
    expect(() => resolveTiming(parseTimingFlags(['conflictWindow=1000']))).toThrow(/unknown timing setting "conflictWindow"/);
    expect(() => resolveTiming(parseTimingFlags(['heldReleaseQuietMs=-1']))).toThrow(TimingError);
    expect(() => parseTimingFlags(['nonsense'])).toThrow(/NAME=MILLISECONDS/);
  });
});
