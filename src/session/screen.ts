/**
 * Screen: owns one headless xterm for one session, at the tile's real size.
 *
 * It parses everything the child prints, answers what a terminal must answer (through `onReply`,
 * which the session sends back to the child), reports the OSCs the sources and the recorder care
 * about as they are parsed, and exposes the visible rows for rendering and for the banner source.
 */
import xterm from '@xterm/headless';
import serialize from '@xterm/addon-serialize';
import type { IBufferCell, Terminal as XtermTerminal } from '@xterm/headless';
import { useScreenWidths } from './cell-width.js';
import { clearOnColumnMode } from './column-mode.js';
import { PspQueryScanner } from './psp-query-scanner.js';
import { readStyledRow, type ReadOptions } from './row-reader.js';
import { lineWords } from './row-words.js';
import type { StyledRow } from './styled-row.js';

// Both packages are CommonJS without `exports`: a named import fails in plain Node ESM (it passes
// under vitest, so only the built CLI would break). Default import, then destructure.
const { Terminal } = xterm;
const { SerializeAddon } = serialize;

/** Where addon-serialize puts the alternate screen in its output (after the normal buffer). */
const ALT_SCREEN_MARK = '\x1b[?1049h\x1b[H';

/** OSC codes reported to `onOsc` listeners: titles (0, 2), status (7501), prompt marks (133), the
 * working folder (7), desktop notifications (9: iTerm2, 777: rxvt/Ghostty `notify;…`, 99: kitty). */
export const OBSERVED_OSC_CODES: readonly number[] = [0, 2, 7501, 133, 7, 9, 777, 99];

export const DEFAULT_SCROLLBACK = 1000;

const PSP_CODE = 7501;
const PSP_QUERY_ANSWER = '\x1b]7501;?';

/** The input encodings a program asked its terminal for. */
export interface InputModes {
  /** DECCKM: cursor keys as SS3 (ESC O A) instead of CSI (ESC [ A). */
  applicationCursorKeys: boolean;
  /** DECKPAM (ESC =): keypad keys as SS3 (ESC O q for 1) instead of what they type. */
  applicationKeypad: boolean;
  /** Pastes wrapped in ESC [ 200~ … ESC [ 201~. */
  bracketedPaste: boolean;
  /** Focus in/out reported as ESC [ I / ESC [ O. */
  sendFocus: boolean;
  /** The program asked for mouse reports. */
  mouseTracking: boolean;
}

export type OscListener = (code: number, payload: string) => void;

export interface ScreenOptions {
  cols: number;
  rows: number;
  /** Lines kept above the viewport (memory: about 2.6 MB per 120×40 screen at 1000). */
  scrollback?: number;
  /** Echo the OSC 7501 feature query, which turns OSC 7501 on in programs that ask (Claude Code).
   * On by default. */
  answerPspQuery?: boolean;
  /** The terminal's own replies (DA1, cursor position reports, the OSC 7501 echo), in the order
   * the child must receive them. */
  onReply: (data: string) => void;
}

export class Screen {
  private readonly term: XtermTerminal;
  private readonly scratch: IBufferCell;
  /** xterm's buffer namespace, kept: each `term.buffer` checks the proposed-API option first, and
   * the painter asks for it twice a row, thirty times a second, for every tile. */
  private readonly buffers: XtermTerminal['buffer'];
  private serializer: InstanceType<typeof SerializeAddon> | undefined;
  private readonly scanner: PspQueryScanner | undefined;
  private readonly oscListeners = new Set<OscListener>();
  private readonly parsedListeners = new Set<() => void>();
  private readonly onReply: (data: string) => void;
  private changes = 0;
  private currentTitle = '';
  private scrolled = 0;
  private cursorShown = true;
  private disposed = false;
  /** A snapshot is being parsed: it is history, not the program speaking. */
  private restoring = false;

  constructor(options: ScreenOptions) {
    this.onReply = options.onReply;
    this.term = new Terminal({
      cols: options.cols,
      rows: options.rows,
      scrollback: options.scrollback ?? DEFAULT_SCROLLBACK,
      // buffer, parser and unicode throw without it in @xterm/headless 6.
      allowProposedApi: true,
      // xterm's own console output would land on the user's terminal (a single DEL byte in a
      // tile made it print a 34-line "Parsing error"). What it parses is ours to judge.
      logLevel: 'off',
    });
    // The default width table is Unicode 6: newer emoji would be one column and shift the row.
    // Unicode 11, with tmux's rule for emoji joined by a ZWJ (👨‍👩‍👧: one cell of two columns).
    useScreenWidths(this.term);
    clearOnColumnMode(this.term);
    this.buffers = this.term.buffer;
    this.scratch = this.buffers.active.getNullCell();
    this.scanner = options.answerPspQuery === false ? undefined : new PspQueryScanner();

    this.term.onData((data) => this.onReply(data));
    this.term.onWriteParsed(() => {
      for (const listener of this.parsedListeners) guard(listener);
    });
    this.buffers.onBufferChange(() => this.changes++);
    // Every line the buffer scrolls by (also once the scrollback is full and the oldest line
    // goes): a reader looking back at old lines keeps its place by it.
    this.term.onScroll(() => this.scrolled++);
    this.term.onTitleChange((title) => (this.currentTitle = title));
    // DECTCEM (CSI ? 25 h/l): xterm tracks it but does not expose it; a painter needs it to show
    // the focused tile's cursor only where the program shows one. Returning false lets xterm's own
    // handler run as well.
    this.term.parser.registerCsiHandler({ prefix: '?', final: 'h' }, (params) => this.decPrivate(params, true));
    this.term.parser.registerCsiHandler({ prefix: '?', final: 'l' }, (params) => this.decPrivate(params, false));
    // A full reset (RIS, ESC c) and a soft reset (DECSTR, CSI ! p) show the cursor again.
    this.term.parser.registerEscHandler({ final: 'c' }, () => this.decPrivate([25], true));
    this.term.parser.registerCsiHandler({ intermediates: '!', final: 'p' }, () => this.decPrivate([25], true));
    for (const code of OBSERVED_OSC_CODES) {
      this.term.parser.registerOscHandler(code, (payload) => this.handleOsc(code, payload));
    }
  }

  get cols(): number {
    return this.term.cols;
  }

  get rows(): number {
    return this.term.rows;
  }

  /** Which buffer is showing: full-screen programs (Claude Code, Codex) use the alternate one. */
  get activeBuffer(): 'normal' | 'alternate' {
    return this.buffers.active.type;
  }

  /** The window title as last set by OSC 0 or 2. */
  get title(): string {
    return this.currentTitle;
  }

  /** Grows whenever the visible rows may have changed (data parsed, resize, buffer switch):
   * a reader that saw the same number has nothing new to read. */
  get generation(): number {
    return this.changes;
  }

  /** Queue output for parsing. `onParsed` runs once this chunk is parsed (flow control counts on
   * it). Parsing is asynchronous and ordered; OSC listeners run during it. */
  write(data: string, onParsed?: () => void): void {
    if (this.disposed) return;
    this.scanner?.feed(data);
    this.term.write(data, () => {
      // Counted per chunk, before the caller's callback: a reader that looks at the rows from
      // inside that callback must see the generation move (onWriteParsed fires only after the
      // whole batch).
      this.changes++;
      onParsed?.();
    });
  }

  /** Resolves when everything written so far has been parsed. */
  flush(): Promise<void> {
    if (this.disposed) return Promise.resolve();
    return new Promise((resolve) => this.term.write('', resolve));
  }

  /** Listen to OSC 0, 2, 7501, 133, 7, 9, 777 and 99 (including the 7501 query `?`),
   * synchronously, in stream order. Returns the unsubscribe. */
  onOsc(listener: OscListener): () => void {
    this.oscListeners.add(listener);
    return () => this.oscListeners.delete(listener);
  }

  /** Called after each batch of output has been parsed: the moment to look at the rows. */
  onParsed(listener: () => void): () => void {
    this.parsedListeners.add(listener);
    return () => this.parsedListeners.delete(listener);
  }

  /** Visible row `y` (0 = top of the viewport) as text, trailing blanks trimmed. */
  rowText(y: number): string {
    const buffer = this.buffers.active;
    return buffer.getLine(buffer.viewportY + y)?.translateToString(true) ?? '';
  }

  /** All visible rows as text. */
  rowTexts(): string[] {
    return Array.from({ length: this.term.rows }, (_, y) => this.rowText(y));
  }

  /** Visible row `y` as styled runs covering the full width. */
  styledRow(y: number, options?: ReadOptions): StyledRow {
    const buffer = this.buffers.active;
    return readStyledRow(buffer.getLine(buffer.viewportY + y), this.term.cols, this.scratch, options);
  }

  /** Visible row `y`'s cells as xterm's words (row-words.ts): a view into the buffer, valid until
   * the next parse. */
  rowWords(y: number): Uint32Array | undefined {
    const buffer = this.buffers.active;
    return lineWords(buffer.getLine(buffer.viewportY + y), this.term.cols);
  }

  /** The visible rows of the active buffer (the alternate screen when a program switched to it). */
  styledRows(): StyledRow[] {
    return Array.from({ length: this.term.rows }, (_, y) => this.styledRow(y));
  }

  /** Lines in the active buffer: the scrollback kept above the viewport, and the viewport. */
  get bufferLength(): number {
    return this.buffers.active.length;
  }

  /** How many times the buffer scrolled up by a line since the screen began. */
  get scrolledLines(): number {
    return this.scrolled;
  }

  /** Line `index` of the active buffer (0 = the oldest kept) as styled runs. */
  styledLine(index: number, options?: ReadOptions): StyledRow {
    return readStyledRow(this.buffers.active.getLine(index), this.term.cols, this.scratch, options);
  }

  /** Line `index` of the active buffer as text, trailing blanks trimmed. */
  lineText(index: number): string {
    return this.buffers.active.getLine(index)?.translateToString(true) ?? '';
  }

  /** Whether line `index` continues the line above it (the program's line was wider than the
   * screen: a soft wrap, not a newline). */
  isWrapped(index: number): boolean {
    return this.buffers.active.getLine(index)?.isWrapped ?? false;
  }

  /** Lines of the normal buffer that scrolled off the top and are kept (≤ the scrollback). */
  get scrollbackLength(): number {
    return this.buffers.normal.baseY;
  }

  /** The cursor within the viewport. */
  get cursor(): { x: number; y: number } {
    const buffer = this.buffers.active;
    return { x: buffer.cursorX, y: buffer.cursorY };
  }

  /** Whether the program shows its cursor (DECTCEM; shown until it says otherwise). */
  get cursorVisible(): boolean {
    return this.cursorShown;
  }

  /** The input modes the program asked for: how keys and pastes must be encoded for it. */
  get inputModes(): InputModes {
    const modes = this.term.modes;
    return {
      applicationCursorKeys: modes.applicationCursorKeysMode,
      applicationKeypad: modes.applicationKeypadMode,
      bracketedPaste: modes.bracketedPasteMode,
      sendFocus: modes.sendFocusMode,
      mouseTracking: modes.mouseTrackingMode !== 'none',
    };
  }

  resize(cols: number, rows: number): void {
    if (this.disposed || (cols === this.term.cols && rows === this.term.rows)) return;
    this.term.resize(cols, rows);
    this.changes++;
  }

  /**
   * The screen as bytes that draw it again (colours and attributes kept, terminal modes not): the
   * viewport with up to `scrollback` lines above it. A full-screen program's alternate screen is
   * given as plain rows, so that it lands in the normal buffer of the screen it is restored into,
   * where the program that runs next keeps it above its own output.
   */
  snapshot(scrollback: number): string {
    if (this.disposed) return '';
    this.serializer ??= this.loadSerializer();
    let drawn: string;
    if (this.activeBuffer === 'alternate') {
      const all = this.serializer.serialize({ scrollback: 0, excludeModes: true });
      const at = all.lastIndexOf(ALT_SCREEN_MARK);
      drawn = at < 0 ? all : all.slice(at + ALT_SCREEN_MARK.length);
    } else {
      drawn = this.serializer.serialize({ scrollback, excludeModes: true, excludeAltBuffer: true });
    }
    // The cursor goes to the last row with something on it: what runs next starts below that,
    // instead of over the middle of the old screen where its program had the cursor.
    let last = this.term.rows - 1;
    while (last > 0 && this.rowText(last).trim() === '') last--;
    return `${drawn}\x1b[${last + 1};1H`;
  }

  /**
   * Draw a snapshot (see `snapshot`) before any output of the program: parsed as the terminal's own
   * history — no OSC reaches the listeners, nothing is answered — then a fresh line below it, in
   * the default colours, where the program's own output starts. Resolves once it is parsed.
   */
  restore(snapshot: string): Promise<void> {
    if (this.disposed || snapshot === '') return Promise.resolve();
    this.restoring = true;
    return new Promise((resolve) => {
      this.term.write(`${snapshot}\x1b[0m\r\n`, () => {
        this.restoring = false;
        this.changes++;
        resolve();
      });
    });
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.oscListeners.clear();
    this.parsedListeners.clear();
    this.term.dispose();
  }

  private loadSerializer(): InstanceType<typeof SerializeAddon> {
    const addon = new SerializeAddon();
    // The addon's typings name the browser Terminal; the headless one has every member it uses.
    this.term.loadAddon(addon as unknown as Parameters<XtermTerminal['loadAddon']>[0]);
    return addon;
  }

  private decPrivate(params: (number | number[])[], set: boolean): boolean {
    if (params.includes(25)) {
      this.cursorShown = set;
      this.changes++;
    }
    return false;
  }

  private handleOsc(code: number, payload: string): boolean {
    if (this.restoring) return true;
    if (code === PSP_CODE && payload === '?' && this.scanner) {
      // Answer inside the parser, synchronously: the DA1 query that follows in the same stream
      // is answered later in this same parse, so the child sees our echo first — which is how
      // Claude Code decides that the terminal speaks OSC 7501.
      this.onReply(PSP_QUERY_ANSWER + this.scanner.take());
    }
    for (const listener of this.oscListeners) guard(() => listener(code, payload));
    // Let xterm's own handlers run too (OSC 0/2 set the title); nothing else handles 7501.
    return code === PSP_CODE;
  }
}

/** A listener that throws must not break xterm's parser mid-stream: rethrow it outside. */
function guard(fn: () => void): void {
  try {
    fn();
  } catch (error) {
    queueMicrotask(() => {
      throw error;
    });
  }
}
