import { describe, expect, it } from 'vitest';
import { printable, printableLine } from '../../src/platform/printable.js';

describe('printable', () => {
  it('shows escape sequences instead of passing them to the terminal', () => {
    // A title change, a screen clear and an OSC 52 clipboard write hidden in an agent's message.
    const hostile = 'done\x1b]0;pwned\x07\x1b[2J\x1b]52;c;aGk=\x07';
    const shown = printable(hostile);
    expect(shown).not.toMatch(/[\x00-\x1f\x7f]/);
    expect(shown).toBe('done\\x1b]0;pwned\\x07\\x1b[2J\\x1b]52;c;aGk=\\x07');
  });

  it('escapes C1 controls, DEL, line breaks and bidi overrides; keeps other text', () => {
    expect(printable('a\u009bb\u007fc\nd\u202ee')).toBe('a\\x9bb\\x7fc\\x0ad\\u202ee');
    expect(printable('✻ Brewed for 3s · done — 日本語 🚀')).toBe('✻ Brewed for 3s · done — 日本語 🚀');
    expect(printable('a\tb')).toBe('a b');
  });

  it('escapes zero-width and direction marks, but keeps the joiner inside an emoji sequence', () => {
    const marks = ['\u200b', '\u200c', '\u200d', '\u200e', '\u200f', '\u061c', '\u2066', '\u2067', '\u2068', '\u2069', '\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\ufeff'];
    for (const mark of marks) expect(printable(`a${mark}b`)).toBe(`a\\u${mark.charCodeAt(0).toString(16).padStart(4, '0')}b`);
    expect(printable('family 👨‍👩‍👧 and 🏳️‍🌈, 👋🏽‍x')).toBe('family 👨‍👩‍👧 and 🏳️‍🌈, 👋🏽\\u200dx');
    expect(printable('rm -rf \u200d/')).toBe('rm -rf \\u200d/');
  });

  it('cuts to a length with an ellipsis', () => {
    expect(printableLine('abcdef', 4)).toBe('abc…');
    expect(printableLine('abc', 4)).toBe('abc');
    expect(printableLine('a\x1bb', 3)).toBe('a\\…');
  });
});
