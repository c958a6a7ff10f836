/**
 * Ink renders the chrome (frames, headers, status line, overlays) into a frame held in memory,
 * never onto the terminal: the frame writer decides which of its lines reach the terminal. Ink's
 * own writer rewrites whole frames and clears the screen when the output is as tall as the
 * terminal; its debug mode hands over each frame whole instead, synchronously, unthrottled, and
 * the same with `CI` set (docs/design.md, "Painting").
 */
import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import chalk from 'chalk';
import { render } from 'ink';
import type { Instance } from 'ink';
import type { ReactElement } from 'react';
import { installInkRowCache } from './ink-row-cache.js';

// Before the first frame: Ink's own frame builder costs as much for one changed header as for a
// new screen (docs/performance.md). It stays Ink's own on any other Ink version.
/** Whether Ink's frames are built by the row cache (the log says, at start). */
export const inkRowCacheOn = await installInkRowCache();

/**
 * Ink styles text with chalk, which reads the colours the process's own stdout shows. A session
 * server's stdout is no terminal (its frames go to clients' sockets), so chalk would strip every
 * style: the server sets the 16 colours and the attributes the chrome uses (it names no other
 * colour), whatever its stdout is.
 */
export function chromeStylesOn(): void {
  if (chalk.level < 1) chalk.level = 1;
}

/** What Ink needs of a stdout: a size, resize events, and somewhere to put frames. */
class FrameSink extends EventEmitter {
  frame = '';
  frames = 0;
  constructor(
    public columns: number,
    public rows: number,
  ) {
    super();
  }
  readonly isTTY = false;
  write(data: string): boolean {
    this.frame = data;
    this.frames++;
    return true;
  }
}

export class ChromeRenderer {
  private readonly sink: FrameSink;
  private readonly instance: Instance;
  private readonly input = new PassThrough();
  /** The element mounted by the constructor, until the first `render`: its frame is already made. */
  private mounted: { element: ReactElement; cols: number; rows: number } | null;

  constructor(cols: number, rows: number, first: ReactElement) {
    this.mounted = { element: first, cols, rows };
    this.sink = new FrameSink(cols, rows);
    this.instance = render(first, {
      stdout: this.sink as unknown as NodeJS.WriteStream, // Ink reads columns/rows and calls write
      stdin: this.input as unknown as NodeJS.ReadStream, // never read: the key bus owns the real stdin
      stderr: new PassThrough() as unknown as NodeJS.WriteStream,
      debug: true,
      exitOnCtrlC: false,
      patchConsole: false,
    });
  }

  /** Render `element` at `cols`×`rows` and return the frame's lines (styled, trailing blanks trimmed). */
  render(element: ReactElement, cols: number, rows: number): string[] {
    const mounted = this.mounted;
    this.mounted = null;
    // Mounting rendered it: the first frame costs one render, not two.
    if (mounted && mounted.element === element && mounted.cols === cols && mounted.rows === rows) return this.sink.frame.split('\n');
    this.sink.columns = cols;
    this.sink.rows = rows;
    this.instance.rerender(element);
    return this.sink.frame.split('\n');
  }

  /** How many frames Ink produced (for benchmarks). */
  get frames(): number {
    return this.sink.frames;
  }

  unmount(): void {
    this.instance.unmount();
    this.instance.cleanup();
    this.input.destroy();
  }
}
