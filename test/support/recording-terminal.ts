/**
 * A terminal port for the grid's shell that keeps everything it is sent, and types what a test
 * presses: the user's terminal without a terminal.
 */
import type { TerminalPort } from '../../src/ui/grid-app.js';

export class RecordingTerminal implements TerminalPort {
  readonly cols = 100;
  readonly rows = 30;
  written = '';
  private input: ((data: string) => void) | null = null;
  write(data: string): void {
    this.written += data;
  }
  onInput(listener: (data: string) => void): () => void {
    this.input = listener;
    return () => (this.input = null);
  }
  onResized(): () => void {
    return () => {};
  }
  press(data: string): void {
    this.input?.(data);
  }
  bells(): number {
    // A BEL outside escape sequences (OSC terminators are never written: the writer uses ST-free SGR/CSI only).
    return this.written.split('\x07').length - 1;
  }
}
