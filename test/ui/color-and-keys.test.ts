import { describe, expect, it } from 'vitest';
import { colorDepthFrom, fitColor, nearest256, rgbOf256 } from '../../src/ui/color-depth.js';
import { parseEscapeKey, showKey } from '../../src/ui/keymap.js';
import { plainKeyName } from '../../src/ui/input-parser.js';

describe('colorDepthFrom', () => {
  it('reads the depth the way terminal programs do', () => {
    expect(colorDepthFrom({ COLORTERM: 'truecolor', TERM: 'xterm-256color' })).toBe('truecolor');
    expect(colorDepthFrom({ COLORTERM: '24bit', TERM: 'screen' })).toBe('truecolor');
    expect(colorDepthFrom({ TERM: 'xterm-direct' })).toBe('truecolor');
    expect(colorDepthFrom({ TERM: 'tmux-256color' })).toBe('ansi256');
    expect(colorDepthFrom({ TERM: 'screen' })).toBe('ansi16');
    expect(colorDepthFrom({ TERM: 'dumb' })).toBe('none');
  });

  it('inside tmux, takes truecolor from what tmux knows of the terminal outside (RGB)', () => {
    expect(colorDepthFrom({ TERM: 'tmux-256color', TMUX: '/tmp/x,1,0' }, '256,RGB,bpaste,ccolour,clipboard,title')).toBe('truecolor');
    expect(colorDepthFrom({ TERM: 'tmux-256color', TMUX: '/tmp/x,1,0' }, '256,bpaste,title')).toBe('ansi256');
    expect(colorDepthFrom({ TERM: 'tmux-256color' }, null)).toBe('ansi256');
    expect(colorDepthFrom({ TERM: 'dumb' }, 'RGB')).toBe('none');
  });
});

describe('fitColor', () => {
  it('maps truecolor onto the cube exactly where it is a cube colour, and greys onto the ramp', () => {
    expect(nearest256(255, 135, 0)).toBe(208);
    expect(nearest256(0, 0, 0)).toBe(16);
    expect(nearest256(128, 128, 128)).toBe(244);
    expect(rgbOf256(244)).toEqual([128, 128, 128]);
  });

  it('keeps the user palette, and drops colour where the terminal has none', () => {
    expect(fitColor({ kind: 'ansi16', index: 3 }, 'ansi16')).toEqual({ kind: 'ansi16', index: 3 });
    expect(fitColor({ kind: 'ansi256', index: 9 }, 'ansi16')).toEqual({ kind: 'ansi16', index: 9 });
    expect(fitColor({ kind: 'rgb', r: 1, g: 2, b: 3 }, 'none')).toEqual({ kind: 'default' });
    expect(fitColor({ kind: 'rgb', r: 250, g: 0, b: 0 }, 'ansi16')).toEqual({ kind: 'ansi16', index: 9 });
  });
});

describe('--escape-key', () => {
  it('takes control keys in the usual spellings', () => {
    expect(parseEscapeKey('ctrl-\\')).toEqual({ key: 'ctrl-\\' });
    expect(parseEscapeKey('C-^')).toEqual({ key: 'ctrl-^' });
    expect(parseEscapeKey('^q')).toEqual({ key: 'ctrl-q' });
    expect(parseEscapeKey('Ctrl+G')).toEqual({ key: 'ctrl-g' });
    // What the user's terminal sends for it is what the input parser names it.
    expect(plainKeyName('\x1e')).toBe('ctrl-^');
    expect(plainKeyName('\x11')).toBe('ctrl-q');
    expect(showKey('ctrl-^')).toBe('Ctrl+^');
  });

  it('refuses keys that are also Enter, Tab or Backspace, and anything not a control key', () => {
    expect(parseEscapeKey('ctrl-m')).toMatchObject({ error: expect.stringMatching(/Enter, Tab or Backspace/) });
    expect(parseEscapeKey('x')).toMatchObject({ error: expect.stringMatching(/give a control key/) });
    expect(parseEscapeKey('alt-x')).toMatchObject({ error: expect.any(String) });
  });
});
