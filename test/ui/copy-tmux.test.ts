/**
 * Copy mode in a real terminal: belltower runs inside tmux with `set-clipboard on`, so tmux takes
 * the OSC 52 that belltower writes and fills its own paste buffer with the text (tmux 3.3a:
 * measured). The keys (`[ g V j y`) and, with `--mouse`, a press and a release select; the
 * buffer holds exactly the lines' text.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { closeAll, quitCleanly, start } from '../support/grid-session.js';
import { tmuxMissing } from '../support/tmux.js';
import type { Tmux } from '../support/tmux.js';

const missing = tmuxMissing();
afterEach(() => closeAll());

/** tmux's newest paste buffer, or null while there is none. */
function buffer(tmux: Tmux): string | null {
  try {
    return tmux.tmux('show-buffer');
  } catch {
    return null;
  }
}

const lines = 'sh -c "seq 1 40 | sed s/^/line-/; exec sleep 600"';

describe.skipIf(missing !== null)('copy mode in a real terminal (tmux)', () => {
  it('[ g V j y: the two first lines reach the terminal as OSC 52 (tmux fills its buffer from it)', async () => {
    const { tmux, dir } = start([lines, '--session', 'copy'], { cols: 100, rows: 30 });
    tmux.tmux('set-option', '-g', 'set-clipboard', 'on');
    await tmux.waitFor('the output', (s) => s.includes('line-40'));
    tmux.keys('[');
    await tmux.waitFor('the scroll view', (s) => s.includes('SCROLL 1 sh'));
    tmux.keys('g');
    await tmux.waitFor('the oldest line on top', (s) => s.split('\n')[1]?.startsWith('┃line-1 ') === true);
    tmux.keys('V', 'j');
    // The selection is drawn in reverse video: all of line-1, and line-2 (the cursor on its start).
    await tmux.waitFor('the selection shown', () => {
      const [, first, second, third] = tmux.screen(true).split('\n');
      // eslint-disable-next-line no-control-regex
      const sgr = /\x1b\[([\d;]*)m/g;
      const reversedAt = (line: string | undefined, text: string) => {
        // The attributes in force where `text` starts.
        const at = line?.indexOf(text) ?? -1;
        const codes = [...(line ?? '').slice(0, at).matchAll(sgr)].map((m) => m[1]!);
        const lastReset = codes.findLastIndex((c) => c === '0' || c === '');
        return at >= 0 && codes.slice(lastReset + 1).some((c) => c.split(';').includes('7'));
      };
      return reversedAt(first, 'line-1') && reversedAt(second, 'ine-2') && !reversedAt(third, 'line-3');
    });
    await tmux.waitFor('the status line says so', (s) => /SELECT LINES 1 sh · 2 lines +y copy · Esc cancel/.test(s));
    expect(buffer(tmux)).toBeNull();
    tmux.keys('y');
    await tmux.until('the copy in tmux', () => buffer(tmux) !== null);
    expect(buffer(tmux)).toBe('line-1\nline-2');
    await tmux.waitFor('the note, and back to the grid', (s) => s.includes('copied 2 lines to the clipboard') && !s.includes('SCROLL 1 sh'));
    await quitCleanly(tmux, dir);
  }, 60_000);

  it('with --mouse, a press and a release in the scroll view select and copy', async () => {
    const { tmux, dir } = start([lines, '--mouse', '--session', 'copy-mouse'], { cols: 100, rows: 30 });
    tmux.tmux('set-option', '-g', 'set-clipboard', 'on');
    await tmux.waitFor('the output', (s) => s.includes('line-40'));
    // The terminal was asked for mouse reports (SGR), by the session's server through its client.
    await tmux.until('mouse reports on', () => tmux.show('#{mouse_sgr_flag}') === '1');
    tmux.keys('[', 'g');
    await tmux.waitFor('the oldest line on top', (s) => s.split('\n')[1]?.startsWith('┃line-1 ') === true);
    // The body starts at the second column of the second line: line-3 is on the fourth (SGR
    // coordinates count from 1). Press on its `l`, release on line-4's `e`.
    tmux.type('\x1b[<0;2;4M');
    tmux.type('\x1b[<0;5;5m');
    await tmux.until('the copy in tmux', () => buffer(tmux) !== null);
    expect(buffer(tmux)).toBe('line-3\nline');
    await quitCleanly(tmux, dir);
  }, 60_000);
});
