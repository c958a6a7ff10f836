/**
 * Twenty tiles and small terminals, in a real terminal (tmux): every tile reachable from the
 * keyboard, the `?` list readable at 80×24, big tiles that stay put, and unseen marks that mean
 * something. Each test here failed before its fix (movement swapped the top two tiles, `?` was cut
 * after `H`, big tiles reshuffled, `n` visited tiles that were working again).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { closeAll, simSpec, start } from '../support/grid-session.js';
import { stateOfGlyph, tmuxMissing } from '../support/tmux.js';
import type { Tmux } from '../support/tmux.js';

const missing = tmuxMissing();
afterEach(() => closeAll());

/** The selected tile's number: a row's `▸ N`, or a big tile's heavy frame `┏ N`. */
function selectedOf(screen: string): number | null {
  const m = /^▸ (\d+) /m.exec(screen) ?? /┏ (\d+) /.exec(screen);
  return m ? Number(m[1]) : null;
}

/** The tiles drawn big (a frame with a header), by number. */
function bigOf(screen: string): number[] {
  return [...screen.matchAll(/[╭┏╔] (\d+) /g)].map((m) => Number(m[1]));
}

/** Each tile's state as drawn (a big tile's header, or its row), by its glyph: a blocked tile's
 * words are what it asks. */
function statesOf(screen: string): Map<number, string> {
  const byGlyph = (glyph: string) => stateOfGlyph(glyph) ?? '?';
  const states = new Map<number, string>();
  // After the name, what there is room for (its folder's changes, the agent's facts), then the line.
  for (const m of screen.matchAll(/[╭┏╔] (\d+) \S+(?: · [^─━═]*)? [─━═]+ (\S) /g)) states.set(Number(m[1]), byGlyph(m[2]!));
  for (const m of screen.matchAll(/^[▸ ] (\d+) \S+ +(\S) /gm)) states.set(Number(m[1]), byGlyph(m[2]!));
  return states;
}

async function press(tmux: Tmux, key: string, from: number | null): Promise<number | null> {
  tmux.keys(key);
  try {
    return selectedOf(await tmux.waitFor(`the selection to leave ${from} on ${key}`, (s) => selectedOf(s) !== from, 3_000));
  } catch {
    return from; // nothing there: the selection stays
  }
}

describe.skipIf(missing !== null)('twenty tiles at 80×24 (tmux)', () => {
  it('reaches every tile: j walks every row in order (scrolling), k comes back to the big tile, / finds any number or name', async () => {
    // Eighteen commands that keep working, two that finish at once (done: they need you, so big).
    const specs = Array.from({ length: 20 }, (_, i) => (i === 4 || i === 11 ? 'true' : 'sleep 600'));
    const { tmux } = start([...specs, '--session', 'twenty'], { cols: 80, rows: 24 });
    let screen = await tmux.waitFor('twenty tiles, two of them done', (s) => /20 tiles/.test(s) && bigOf(s).length >= 1 && (s.match(/✓ done/g) ?? []).length >= 2);
    const big = bigOf(screen);
    expect(selectedOf(screen)).toBe(1);

    const visited = [1];
    for (let i = 0; i < 20; i++) {
      const next = await press(tmux, 'j', visited.at(-1)!);
      if (next === visited.at(-1)) break;
      visited.push(next!);
    }
    const rows = Array.from({ length: 20 }, (_, i) => i + 1).filter((n) => !big.includes(n));
    expect(visited).toEqual(rows);

    let at: number | null = visited.at(-1)!;
    for (let i = 0; i < rows.length - 1; i++) at = await press(tmux, 'k', at);
    expect(at).toBe(1);
    expect(big).toContain(await press(tmux, 'k', 1));

    tmux.keys('/');
    await tmux.waitFor('the finder', (s) => s.includes('find a tile'));
    tmux.type('17');
    tmux.keys('Enter');
    screen = await tmux.waitFor('tile 17 selected by number', (s) => !s.includes('find a tile') && selectedOf(s) === 17);
    tmux.keys('/');
    await tmux.waitFor('the finder', (s) => s.includes('find a tile'));
    tmux.type('true-2');
    tmux.keys('Enter');
    await tmux.waitFor('tile 12 (true-2) selected by name', (s) => !s.includes('find a tile') && selectedOf(s) === 12);
  }, 60_000);

  it('`?` fits 80×24 by scrolling: every key, how to leave focus mode, no line cut with …', async () => {
    const { tmux } = start([simSpec('solo', 'rest:600')], { cols: 80, rows: 24 });
    await tmux.waitFor('the grid', (s) => s.includes('1 node'));
    tmux.keys('?');
    let screen = await tmux.waitFor('the key list', (s) => /more \(1–\d+ of \d+\)/.test(s));
    const pages = [screen];
    for (let i = 0; i < 10 && !/more \(\d+–(\d+) of \1\)/.test(screen); i++) {
      const before = screen;
      tmux.keys('Space');
      screen = await tmux.waitFor('the next page', (s) => s !== before && /more \(/.test(s));
      pages.push(screen);
    }
    expect(screen).toMatch(/more \(\d+–(\d+) of \1\)/);
    for (const page of pages) {
      const overlay = page.split('\n').slice(0, -1);
      expect(overlay.filter((line) => line.includes('…'))).toEqual([]);
    }
    const text = pages.join('\n').replace(/[\u2500-\u257f]/g, ' ').replace(/\s+/g, ' ');
    expect(text).toContain('back to the grid; press it twice to send Ctrl+\\ to the agent');
    expect(text).toContain('this list of keys');
    tmux.keys('Escape');
    await tmux.waitFor('the list closed', (s) => !s.includes('more ('));
  }, 60_000);
});

describe.skipIf(missing !== null)('big tiles and unseen marks (tmux)', () => {
  it('a big tile that still needs you never drops to a row for a newcomer, and moving the selection moves no tile', async () => {
    // 80×24 has room for one big tile above the rows: tile 2 finishes first and takes it; tile 3
    // asks a question later and waits as a row (its mark and `n` lead to it) instead of pushing
    // tile 2 out while it is still done.
    const rest = Array.from({ length: 7 }, () => simSpec('idle', 'rest:600'));
    const { tmux } = start([simSpec('first', 'rest:600'), simSpec('done', 'rest:1,work:1,done,rest:600'), simSpec('asks', 'rest:4,work:1,ask:600'), ...rest, '--quiet-period', '0'], { cols: 80, rows: 24 });
    let screen = await tmux.waitFor('tile 2 done, drawn big', (s) => statesOf(s).get(2) === 'done' && bigOf(s).includes(2), 20_000);
    expect(selectedOf(screen)).toBe(1);
    screen = await tmux.waitFor('tile 3 blocked', (s) => statesOf(s).get(3) === 'blocked', 20_000);
    expect(bigOf(screen)).toEqual([2]);
    const rowsAt = (s: string) => s.split('\n').filter((line) => /^[▸ ] \d+ /.test(line)).map((line) => line.slice(1, 16));
    const before = rowsAt(screen);
    for (const key of ['j', 'j', 'j']) {
      const from = selectedOf(tmux.screen());
      await press(tmux, key, from);
    }
    screen = tmux.screen();
    expect(bigOf(screen)).toEqual([2]);
    expect(rowsAt(screen)).toEqual(before);
  }, 60_000);

  it('a tile that starts a new turn is no longer unseen (n skips it); the focused tile never becomes unseen', async () => {
    const { tmux } = start([simSpec('one', 'rest:1,work:1,done,rest:3,work:600'), simSpec('two', 'rest:600'), simSpec('three', 'rest:2,work:1,done,rest:600'), '--quiet-period', '0']);
    // Simulated agents are named after their command: node, node-2, node-3.
    await tmux.waitFor('three tiles', (s) => s.includes('3 node-3'));
    tmux.keys('3', 'Enter');
    await tmux.waitFor('focus on tile 3', (s) => s.includes('FOCUS 3 node-3'));
    await tmux.waitFor('tile 1 unseen after its done', (s) => /1 unseen/.test(s) || /✓ done/.test(s));
    await tmux.waitFor('tile 3 done while focused', (s) => /╔ 3 node-3 [═]+ ✓ done/.test(s), 20_000);
    tmux.keys('C-\\');
    await tmux.waitFor('back in the grid', (s) => s.includes('belltower · 3 tiles') || /3 tiles/.test(s.split('\n').at(-1) ?? ''));
    // Tile 1 works again: only tile 3's done is left, and it was never unseen.
    // (A frame may be caught half drawn: the header first, the status line after; wait for both.
    // Before the fix the mark stayed for good.)
    await tmux.waitFor('tile 1 working again, and nothing unseen', (s) => /[╭┏] 1 node [─━]+ ● working/.test(s) && !/unseen/.test(s), 20_000);
    tmux.keys('n');
    await tmux.waitFor('n goes to the done tile, not to tile 1', (s) => selectedOf(s) === 3 || /only tile that needs you/.test(s));
  }, 60_000);
});

describe.skipIf(missing !== null)('acting from the grid (tmux)', () => {
  it('a blocked tile says what it asks in its header and its row; i sends a line without entering the tile; Space peeks at a row', async () => {
    const rest = Array.from({ length: 6 }, () => simSpec('idle', 'rest:600'));
    const { tmux } = start([simSpec('asks', 'rest:1,work:1,ask:600'), simSpec('talks', 'rest:600'), ...rest], { cols: 100, rows: 30 });
    // The request, in the agent's words, where the state words were.
    let screen = await tmux.waitFor('tile 1 asking', (s) => /◆ approve Bash: make deploy/.test(s), 20_000);
    expect(bigOf(screen)).toContain(1);

    // i on tile 2 (a row): a line typed for it, sent with Enter, while the grid keeps the keyboard.
    tmux.keys('2');
    await tmux.waitFor('tile 2 selected', (s) => selectedOf(s) === 2);
    tmux.keys('i');
    await tmux.waitFor('the line to send', (s) => s.includes('send to 2 node-2'));
    tmux.type('ship it');
    tmux.keys('Enter');
    screen = await tmux.waitFor('the line to reach the agent', (s) => s.includes('answering "ship it"') && !s.includes('send to 2'), 20_000);
    expect(screen.split('\n').at(-1)).not.toMatch(/FOCUS/);

    // Space: tile 5's live screen over the grid; the layout under it does not move.
    tmux.keys('5');
    const before = await tmux.waitFor('tile 5 selected', (s) => selectedOf(s) === 5);
    tmux.keys('Space');
    screen = await tmux.waitFor('the peek', (s) => s.includes('peek 5 node-5') && s.includes('a simulated agent'));
    tmux.keys('Escape');
    const after = await tmux.waitFor('the peek closed', (s) => !s.includes('peek 5'));
    expect(bigOf(after)).toEqual(bigOf(before));
  }, 60_000);
});
