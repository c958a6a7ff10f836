import { describe, expect, it } from 'vitest';
import { chooseNotifier, clean, multiplexer, notificationBody, notificationSequence, outerTerminal } from '../../src/ui/notify.js';

describe('which notification a terminal shows', () => {
  it('knows the terminal from its own variables, also through tmux', () => {
    expect(outerTerminal({ TERM: 'xterm-kitty' })).toBe('kitty');
    expect(outerTerminal({ TERM: 'tmux-256color', TERM_PROGRAM: 'tmux', KITTY_WINDOW_ID: '3' })).toBe('kitty');
    expect(outerTerminal({ TERM_PROGRAM: 'iTerm.app' })).toBe('iterm2');
    expect(outerTerminal({ TERM: 'screen', LC_TERMINAL: 'iTerm2' })).toBe('iterm2');
    expect(outerTerminal({ TERM_PROGRAM: 'ghostty' })).toBe('ghostty');
    expect(outerTerminal({ TERM: 'foot' })).toBe('foot');
    expect(outerTerminal({ TERM_PROGRAM: 'vscode' })).toBe('vscode');
    expect(outerTerminal({ TERM: 'xterm-256color' })).toBeNull();
  });

  it('auto picks what the terminal shows, and nothing for a terminal it does not know', () => {
    expect(chooseNotifier('auto', { TERM: 'xterm-kitty' })).toBe('osc99');
    expect(chooseNotifier('auto', { TERM_PROGRAM: 'iTerm.app' })).toBe('osc9');
    expect(chooseNotifier('auto', { TERM_PROGRAM: 'WezTerm' })).toBe('osc777');
    expect(chooseNotifier('auto', { TERM: 'xterm-256color' })).toBe('off');
    expect(chooseNotifier('osc9', { TERM: 'xterm-256color' })).toBe('osc9');
    expect(chooseNotifier('off', { TERM: 'xterm-kitty' })).toBe('off');
  });

  it('sees tmux and screen', () => {
    expect(multiplexer({ TMUX: '/tmp/tmux-0/default,1,0' })).toBe('tmux');
    expect(multiplexer({ STY: '123.pts-0' })).toBe('screen');
    expect(multiplexer({})).toBeNull();
  });
});

describe('notificationSequence', () => {
  it('writes OSC 9, OSC 777 and OSC 99 as their terminals read them', () => {
    expect(notificationSequence('osc9', 'api', 'approve Bash `rm -rf build`?', null)).toBe('\x1b]9;api: approve Bash `rm -rf build`?\x1b\\');
    expect(notificationSequence('osc777', 'api', 'done; all good', null)).toBe('\x1b]777;notify;api;done, all good\x1b\\');
    expect(notificationSequence('osc99', 'api', 'done', null, 7)).toBe('\x1b]99;i=7:d=0:p=title;api\x1b\\\x1b]99;i=7:d=1:p=body;done\x1b\\');
    expect(notificationSequence('off', 'api', 'done', null)).toBe('');
  });

  it('wraps for tmux (every ESC doubled) and for screen', () => {
    expect(notificationSequence('osc9', 'a', 'b', 'tmux')).toBe('\x1bPtmux;\x1b\x1b]9;a: b\x1b\x1b\\\x1b\\');
    expect(notificationSequence('osc9', 'a', 'b', 'screen')).toBe('\x1bP\x1b]9;a: b\x1b\\\x1b\\');
  });

  it('never lets an agent\'s words drive the terminal, and cuts them short', () => {
    const seq = notificationSequence('osc9', 'web', 'done\x1b]0;pwned\x07\x1b[2J\nnext line', null);
    expect(seq.slice(4, -2)).not.toMatch(/[\x00-\x1f]/);
    expect(clean('x'.repeat(500), 20)).toHaveLength(20);
    expect(clean('a\r\n\tb', 20)).toBe('a b');
    // Invisible marks that hide or reorder text are dropped; an emoji's joiner stays.
    expect(clean('rm\u200b -rf\u202e /\u2066x\u061c\ufeff 👨‍👩‍👧', 40)).toBe('rm -rf /x 👨‍👩‍👧');
  });

  it('words the body by what happened', () => {
    expect(notificationBody('blocked', 'approve Bash: rm -rf build', 'permission')).toBe('approve Bash: rm -rf build?');
    expect(notificationBody('done', 'All 14 tests pass', undefined)).toBe('done — "All 14 tests pass"');
    expect(notificationBody('failed', 'API Error: 529 overloaded', undefined)).toBe('failed — API Error: 529 overloaded');
    expect(notificationBody('blocked', undefined, 'question')).toBe('needs you (question)');
  });
});
