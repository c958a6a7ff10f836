/**
 * 5. Memory: tiles of 120×40 that each print a million lines (`seq`; `lines` for fewer), then wait.
 * Resident memory of belltower after a full garbage collection, with 1 tile and with 16: the
 * difference over 15 is what one tile costs. The same for tmux (server), with its history limit
 * set to belltower's scrollback.
 */
import path from 'node:path';
import { ROOT, startGrid } from '../lib/grid.mjs';
import { rssBytes } from '../lib/proc.mjs';
import { sleep, until } from '../lib/stats.mjs';
import { startTmuxGrid } from '../lib/tmux.mjs';

const { layout } = await import(path.join(ROOT, 'dist', 'ui', 'layout.js'));
const { DEFAULT_SCROLLBACK } = await import(path.join(ROOT, 'dist', 'session', 'screen.js'));

const MARK = 'BENCH-MEMORY-DONE';
const LINES = 1_000_000;
const program = (lines) => `seq 1 ${lines}; echo ${MARK}; exec cat`;

/** The smallest terminal whose grid of `tiles` has bodies of at least cols×rows, all alike. */
function terminalFor(tiles, cols, rows) {
  for (let c = cols + 2; c < cols * 8; c++) {
    for (let r = rows + 3; r < rows * 8; r += 1) {
      const l = layout({ cols: c, rows: r, count: tiles });
      if (l.kind === 'grid' && l.tiles.every((t) => t.body.width >= cols && t.body.height >= rows)) return { cols: c, rows: r, body: l.tiles[0].body };
    }
  }
  throw new Error(`no terminal fits ${tiles} tiles of ${cols}×${rows}`);
}

async function gridRss(tiles, { cols, rows, lines }) {
  const terminal = terminalFor(tiles, cols, rows);
  const grid = startGrid({ specs: Array.from({ length: tiles }, () => program(lines)), cols: terminal.cols, rows: terminal.rows, probe: { memory: true } });
  const done = grid.count(MARK);
  try {
    await grid.firstFrame();
    const finished = () => {
      if (grid.exited) throw new Error(`bench: memory: belltower exited (code ${grid.exitCode}) before every tile finished printing`);
      return done() >= tiles;
    };
    await until(finished, 'every tile to finish printing', 600_000, 50);
    await sleep(500);
    const report = await grid.probe(); // a full GC, then the numbers
    return { rss: rssBytes(grid.pid), heapUsed: report.memory.heapUsed, external: report.memory.external + report.memory.arrayBuffers, terminal };
  } finally {
    await grid.stop();
  }
}

async function tmuxRss(tiles, { cols, rows, lines }) {
  // Panes of exactly cols×rows: a tiled square grid plus the one-cell separators.
  const side = Math.ceil(Math.sqrt(tiles));
  const down = Math.ceil(tiles / side);
  const tmux = await startTmuxGrid({
    commands: Array.from({ length: tiles }, () => program(lines)),
    cols: side * cols + side - 1,
    rows: down * rows + down - 1,
    config: `set -g history-limit ${DEFAULT_SCROLLBACK}\n`,
  });
  try {
    const panes = tmux.server.t('list-panes', '-a', '-F', '#{pane_id}').trim().split('\n');
    const finished = () => panes.every((p) => tmux.server.t('capture-pane', '-p', '-t', p).includes(MARK));
    await until(finished, 'every pane to finish printing', 600_000, 250);
    return { rss: rssBytes(tmux.pid) };
  } finally {
    await tmux.stop();
  }
}

export async function memory({ tiles = 16, cols = 120, rows = 40, lines = LINES } = {}) {
  const size = { cols, rows, lines };
  const one = await gridRss(1, size);
  const many = await gridRss(tiles, size);
  const tmuxOne = await tmuxRss(1, size);
  const tmuxMany = await tmuxRss(tiles, size);
  const MB = 1024 * 1024;
  return {
    tiles,
    size: `${cols}×${rows}`,
    scrollback: DEFAULT_SCROLLBACK,
    lines,
    grid: { rss1: one.rss / MB, rssN: many.rss / MB, perTile: (many.rss - one.rss) / (tiles - 1) / MB, heapPerTile: (many.heapUsed - one.heapUsed) / (tiles - 1) / MB, terminal: many.terminal },
    tmux: { rss1: tmuxOne.rss / MB, rssN: tmuxMany.rss / MB, perTile: (tmuxMany.rss - tmuxOne.rss) / (tiles - 1) / MB },
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await memory({ tiles: Number(process.argv[2] ?? 16) }), null, 1));
}
