import { describe, expect, it } from 'vitest';
import { closestName, editDistance, mistypedName } from '../../src/cli/did-you-mean.js';

const NAMES = ['demo', 'run', 'ls', 'why', 'send', 'wait', 'replay', 'help', 'claude', 'codex', 'gemini', 'shell'];

describe('did you mean', () => {
  it('counts edits, a swap of neighbours as one', () => {
    expect(editDistance('lss', 'ls')).toBe(1);
    expect(editDistance('replya', 'replay')).toBe(1);
    expect(editDistance('cluade', 'claude')).toBe(1);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'run')).toBe(3);
  });

  it('suggests the closest name within two edits, and nothing for a name or a far word', () => {
    expect(closestName('lss', NAMES)).toBe('ls');
    expect(closestName('raplay', NAMES)).toBe('replay');
    expect(closestName('hepl', NAMES)).toBe('help');
    expect(closestName('Demo', NAMES)).toBe('demo');
    expect(closestName('ls', NAMES)).toBeNull();
    expect(closestName('terraform', NAMES)).toBeNull();
  });

  it('a program that can run is a SPEC, however close to a name', () => {
    const onPath = new Set(['cat', 'sh']);
    const runnable = (word: string) => onPath.has(word);
    expect(mistypedName('lss', NAMES, runnable)).toBe('ls');
    expect(mistypedName('cat', NAMES, runnable)).toBeNull(); // 2 edits from "wait", but a program
    expect(mistypedName('sh', NAMES, runnable)).toBeNull();
    expect(mistypedName('./lss', NAMES, runnable)).toBeNull(); // a path is never a typo of a command
  });
});
