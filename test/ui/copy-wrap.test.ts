/**
 * Copying from a real screen: a line longer than the screen comes back as one line (xterm marks
 * its continuation rows as wrapped), and the status line says SELECT while selecting.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { selectionSummary, selectionText } from '../../src/ui/copy-mode.js';
import { scrollKey, startScroll } from '../../src/ui/scroll.js';
import type { ScrollState } from '../../src/ui/scroll.js';
import { Owned, feed } from '../session/helpers.js';

const owned = new Owned();
afterEach(() => owned.disposeAll());

describe('copying from a real screen', () => {
  it('joins the rows of a soft-wrapped line, keeping the blank at the wrap', async () => {
    const screen = owned.screen({ cols: 10, rows: 4, scrollback: 10 });
    // "hello big " fills the first row exactly; "world" wraps onto the second.
    await feed(screen, 'hello big world\r\nnext');
    expect(screen.isWrapped(1)).toBe(true);
    let state: ScrollState = startScroll(1, screen, false);
    for (const key of ['g', 'V', 'j', 'j']) {
      const r = scrollKey(state, key, screen);
      if ('exit' in r) throw new Error('exited');
      state = r.state;
    }
    expect(selectionSummary(state)).toEqual({ kind: 'line', lines: 3 });
    const r = scrollKey(state, 'y', screen);
    if (!('exit' in r) || !r.copy) throw new Error('no copy');
    expect(selectionText(screen, r.copy)).toEqual({ text: 'hello big world\nnext', lines: 2, cut: false });
  });
});
