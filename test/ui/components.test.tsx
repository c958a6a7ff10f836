/**
 * The chrome's components, rendered by Ink (ink-testing-library): what a user reads in the frames,
 * the status line and the overlays, with and without colour.
 */
import stringWidth from 'string-width';
import { beforeAll, describe, expect, it } from 'vitest';
import type { GridModel } from '../../src/ui/components/grid-view.js';
import type { HeaderTile } from '../../src/ui/header.js';
import { GRID_BINDINGS, DEFAULT_ESCAPE_KEY } from '../../src/ui/keymap.js';
import { layout } from '../../src/ui/layout.js';
import { overlayContent, overlayFit, overlayRect } from '../../src/ui/overlay.js';
import { INITIAL_UI } from '../../src/ui/ui-state.js';

// chalk decides on colours when it loads: force them, then load Ink.
let render: typeof import('ink-testing-library').render;
let GridView: typeof import('../../src/ui/components/grid-view.js').GridView;
let CompactRow: typeof import('../../src/ui/components/compact-row.js').CompactRow;
beforeAll(async () => {
  process.env.FORCE_COLOR = '1';
  ({ render } = await import('ink-testing-library'));
  ({ GridView } = await import('../../src/ui/components/grid-view.js'));
  ({ CompactRow } = await import('../../src/ui/components/compact-row.js'));
});

const TILES: HeaderTile[] = [
  { id: 1, name: 'api', state: 'working', source: 'hook', sinceMs: 130_000 },
  { id: 2, name: 'web', state: 'done', source: 'psp', sinceMs: 12_000 },
  { id: 3, name: 'tests', state: 'blocked', kind: 'permission', source: 'psp', sinceMs: 4_000 },
  { id: 4, name: 'docs', state: 'idle', source: 'transcript', sinceMs: 180_000 },
];

function model(overrides: Partial<GridModel> = {}): GridModel {
  const cols = overrides.cols ?? 120;
  const rows = overrides.rows ?? 30;
  return {
    cols,
    rows,
    layout: layout({ cols, rows, count: TILES.length }),
    tiles: TILES,
    ui: INITIAL_UI,
    color: true,
    escapeKey: DEFAULT_ESCAPE_KEY,
    overlay: null,
    note: null,
    hidden: 0,
    ...overrides,
  };
}

function frame(m: GridModel): string {
  const { lastFrame, unmount } = render(<GridView model={m} />);
  const out = lastFrame() ?? '';
  unmount();
  return out;
}

const plain = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, '');

describe('GridView', () => {
  it('shows each tile with its number, name, state, source and age, and the status line', () => {
    const text = plain(frame(model()));
    expect(text).toMatch(/┏ 1 api ━+ ● working · hook · 2m10s ┓/);
    expect(text).toMatch(/╭ 2 web ─+ ✓ done · OSC 7501 · 12s ╮/);
    expect(text).toMatch(/╭ 3 tests ─+ ◆ blocked: permission · OSC 7501 · 4s ╮/);
    expect(text).toMatch(/╭ 4 docs ─+ ○ idle · transcript ╮/);
    const status = text.split('\n').at(-1)!;
    expect(status).toMatch(/belltower · 4 tiles · 1 blocked · 1 done · 1 working · 1 idle/);
    expect(status).toMatch(/n next · ⏎ focus · z zoom · w why · \? keys · q quit/);
  });

  it('is exactly the terminal size', () => {
    const lines = plain(frame(model({ cols: 100, rows: 24 }))).split('\n');
    expect(lines).toHaveLength(24);
  });

  it('colours frames by state, and not at all with NO_COLOR', () => {
    const coloured = frame(model());
    expect(coloured).toMatch(/\x1b\[3[0-9]m/);
    const colourless = frame(model({ color: false }));
    expect(colourless).not.toMatch(/\x1b\[3[0-9]m|\x1b\[9[0-7]m|\x1b\[38;/);
    // The state still reads without colour: glyph and word.
    expect(plain(colourless)).toMatch(/◆ blocked: permission/);
  });

  it('says plainly when the terminal is too small', () => {
    const m = model({ cols: 40, rows: 10, layout: layout({ cols: 40, rows: 10, count: 4 }) });
    const text = plain(frame(m)).replace(/\s+/g, ' ');
    expect(text).toMatch(/4 tiles need at least 44×11; this one is 40×10\./);
  });

  it('in focus mode says which tile has the keyboard and how to get back', () => {
    const text = plain(frame(model({ ui: { ...INITIAL_UI, mode: 'focus', selected: 2 } })));
    expect(text).toMatch(/╔ 3 tests ═+/);
    expect(text.split('\n').at(-1)).toMatch(/FOCUS 3 tests .*Ctrl\+\\ back to the grid/);
  });

  it("w on a blocked tile shows its request whole, wrapped, and the options its dialog draws", () => {
    const command = `npm run test -- --reporter=verbose ${'--filter=a-long-pattern '.repeat(4)}`.trim();
    const why = {
      id: 2, name: 'web', state: 'blocked' as const, kind: 'permission', source: 'hook', reason: 'needs you: permission', sinceMs: 4_000, entries: [],
      says: `approve Bash \`${command}\``,
      request: { asks: `approve Bash: ${command}`, options: [{ key: '1', label: 'Yes' }, { key: '2', label: 'Yes, and don’t ask again for: npm run test *' }, { key: '3', label: 'No' }] },
    };
    const content = overlayContent({ type: 'why', tileId: 2 }, { escapeKey: DEFAULT_ESCAPE_KEY, why }, 76);
    const text = content.lines.map((line) => `${line.key ?? ''} ${line.text}`).join('\n');
    // Whole: every word of the command, over as many lines as it takes.
    expect(text.replace(/\s+/g, ' ')).toContain(`it asks: approve Bash: ${command}`);
    expect(content.lines.every((line) => stringWidth(`${line.key ?? ''} ${line.text}`) <= 76)).toBe(true);
    expect(text).toMatch(/1\. Yes\n +2\. Yes, and don’t ask again for: npm run test \*\n +3\. No/);
    const undrawn = overlayContent({ type: 'why', tileId: 2 }, { escapeKey: DEFAULT_ESCAPE_KEY, why: { ...why, request: { asks: '', options: [] } } }, 76);
    expect(undrawn.lines.map((line) => line.text)).toEqual(expect.arrayContaining(['it asks something it did not name', 'its options are not drawn yet']));
  });

  it('lists every grid key in the ? overlay, from the keymap', () => {
    const content = overlayContent({ type: 'help' }, { escapeKey: DEFAULT_ESCAPE_KEY, why: null, fit: overlayFit(70) }, 116);
    const text = plain(frame(model({ rows: 70, overlay: { content, rect: overlayRect(content, 120, 70) } })));
    for (const binding of GRID_BINDINGS) expect(text).toContain(binding.help);
    expect(text).toMatch(/Ctrl\+\\ +back to the grid; press it twice to send Ctrl\+\\ to the agent/);
    expect(text).not.toMatch(/more \(/);
  });

  it('at 80×24 the ? overlay scrolls through every line, each wrapped to fit, none cut with …', () => {
    const fit = overlayFit(24);
    const all = overlayContent({ type: 'help' }, { escapeKey: DEFAULT_ESCAPE_KEY, why: null }, 76).lines;
    expect(all.length).toBeGreaterThan(fit);
    const seen: string[] = [];
    // Page by page as PgDn goes (a page less one line: a line wrapped over a page's end is read
    // whole on the next).
    for (let offset = 0; offset < all.length; offset += fit - 1) {
      const content = overlayContent({ type: 'help' }, { escapeKey: DEFAULT_ESCAPE_KEY, why: null, fit, helpOffset: offset }, 76);
      const rect = overlayRect(content, 80, 24);
      const text = plain(frame(model({ cols: 80, rows: 24, overlay: { content, rect } })));
      expect(text).not.toContain('…');
      expect(text).toMatch(/more \(\d+–\d+ of \d+\)/);
      seen.push(text);
    }
    // The box's and the tiles' frames out, so that a wrapped line reads on into its next.
    const joined = seen.join('\n').replace(/[\u2500-\u257f]/g, ' ').replace(/\s+/g, ' ');
    for (const binding of GRID_BINDINGS) expect(joined).toContain(binding.help);
    expect(joined).toContain('back to the grid; press it twice to send Ctrl+\\ to the agent');
  });

  it('shows an agent-supplied name without its control characters', () => {
    const hostile = [{ ...TILES[0]!, name: 'evil\x1b]0;owned\x07\x1b[2J' }, ...TILES.slice(1)];
    const out = frame(model({ tiles: hostile }));
    expect(out).not.toContain('\x1b]0;');
    expect(out).not.toContain('\x1b[2J');
  });
});

describe('wide letters in the chrome (a CJK letter is two columns)', () => {
  /** The display column where `ch` stands in `line` (its `nth` occurrence). */
  const columnOf = (line: string, ch: string, nth = 0): number => {
    let at = -1;
    for (let i = 0; i <= nth; i++) at = line.indexOf(ch, at + 1);
    return at < 0 ? -1 : stringWidth(line.slice(0, at));
  };

  it("a tile named 日本 keeps its frame's corners above its side borders, at every grid size", () => {
    const tiles: HeaderTile[] = [{ ...TILES[0]!, name: '日本' }, { ...TILES[1]!, name: '日本語の長い名前をつけたタイルです' }, { ...TILES[2]!, name: '한국어' }, TILES[3]!];
    for (const cols of [60, 81, 100, 120, 141]) {
      const m = model({ cols, rows: 30, tiles, layout: layout({ cols, rows: 30, count: tiles.length }) });
      const lines = plain(frame(m)).split('\n');
      const heads = lines.map((line, y) => ({ line, y })).filter(({ line }) => /[╭┏]/.test(line));
      expect(heads.length, `${cols}`).toBeGreaterThan(0);
      for (const { line, y } of heads) {
        const below = lines[y + 1]!;
        expect(stringWidth(line), `${cols}: ${line}`).toBe(cols);
        // Each corner of the header line stands right above a side border of the line below.
        const corners = [...line].map((ch, i) => ({ ch, i })).filter(({ ch }) => '╭╮┏┓'.includes(ch));
        for (const { i } of corners) {
          const column = stringWidth([...line].slice(0, i).join(''));
          expect('│┃'.includes(cutAt(below, column)), `${cols}: corner at ${column}\n${line}\n${below}`).toBe(true);
        }
      }
      expect(lines.join('\n')).toContain(' 1 日本 ');
    }
  });

  it('a compact row is exactly its width, its label cut in whole letters with an ellipsis', () => {
    const long: HeaderTile = { id: 12, name: '日本語の長い名前です', state: 'blocked', source: 'hook', sinceMs: 1000, asks: 'approve Bash `echo 日本語のとても長いコマンドです日本語のとても長いコマンドです`' };
    for (const tile of [long, { ...long, name: '日本' }, { ...long, name: 'a'.repeat(30) }, { ...long, asks: undefined }])
      for (let width = 24; width <= 58; width++) {
        const { lastFrame, unmount } = render(<CompactRow tile={tile} width={width} selected color={false} />);
        const row = plain(lastFrame() ?? '');
        unmount();
        expect(stringWidth(row), `${width}: ${row}`).toBe(width);
        expect(row.endsWith('│'), row).toBe(true);
        // The label takes 18 columns whatever its letters; the state glyph always starts column 19.
        expect(columnOf(row, '◆'), row).toBe(19);
      }
    const row = (tile: HeaderTile) => {
      const { lastFrame, unmount } = render(<CompactRow tile={tile} width={58} selected={false} color={false} />);
      const out = plain(lastFrame() ?? '');
      unmount();
      return out;
    };
    expect(row({ ...long, name: '日本' })).toMatch(/^ {2}12 日本 {10}◆ approve Bash: echo 日本語のとても長…│$/);
    // 18 columns: `  12 `, six letters and the ellipsis (a seventh letter would not fit beside it).
    expect(row(long)).toMatch(/^ {2}12 日本語の長い… ◆ /);
  });
});

/** The character of `line` that covers display column `column`. */
function cutAt(line: string, column: number): string {
  let at = 0;
  for (const ch of line) {
    const w = stringWidth(ch);
    if (column < at + Math.max(w, 1)) return ch;
    at += w;
  }
  return '';
}

