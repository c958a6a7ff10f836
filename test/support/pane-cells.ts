/**
 * A tmux pane's cells, read back from `capture-pane -e -p`: each line as the cells tmux holds,
 * each cell its characters and its style as one comparable string. For comparing what two panes
 * show cell by cell, without a width table of ours deciding anything: tmux writes a wide glyph or
 * a cluster once, and its padding not at all, so two panes that hold the same cells give the same
 * lists.
 */

export interface PaneCell {
  readonly text: string;
  /** Every attribute and colour, normalised (`b i u=curly fg=5 bg=rgb:1,2,3 us=…`). */
  readonly style: string;
}

/** The VT100 line-drawing set, as tmux draws its ACS cells on a UTF-8 terminal (tty-acs.c). The
 * capture gives those cells as the ASCII letter inside SO … SI; xterm.js stores the drawn glyph. */
const ACS: Readonly<Record<string, string>> = {
  '`': '◆', a: '▒', f: '°', g: '±', h: '␤', i: '␋', j: '┘', k: '┐', l: '┌', m: '└', n: '┼', o: '⎺', p: '⎻', q: '─',
  r: '⎼', s: '⎽', t: '├', u: '┤', v: '┴', w: '┬', x: '│', y: '≤', z: '≥', '{': 'π', '|': '≠', '}': '£', '~': '·',
};

interface Pen {
  attrs: Set<string>;
  fg: string;
  bg: string;
  us: string;
  acs: boolean;
}

const FLAG: Readonly<Record<number, string>> = { 1: 'bold', 2: 'dim', 3: 'italic', 4: 'underline', 5: 'blink', 7: 'inverse', 8: 'hidden', 9: 'strike', 53: 'overline' };
const UNDERLINES = ['u=single', 'u=double', 'u=curly', 'u=dotted', 'u=dashed'];

function fresh(): Pen {
  return { attrs: new Set(), fg: '', bg: '', us: '', acs: false };
}

/** Parse the colour that starts at `params[i]` (38/48/58, its arguments as sub-parameters or as the
 * next parameters); returns it and how many parameters it took. */
function colour(params: string[], i: number): [string, number] {
  const parts = params[i]!.split(':');
  const args = parts.length > 1 ? parts.slice(1) : params.slice(i + 1);
  const took = parts.length > 1 ? 1 : 0;
  if (args[0] === '5') return [`256:${Number(args[1])}`, took || 3];
  if (args[0] === '2') {
    // 38:2::r:g:b has an empty colour-space id; 38:2:r:g:b and 38;2;r;g;b do not.
    const rgb = parts.length > 1 && args.length >= 5 ? args.slice(2, 5) : args.slice(1, 4);
    return [`rgb:${rgb.map(Number).join(',')}`, took || 5];
  }
  return ['', took || 1];
}

function sgr(pen: Pen, body: string): void {
  const params = body === '' ? ['0'] : body.split(';');
  for (let i = 0; i < params.length; i++) {
    const [head = '0', sub] = params[i]!.split(':');
    const code = Number(head || '0');
    if (code === 0) {
      const acs = pen.acs;
      Object.assign(pen, fresh(), { acs });
    } else if (code === 4 && sub !== undefined) {
      for (const u of UNDERLINES) pen.attrs.delete(u);
      pen.attrs.delete('underline');
      if (Number(sub) > 0) {
        pen.attrs.add('underline');
        if (Number(sub) > 1) pen.attrs.add(UNDERLINES[Number(sub) - 1] ?? 'u=single');
      }
    } else if (code === 5 && sub === '3') {
      // tmux 3.3a's capture writes overline (53) as `5:3` (grid_string_cells_code prints every
      // code above 9 as tens:units, meant for 4:2 … 4:5).
      pen.attrs.add('overline');
    } else if (FLAG[code]) {
      pen.attrs.add(FLAG[code]!);
    } else if (code === 21) {
      pen.attrs.add('underline');
      pen.attrs.add('u=double');
    } else if (code === 22) {
      pen.attrs.delete('bold');
      pen.attrs.delete('dim');
    } else if (code === 23) pen.attrs.delete('italic');
    else if (code === 24) {
      pen.attrs.delete('underline');
      for (const u of UNDERLINES) pen.attrs.delete(u);
    } else if (code === 25) pen.attrs.delete('blink');
    else if (code === 27) pen.attrs.delete('inverse');
    else if (code === 28) pen.attrs.delete('hidden');
    else if (code === 29) pen.attrs.delete('strike');
    else if (code === 55) pen.attrs.delete('overline');
    else if (code >= 30 && code <= 37) pen.fg = `16:${code - 30}`;
    else if (code >= 90 && code <= 97) pen.fg = `16:${code - 90 + 8}`;
    else if (code >= 40 && code <= 47) pen.bg = `16:${code - 40}`;
    else if (code >= 100 && code <= 107) pen.bg = `16:${code - 100 + 8}`;
    else if (code === 39) pen.fg = '';
    else if (code === 49) pen.bg = '';
    else if (code === 59) pen.us = '';
    else if (code === 38 || code === 48 || code === 58) {
      const [value, took] = colour(params, i);
      if (code === 38) pen.fg = value;
      else if (code === 48) pen.bg = value;
      else pen.us = value;
      i += took - 1;
    }
  }
}

function styleOf(pen: Pen): string {
  const attrs = [...pen.attrs].sort();
  if (pen.fg) attrs.push(`fg=${normalise(pen.fg)}`);
  if (pen.bg) attrs.push(`bg=${normalise(pen.bg)}`);
  if (pen.us) attrs.push(`us=${normalise(pen.us)}`);
  return attrs.join(' ');
}

/** A palette colour is one colour however it was written: 38;5;1 and 31 are both palette 1. */
function normalise(colour: string): string {
  const m = /^256:(\d+)$/.exec(colour);
  return m && Number(m[1]) < 16 ? `16:${m[1]}` : colour;
}

/** Each line of a `capture-pane -e -p` as cells (the pen carries from line to line, as tmux
 * writes it). */
export function paneCells(capture: string): PaneCell[][] {
  const lines: PaneCell[][] = [];
  let line: PaneCell[] = [];
  const pen = fresh();
  const chars = Array.from(capture.replace(/\n$/, ''));
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i]!;
    if (ch === '\n') {
      lines.push(line);
      line = [];
    } else if (ch === '\x1b' && chars[i + 1] === '[') {
      let j = i + 2;
      while (j < chars.length && !/[@-~]/.test(chars[j]!)) j++;
      if (chars[j] === 'm') sgr(pen, chars.slice(i + 2, j).join(''));
      i = j;
    } else if (ch === '\x0e') pen.acs = true;
    else if (ch === '\x0f') pen.acs = false;
    else if (/\p{M}|\p{Cf}|[\u{fe00}-\u{fe0f}\u{1f3fb}-\u{1f3ff}\u{e0020}-\u{e007f}]/u.test(ch) && line.length > 0) {
      // A combining mark, a joiner, a variation selector or a skin tone belongs to the cell
      // before it (tmux writes a cell's characters together, and nothing starts a cell with them).
      const last = line[line.length - 1]!;
      line[line.length - 1] = { text: last.text + ch, style: last.style };
    } else if (isRegionalIndicator(ch) && line.length > 0 && isRegionalIndicator(Array.from(line[line.length - 1]!.text).at(-1)!) && Array.from(line[line.length - 1]!.text).length === 1) {
      // The second letter of a flag.
      const last = line[line.length - 1]!;
      line[line.length - 1] = { text: last.text + ch, style: last.style };
    } else if (line.length > 0 && line[line.length - 1]!.text.endsWith('\u200d')) {
      // After a joiner: the next character is in the same cell (tmux's rule, cell-width.ts).
      const last = line[line.length - 1]!;
      line[line.length - 1] = { text: last.text + ch, style: last.style };
    } else {
      line.push({ text: pen.acs ? (ACS[ch] ?? ch) : ch, style: styleOf(pen) });
    }
  }
  lines.push(line);
  return lines;
}

function isRegionalIndicator(ch: string): boolean {
  const c = ch.codePointAt(0)!;
  return c >= 0x1f1e6 && c <= 0x1f1ff;
}

/**
 * `cells` without the blanks at its end that a capture cannot show: unstyled ones, and erased
 * ones in a background colour. tmux paints an erase in the current background (EL, ED, DCH, as
 * xterm.js does) but keeps those cells beyond the line's used part of its grid, where
 * `capture-pane` does not look even with -N: in a plain pane they are never in the capture, and
 * comparing them with a tile's would compare tmux's capture with itself. A blank that is inverse,
 * underlined or otherwise styled at the end of a line is kept.
 */
export function trimmed(cells: readonly PaneCell[]): PaneCell[] {
  let end = cells.length;
  while (end > 0 && cells[end - 1]!.text === ' ' && /^(bg=\S+)?$/.test(cells[end - 1]!.style)) end--;
  return cells.slice(0, end);
}
