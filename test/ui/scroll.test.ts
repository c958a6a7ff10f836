import { afterEach, describe, expect, it } from 'vitest';
import { follow, scrollbackView, scrollKey, startScroll } from '../../src/ui/scroll.js';
import type { ScrollSource, ScrollState } from '../../src/ui/scroll.js';
import { Owned, feed } from '../session/helpers.js';

/** A buffer of `length` numbered lines, `rows` of them on the screen. */
function lines(length: number, rows = 10, scrolled = length - rows): ScrollSource {
  return { rows, bufferLength: length, scrolledLines: scrolled, lineText: (i) => (i >= 0 && i < length ? `line ${i + 1}` : '') };
}

function keys(state: ScrollState, source: ScrollSource, ...names: string[]): ScrollState {
  for (const name of names) {
    const r = scrollKey(state, name, source);
    if ('exit' in r) throw new Error('exited');
    state = r.state;
  }
  return state;
}

describe('the scroll view', () => {
  const source = lines(5000);

  it('pages, steps, and jumps to the oldest line and back to the bottom, within bounds', () => {
    let s = startScroll(1, source, true);
    expect(s.offset).toBe(9);
    s = keys(s, source, 'pageup', 'k');
    expect(s.offset).toBe(19);
    s = keys(s, source, 'g');
    expect(s.offset).toBe(4990);
    s = keys(s, source, 'up');
    expect(s.offset).toBe(4990);
    s = keys(s, source, 'G', 'pagedown');
    expect(s.offset).toBe(0);
    expect(scrollKey(s, 'escape', source)).toEqual({ exit: true });
  });

  it('searches up for text, then the next match with n, and says when there is none', () => {
    let s = keys(startScroll(1, source, false), source, '/', '4', '2', 'enter');
    // The bottom shows lines 4991–5000; the nearest "42" above is line 4942.
    expect(s.match).toMatchObject({ line: 4941 });
    expect(s.typing).toBeNull();
    const top = 5000 - 10 - s.offset;
    expect(4941).toBeGreaterThanOrEqual(top);
    expect(4941).toBeLessThan(top + 10);
    s = keys(s, source, 'n');
    expect(s.match).toMatchObject({ line: 4841 });
    const none = scrollKey(keys(startScroll(1, source, false), source), '/', source);
    if ('exit' in none) throw new Error('exited');
    const typed = keys(none.state, source, 'z', 'z');
    const result = scrollKey(typed, 'enter', source);
    expect(result).toMatchObject({ note: '"zz" not found above' });
  });

  it('keeps the same lines in view while new output arrives, and stays at the bottom when there', () => {
    const s = keys(startScroll(1, source, false), source, 'pageup');
    const later = { ...source, scrolledLines: source.scrolledLines + 3 };
    // The scrollback is full: three new lines pushed three old ones out.
    expect(follow(s, later).offset).toBe(s.offset + 3);
    const bottom = startScroll(1, source, false);
    expect(follow(bottom, later).offset).toBe(0);
  });
});

const owned = new Owned();
afterEach(() => owned.disposeAll());

describe('scrollbackView', () => {
  it('shows the lines `offset` up from the bottom, the match inverted', async () => {
    const screen = owned.screen({ cols: 20, rows: 3, scrollback: 100 });
    await feed(screen, Array.from({ length: 10 }, (_, i) => `row ${i + 1}`).join('\r\n'));
    let state = startScroll(1, screen, false);
    state = keys(state, screen, 'k', 'k');
    const view = scrollbackView(screen, state);
    const text = (y: number) => view.styledRow(y).runs.map((r) => r.text).join('').trimEnd();
    expect([text(0), text(1), text(2)]).toEqual(['row 6', 'row 7', 'row 8']);
    state = keys(state, screen, '/', 'w', ' ', '3', 'enter');
    const found = scrollbackView(screen, state);
    const top = screen.bufferLength - screen.rows - state.offset;
    const row = found.styledRow((state.match?.line ?? 0) - top);
    expect(row.runs.filter((r) => r.style.inverse).map((r) => r.text).join('')).toBe('w 3');
  });
});
