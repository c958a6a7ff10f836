/**
 * The status line's words at every width (src/ui/status-line-text.ts): nothing runs past the edge,
 * the counts and the hints never touch, a count is whole or absent, who needs you comes first, and
 * in focus mode the way back to the grid is always there from 40 columns up.
 */
import fc from 'fast-check';
import { createElement } from 'react';
import stringWidth from 'string-width';
import { beforeAll, describe, expect, it } from 'vitest';
import { NEEDS_YOU, OTHERS, statusLinePlain, statusLineText } from '../../src/ui/status-line-text.js';
import type { StatusFacts, StatusLineText } from '../../src/ui/status-line-text.js';
import { DEFAULT_ESCAPE_KEY, showKey } from '../../src/ui/keymap.js';
import type { TileStateName } from '../../src/verdict/state.js';

const WIDTHS = [40, 60, 80, 100, 120, 200];
const BACK = `${showKey(DEFAULT_ESCAPE_KEY)} back`;

const many = (state: TileStateName, n: number): TileStateName[] => Array.from({ length: n }, () => state);
/** Twenty tiles in every state. */
const TWENTY: TileStateName[] = [
  ...many('working', 5),
  ...many('blocked', 3),
  ...many('idle', 2),
  ...many('done', 4),
  ...many('starting', 2),
  ...many('failed', 2),
  'unknown',
  'exited',
];

function facts(overrides: Partial<StatusFacts> = {}): StatusFacts {
  return { width: 80, states: TWENTY, mode: 'grid', focusedName: '7 web-2', zoomed: false, escapeKey: DEFAULT_ESCAPE_KEY, note: null, unseen: 6, hidden: 2, ...overrides };
}

const countOf = (states: readonly TileStateName[], state: TileStateName) => states.filter((s) => s === state).length;

/** Everything every status line must be, whatever it shows. */
function expectSound(line: StatusLineText, f: StatusFacts): void {
  const text = statusLinePlain(line);
  expect(stringWidth(text)).toBeLessThanOrEqual(f.width);
  if (line.hints !== '') {
    expect(line.gap).toBeGreaterThanOrEqual(2);
    // The hints are last: nothing of the left part after them.
    expect(text.endsWith(`${line.hints} `)).toBe(true);
  }
  for (const part of line.parts) {
    if (part.kind === 'count') {
      expect(part.text).toMatch(/^\d+ \w+$/);
      expect(part.text).toBe(`${countOf(f.states, part.state)} ${part.state}`);
    }
    if (part.kind === 'unseen') expect(part.text).toBe(`${f.unseen} unseen`);
    if (part.kind === 'hidden') expect(part.text).toBe(`${f.hidden} idle hidden`);
  }
  // Who needs you first: no other count before a needs-you one or the unseen.
  const order = line.parts.filter((p) => p.kind === 'count' || p.kind === 'unseen').map((p) => (p.kind === 'count' && OTHERS.includes(p.state) ? 'other' : 'needs'));
  expect(order.join(' ')).toMatch(/^(needs ?)*(other ?)*$/);
  if (f.mode === 'focus' && !f.scroll && f.width >= 40) expect(line.hints).toContain(`${showKey(f.escapeKey)} back`);
}

const shownCounts = (line: StatusLineText) => line.parts.flatMap((p) => (p.kind === 'count' || p.kind === 'unseen' ? [p.text] : []));

describe('the status line at every width', () => {
  for (const mode of ['grid', 'focus'] as const) {
    for (const width of WIDTHS) {
      it(`${mode} mode at ${width} columns: fits, keeps a gap, counts whole, who needs you first`, () => {
        const f = facts({ mode, width });
        const line = statusLineText(f);
        expectSound(line, f);
        expect(stringWidth(statusLinePlain(line))).toBe(width);
        // Needs-you counts go least urgent first; from 60 columns up (in the grid from 40) all stay.
        const needs = NEEDS_YOU.map((state) => `${countOf(TWENTY, state)} ${state}`);
        const shown = shownCounts(line).filter((c) => needs.includes(c));
        expect(shown).toEqual(needs.slice(0, shown.length));
        expect(shown.length).toBe(mode === 'grid' || width >= 60 ? 3 : 1);
      });
    }
  }

  it('at 200 columns shows everything: the name, every count and every hint', () => {
    const line = statusLinePlain(statusLineText(facts({ width: 200 })));
    expect(line).toMatch(/^ belltower · 20 tiles · 3 blocked · 2 failed · 4 done · 6 unseen · 5 working · 2 starting · 2 idle · 1 unknown · 1 exited · 2 idle hidden {2,}n next · ⏎ focus · z zoom · w why · \? keys · q quit $/);
  });

  it('at 80 columns keeps who needs you and the most useful hints, never the counts run into them', () => {
    const line = statusLinePlain(statusLineText(facts({ width: 80 })));
    expect(line).toMatch(/^ 20 tiles · 3 blocked · 2 failed · 4 done · 6 unseen {2,}n next · \? keys · q quit $/);
  });

  it('gives way in the documented order as the terminal narrows', () => {
    // What each width shows, as the set of things present; narrower never shows something a wider one dropped.
    const present = (width: number): Set<string> => {
      const line = statusLineText(facts({ width }));
      return new Set([...(line.label.includes('belltower') ? ['brand'] : []), ...(line.label.includes('tiles') ? ['label'] : []), ...line.parts.map((p) => (p.kind === 'count' ? p.state : p.kind)), ...line.hints.split(' · ').filter((h) => h !== '')]);
    };
    const dropOrder: string[] = [];
    let before = present(400);
    for (let width = 399; width >= 1; width--) {
      const now = present(width);
      for (const item of now) expect(before.has(item), `${item} came back at ${width}`).toBe(true);
      for (const item of before) if (!now.has(item)) dropOrder.push(item);
      before = now;
    }
    expect(dropOrder).toEqual(['brand', 'hidden', 'exited', 'unknown', 'idle', 'starting', 'working', 'w why', 'z zoom', '⏎ focus', 'q quit', 'n next', '? keys', 'label', 'unseen', 'done', 'failed', 'blocked']);
  });

  it('in focus mode keeps Ctrl+\\ back down to 40 columns, cutting the name with …', () => {
    const long = '12 a-tile-with-a-name-far-too-long-for-any-status-line';
    for (let width = 40; width <= 200; width++) {
      const f = facts({ mode: 'focus', width, focusedName: long });
      const line = statusLineText(f);
      expectSound(line, f);
      expect(line.label.startsWith(' FOCUS')).toBe(true);
      const name = line.label.slice(' FOCUS '.length).trimEnd();
      expect(name === '' || long.startsWith(name) || (name.endsWith('…') && long.startsWith(name.slice(0, -1)))).toBe(true);
    }
    expect(statusLineText(facts({ mode: 'focus', width: 200 })).hints).toBe(`${BACK} to the grid`);
  });

  it('a note stands where the counts were, cut with … before it reaches the hints', () => {
    const note = 'cannot save for a restore: the disk is full (ENOSPC), and more words after that';
    for (const width of WIDTHS) {
      const f = facts({ width, note });
      const line = statusLineText(f);
      expectSound(line, f);
      expect(line.parts.map((p) => p.kind)).toEqual(['note']);
      const shown = line.parts[0]!.text;
      expect(shown === note || (shown.endsWith('…') && note.startsWith(shown.slice(0, -1)))).toBe(true);
    }
    const focused = statusLineText(facts({ mode: 'focus', width: 40, note }));
    expect(focused.hints).toBe(BACK);
    expect(focused.parts[0]?.text).toMatch(/…$/);
  });

  it('the scroll view keeps Esc back and cuts the name and the note, not into the hints', () => {
    const scroll = { offset: 120, length: 5000, typing: null };
    for (const width of WIDTHS) {
      const f = facts({ mode: 'focus', width, scroll, note: '"needle" not found above', focusedName: '3 a-rather-long-tile-name' });
      const line = statusLineText(f);
      expectSound(line, f);
      expect(line.hints.endsWith('Esc back')).toBe(true);
      expect(line.label).toContain('↑120 of 5000 lines');
    }
    expect(statusLineText(facts({ width: 200, scroll })).hints).toBe('PgUp PgDn ↑↓ · g G · / n N · Esc back');
    const typing = statusLineText(facts({ width: 40, scroll: { ...scroll, typing: 'a search typed far longer than the line has room for' } }));
    expectSound(typing, facts({ width: 40 }));
    expect(typing.hints).toBe('Esc cancel');
    // The end of what is typed is where the cursor is: that end stays.
    expect(typing.label).toMatch(/^ search up: ….*room for▏$/);
  });

  it('never overflows, never glues, never cuts a count, for any tiles, names, notes and widths', () => {
    const state = fc.constantFrom<TileStateName>(...NEEDS_YOU, ...OTHERS);
    const text = fc.string({ unit: fc.constantFrom('a', 'Z', ' ', '-', '界', '🚀', 'é', '\x1b', '·'), maxLength: 80 });
    fc.assert(
      fc.property(
        fc.record({
          width: fc.integer({ min: 0, max: 260 }),
          states: fc.array(state, { maxLength: 64 }),
          mode: fc.constantFrom<'grid' | 'focus'>('grid', 'focus'),
          focusedName: fc.option(text, { nil: null }),
          zoomed: fc.boolean(),
          escapeKey: fc.constantFrom(DEFAULT_ESCAPE_KEY, 'ctrl-]', 'alt-q'),
          note: fc.option(text.filter((t) => t !== ''), { nil: null }),
          unseen: fc.integer({ min: 0, max: 64 }),
          hidden: fc.integer({ min: 0, max: 64 }),
          scroll: fc.option(fc.record({ offset: fc.integer({ min: 0, max: 99_999 }), length: fc.integer({ min: 0, max: 99_999 }), typing: fc.option(text, { nil: null }) }), { nil: null }),
        }),
        (f) => {
          const line = statusLineText(f);
          expectSound(line, f);
          if (f.width >= 40 && f.mode === 'focus' && !f.scroll) expect(line.hints.startsWith(showKey(f.escapeKey))).toBe(true);
        },
      ),
      { numRuns: 500 },
    );
  });
});

// chalk decides on colours when it loads: force them, then load Ink.
let render: typeof import('ink-testing-library').render;
let StatusLine: typeof import('../../src/ui/components/status-line.js').StatusLine;
beforeAll(async () => {
  process.env.FORCE_COLOR = '1';
  ({ render } = await import('ink-testing-library'));
  ({ StatusLine } = await import('../../src/ui/components/status-line.js'));
});

const plain = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, '');

function drawn(f: StatusFacts, color = true): string {
  const { lastFrame, unmount } = render(createElement(StatusLine, { ...f, color }));
  const out = lastFrame() ?? '';
  unmount();
  return out;
}

describe('StatusLine drawn by Ink', () => {
  it('at 80 columns reads: who needs you, a gap, then the hints', () => {
    const out = drawn(facts({ width: 80 }));
    expect(out.split('\n')).toHaveLength(1);
    const line = plain(out);
    expect(line).toMatch(/^ 20 tiles · 3 blocked · 2 failed · 4 done · 6 unseen {2,}n next · \? keys · q quit ?$/);
    expect(stringWidth(line)).toBeLessThanOrEqual(80);
    // The counts keep their states' colours.
    expect(out).toMatch(/\x1b\[33m · 3 blocked/);
    expect(out).toMatch(/\x1b\[31m · 2 failed/);
  });

  it('in focus mode at 80 and 40 columns keeps the way back', () => {
    for (const width of [80, 40]) {
      const line = plain(drawn(facts({ width, mode: 'focus', focusedName: '12 a-tile-with-a-long-name' })));
      expect(line).toMatch(/^ FOCUS 12 a-\S*…? .* {2,}Ctrl\+\\ back ?$/);
      expect(stringWidth(line)).toBeLessThanOrEqual(width);
    }
  });

  it('without colour draws the same words', () => {
    const out = drawn(facts({ width: 80 }), false);
    expect(out).not.toMatch(/\x1b\[3[0-9]m/);
    expect(plain(out)).toBe(plain(drawn(facts({ width: 80 }))));
  });
});

describe("the agents' token total", () => {
  it('shows at the end of the counts while there is room, and is the first thing to give way', () => {
    const wide = statusLinePlain(statusLineText(facts({ width: 240, tokens: 1_234_000 })));
    expect(wide).toMatch(/ · 2 idle hidden · 1.2M tokens /);
    for (const width of WIDTHS) {
      const f = facts({ width, tokens: 1_234_000 });
      const line = statusLineText(f);
      expectSound(line, f);
      const without = statusLinePlain(statusLineText(facts({ width })));
      // Where it does not fit, the line is exactly what it would be without it.
      if (!statusLinePlain(line).includes('tokens')) expect(statusLinePlain(line)).toBe(without);
    }
    expect(statusLinePlain(statusLineText(facts({ width: 80, tokens: 1_234_000 })))).not.toContain('tokens');
    expect(statusLinePlain(statusLineText(facts({ width: 240, tokens: 0 })))).not.toContain('tokens');
  });
});
