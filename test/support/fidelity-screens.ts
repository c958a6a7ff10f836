/**
 * Screens for the cell-by-cell comparison of a tile with a plain tmux pane (test/ui/
 * fidelity-tmux.test.ts): what real programs draw, generated here — attributes and colours as
 * vim, less, bat and the colour charts use them, wide text and emoji, line drawing, scroll
 * regions, inserts and erases as curses programs do them, mode switches as vttest does. Each
 * starts from a reset terminal (RIS) and is drawn for a screen of COLS × ROWS.
 */

export const COLS = 60;
export const ROWS = 20;

const E = '\x1b';
const CSI = `${E}[`;
const at = (row: number, col: number) => `${CSI}${row};${col}H`;
const sgr = (params: string) => `${CSI}${params}m`;

export interface FidelityScreen {
  readonly name: string;
  readonly bytes: string;
}

function lines(...rows: string[]): string {
  return rows.join('\r\n');
}

const FAMILY = '\u{1f468}\u200d\u{1f469}\u200d\u{1f467}';

const screens: [string, string][] = [
  [
    'every attribute (SGR 1 2 3 4 5 7 8 9 53)',
    lines(
      `${sgr('1')}bold${sgr('0')} ${sgr('2')}dim${sgr('0')} ${sgr('3')}italic${sgr('0')} ${sgr('4')}underline${sgr('0')} ${sgr('5')}blink${sgr('0')}`,
      `${sgr('7')}inverse${sgr('0')} [${sgr('8')}hidden${sgr('0')}] ${sgr('9')}strike${sgr('0')} ${sgr('53')}overline${sgr('0')} end`,
      `${sgr('1;3;4;9')}all four${sgr('22')} less bold${sgr('23')} less italic${sgr('24')} no ul${sgr('29')} none`,
      `${sgr('5;7;53')}three${sgr('25')}b${sgr('27')}i${sgr('55')}o${sgr('0')}`,
    ),
  ],
  [
    'underline shapes (SGR 4:1 … 4:5, 21)',
    lines(
      `${sgr('4:1')}single${sgr('0')} ${sgr('4:2')}double${sgr('0')} ${sgr('4:3')}curly${sgr('0')}`,
      `${sgr('4:4')}dotted${sgr('0')} ${sgr('4:5')}dashed${sgr('0')} ${sgr('21')}double21${sgr('0')}`,
      `${sgr('4:3')}curly${sgr('4:0')}off${sgr('4:5')}dashed${sgr('24')}off${sgr('0')}`,
    ),
  ],
  [
    'underline colours (SGR 58, 59), as vim draws spelling errors',
    lines(
      `${sgr('4:3;58;5;196')}spelling${sgr('0')} ${sgr('4;58:5:33')}word${sgr('0')} ${sgr('4:2;58;2;10;200;30')}rgb${sgr('0')}`,
      `${sgr('4:3;58:2::250:100:0')}colon rgb${sgr('59')}no colour${sgr('0')} ${sgr('31;4;58;5;2')}red, green line${sgr('0')}`,
    ),
  ],
  [
    '16 colours, foreground and background',
    lines(
      Array.from({ length: 8 }, (_, i) => `${sgr(String(30 + i))}f${i}`).join('') + sgr('0'),
      Array.from({ length: 8 }, (_, i) => `${sgr(String(90 + i))}F${i}`).join('') + sgr('0'),
      Array.from({ length: 8 }, (_, i) => `${sgr(String(40 + i))} b${i} `).join('') + sgr('0'),
      Array.from({ length: 8 }, (_, i) => `${sgr(String(100 + i))} B${i} `).join('') + sgr('0'),
      `${sgr('1;31')}bold red${sgr('39')} default fg${sgr('42')} green bg${sgr('49')} default bg${sgr('0')}`,
      `${sgr('7;34;43')}inverse blue on yellow${sgr('0')} ${sgr('7')}inverse default${sgr('0')}`,
    ),
  ],
  [
    '256-colour chart',
    lines(
      ...Array.from({ length: 8 }, (_, row) =>
        Array.from({ length: 32 }, (_, col) => `${sgr(`48;5;${row * 32 + col}`)}${(row * 32 + col) % 10}`).join('') + sgr('0'),
      ),
      ...Array.from({ length: 4 }, (_, row) => Array.from({ length: 24 }, (_, col) => `${sgr(`38:5:${232 + col}`)}${'#*'[row % 2]}`).join('') + sgr('0')),
    ),
  ],
  [
    'truecolor gradients',
    lines(
      ...Array.from({ length: 6 }, (_, row) =>
        Array.from({ length: COLS }, (_, col) => `${sgr(`48;2;${col * 4};${row * 40};${255 - col * 4}`)}${sgr(`38;2;${255 - col * 4};${col * 4};${row * 40}`)}${'░▒▓█'[col % 4]}`).join('') + sgr('0'),
      ),
      `${sgr('38:2::1:2:3')}colon form${sgr('0')} ${sgr('48:2::9:8:7')}background${sgr('0')}`,
    ),
  ],
  [
    'CJK, kana and Hangul with text after them',
    lines(
      '日本語のテキスト|after',
      `ab${sgr('31')}漢字${sgr('0')}cd|${at(2, 30)}X`,
      '한국어 텍스트 | 끝',
      'ＡＢＣ full-width | ｱｲｳ half-width |',
      `${at(5, 59)}日`,
    ),
  ],
  [
    'emoji, skin tones, variation selectors and flags',
    lines(
      `🚀 rocket ✅ check${at(1, 30)}|`,
      `👍🏽 tone | ❤️ heart | ⚠️ warn${at(2, 40)}|`,
      `flags 🇯🇵🇫🇷 end${at(3, 30)}|`,
    ),
  ],
  [
    'a ZWJ family mid-row, the rest of the row in its place (issue 29)',
    lines(
      `left ${FAMILY} right ${sgr('32')}green${sgr('0')} and more text`,
      `${sgr('44')}ab${FAMILY}cd${sgr('0')}|${at(2, 20)}|anchor`,
      `x${FAMILY}${FAMILY}y`,
    ),
  ],
  [
    'combining marks',
    lines('cafe\u0301 nai\u0308ve |', `${sgr('4')}e\u0301\u0302${sgr('0')} |`, 'a\u20dd ring |'),
  ],
  [
    'DEC line drawing, as mc and dialog draw boxes',
    lines(`${E}(0lqqqqwqqqqk${E}(B`, `${E}(0x${E}(B one${E}(0x${E}(Btwo ${E}(0x${E}(B`, `${E}(0tqqqqnqqqqu${E}(B`, `${E}(0mqqqqvqqqqj${E}(B ${E}(0\`afgy{|}~${E}(B`),
  ],
  [
    'Unicode box drawing with colours, as htop and bat draw them',
    lines(
      `${sgr('36')}┌────────┬────────┐${sgr('0')}`,
      `${sgr('36')}│${sgr('1;33')} CPU    ${sgr('0;36')}│${sgr('32')}||||||  ${sgr('36')}│${sgr('0')}`,
      `${sgr('36')}└────────┴────────┘${sgr('0')}`,
      `${sgr('38;5;238')}   1${sgr('0')} ${sgr('38;5;238')}│${sgr('0')} ${sgr('38;5;81')}const${sgr('0')} x ${sgr('38;5;197')}=${sgr('0')} ${sgr('38;5;141')}42${sgr('0')};`,
    ),
  ],
  [
    'a scroll region scrolled, and reverse index at its top',
    `${at(1, 1)}top line${at(ROWS, 1)}bottom line${CSI}5;15r${at(5, 1)}` +
      Array.from({ length: 25 }, (_, i) => `region ${i}`).join('\r\n') +
      `${at(5, 1)}${E}M${E}Mreversed${CSI}r${at(17, 1)}after reset`,
  ],
  [
    'inserting and deleting lines and characters in a coloured background',
    lines(...Array.from({ length: 10 }, (_, i) => `line ${i} ${'abcdefghij'.repeat(2)}`)) +
      `${sgr('44')}${at(3, 1)}${CSI}2L${at(7, 1)}${CSI}1M${at(1, 6)}${CSI}3@XYZ${at(2, 4)}${CSI}4P${at(9, 3)}${CSI}5X${sgr('0')}${at(12, 1)}done`,
  ],
  [
    'erasing lines and the screen in a coloured background',
    lines(...Array.from({ length: 12 }, (_, i) => `${i}`.repeat(40))) +
      `${sgr('41')}${at(2, 10)}${CSI}K${at(3, 10)}${CSI}1K${at(4, 10)}${CSI}2K${sgr('42')}${at(8, 20)}${CSI}1J${sgr('43')}${at(10, 5)}${CSI}J${sgr('0')}`,
  ],
  [
    'lines longer than the screen wrap; with DECAWM off the last column is overwritten',
    `${'wrap'.repeat(20)}\r\n${CSI}?7l${'nowrap'.repeat(15)}${CSI}?7h\r\n${at(6, COLS)}X${'next'}`,
  ],
  [
    'tab stops: default, set, cleared, forward and back',
    // Not CHT (CSI I): tmux 3.3a does not have it.
    lines('a\tb\tc\td', `${CSI}3g${at(3, 5)}${E}H${at(3, 25)}${E}H\r1\t2\t3`, `x\t\ty${CSI}Zz`),
  ],
  ['insert mode', `${at(1, 1)}0123456789${at(1, 3)}${CSI}4hINS${CSI}4l${at(2, 1)}abcdef${at(2, 2)}X`],
  ['repeat the last character (REP)', `a${CSI}9b ${sgr('31')}-${CSI}20b${sgr('0')}|`],
  [
    'saving and restoring the cursor with its attributes',
    `${at(3, 5)}${sgr('1;32')}${E}7${sgr('0')}${at(10, 10)}elsewhere${E}8restored green bold${sgr('0')} plain`,
  ],
  [
    'origin mode: positions inside the scroll region',
    `${CSI}4;12r${CSI}?6h${at(1, 1)}origin top${at(30, 1)}clamped bottom${CSI}?6l${CSI}r${at(1, 1)}screen top`,
  ],
  [
    'the alternate screen, with the main one behind it',
    `${lines('main screen text', 'more main')}${CSI}?1049h${CSI}H${CSI}2Jalt screen${at(5, 5)}${sgr('7')} dialog ${sgr('0')}`,
  ],
  ['back from the alternate screen', `${lines('main kept', 'second')}${CSI}?1049halt text here${CSI}?1049l${at(5, 1)}after`],
  [
    'DECCOLM clears the screen and homes the cursor (issue 29)',
    `${at(2, 2)}+----+${at(3, 2)}|    |${at(4, 2)}+----+${CSI}?3hpage after 132${at(6, 6)}+--+${CSI}?3lpage after 80`,
  ],
  ['DECCOLM in a scroll region with origin mode', `${at(2, 2)}old box${CSI}5;10r${CSI}?6h${sgr('44')}${CSI}?3hhere${sgr('0')}${CSI}?6l${CSI}r`],
  ['DECALN fills the screen with E', `${E}#8${at(3, 3)}hole`],
  ['scroll up and down (SU, SD)', `${lines(...Array.from({ length: 8 }, (_, i) => `row ${i}`))}${CSI}2S${CSI}1T${at(15, 1)}end`],
  ['a hidden cursor', `${at(4, 7)}cursor hidden here${CSI}?25l${at(6, 9)}`],
  [
    'a curses program: title bar, menu, status line filled by EL',
    `${sgr('7')}${CSI}K File  Edit  View${at(1, 50)}12:00${sgr('0')}` +
      `${at(3, 3)}${sgr('1')}Name${sgr('0')}${at(3, 20)}Size${at(4, 3)}${sgr('34;1')}src/${sgr('0')}${at(4, 20)}4096${at(5, 3)}${sgr('7;36')}README.md${sgr('0')}${at(5, 20)}12` +
      `${at(ROWS, 1)}${sgr('44;97')}${CSI}K -- INSERT --${at(ROWS, 45)}1,1   All${sgr('0')}${at(5, 3)}`,
  ],
  [
    'git log --graph --color, as less shows it',
    lines(
      `${sgr('33')}*${sgr('0')} ${sgr('33')}8e9f348${sgr('0')}${sgr('33')} (${sgr('1;36')}HEAD -> ${sgr('1;32')}main${sgr('0;33')})${sgr('0')} End to end`,
      `${sgr('31')}|${sgr('0')}${sgr('32')}\\${sgr('0')}  `,
      `${sgr('31')}|${sgr('0')} ${sgr('32')}*${sgr('0')} ${sgr('33')}1d9f0b1${sgr('0')} README`,
      `${sgr('31')}|${sgr('0')}${sgr('32')}/${sgr('0')}`,
    ) + `${at(ROWS, 1)}${sgr('7')}:${sgr('27')}`,
  ],
  [
    'man page style: bold and underlined words',
    lines(`${sgr('1')}NAME${sgr('0')}`, `       less - ${sgr('4')}opposite${sgr('24')} of more`, `${sgr('1')}SYNOPSIS${sgr('0')}`, `       ${sgr('1')}less -?${sgr('0')} [${sgr('4')}file${sgr('24')}...]`),
  ],
  ['carriage return, backspace and overwriting', `abcdef\rXY\x08\x08Z${at(2, 1)}日本\x08\x08x${at(3, 1)}tab\t\x08<`],
  ['a wide glyph that does not fit at the end of a line', `${at(1, COLS - 1)}ab日本${at(3, COLS)}漢x`],
];

// Back to the main screen first: RIS leaves the alternate screen in xterm.js (as in xterm) but
// not in tmux, which would keep the previous screen's alternate page under this one.
const RESET = `${CSI}?1049l${E}c`;

export const SCREENS: readonly FidelityScreen[] = screens.map(([name, bytes]) => ({ name, bytes: RESET + bytes }));

/**
 * Screens on which tmux and a tile are known to differ for reasons that are not belltower's, each
 * with why. Each is drawn and compared like the others, with its listed difference taken out:
 * attributes matching `style`, or whole rows. (Not in the set: reflow after a resize, where the two
 * emulators rewrap differently, and vttest's page 2, where tmux itself draws a quirk — neither is
 * generated here.)
 */
export const EXCEPTIONS: readonly (FidelityScreen & { why: string; style?: RegExp; rows?: readonly number[] })[] = [
  {
    name: 'rapid blink (SGR 6)',
    bytes: `${RESET}${sgr('6')}rapid${sgr('0')} ${sgr('5')}slow${sgr('0')}`,
    why: "tmux takes SGR 6 for blink; xterm.js, the tile's emulator, does not model rapid blink, so the cell has no blink to paint",
    style: /\bblink\b/,
  },
  {
    name: 'an RGB colour without its colour-space id (SGR 38:2:r:g:b)',
    bytes: `${RESET}${sgr('38:2:4:5:6')}no space id${sgr('0')} ${sgr('38:2::4:5:6')}with it${sgr('0')}`,
    why: 'ITU T.416 puts a colour-space id first; tmux reads five sub-parameters as r:g:b, xterm.js reads the first as the id (so r=5, g=6, b=0)',
    // The two colours, and their 256-colour forms on a terminal without 24-bit colour.
    style: /fg=(rgb:5,6,0|rgb:4,5,6|256:16|256:232)\b/,
  },
  {
    name: 'a character over the right half of a wide glyph',
    bytes: `${RESET}日本\x08\x08\x08x|`,
    why: 'xterm.js (as xterm) blanks the glyph whose half is overwritten; tmux 3.3a keeps 日 and puts the x after it, five columns in a row of four',
    rows: [0],
  },
];
