/**
 * DECCOLM (CSI ? 3 h / CSI ? 3 l, 132 / 80 columns) as tmux does it: the screen keeps its size,
 * and is cleared with the cursor homed. xterm.js does nothing unless it may resize itself (its
 * `setWinLines` window option), so vttest's first screens kept the previous page's box drawn
 * under the new one (issue 29).
 */
import type { Terminal } from '@xterm/headless';

/** The two handlers of xterm's own InputHandler this needs (not in the typings; written against
 * @xterm/headless 6.0.0 — test/session/column-mode.test.ts shows it working). */
interface InputHandler {
  cursorPosition(params: Params): boolean;
  eraseInDisplay(params: Params): boolean;
}

/** What those handlers read of xterm's parsed parameters. */
interface Params {
  readonly length: number;
  readonly params: Int32Array;
}

function inputHandlerOf(term: Terminal): InputHandler | undefined {
  const handler = (term as unknown as { _core?: { _inputHandler?: Partial<InputHandler> } })._core?._inputHandler;
  return typeof handler?.cursorPosition === 'function' && typeof handler.eraseInDisplay === 'function' ? (handler as InputHandler) : undefined;
}

/** Make `term` clear and home on DECCOLM, in stream order (inside the parser, not by a write
 * that would be parsed after the rest of the chunk). */
export function clearOnColumnMode(term: Terminal): void {
  const handler = inputHandlerOf(term);
  if (!handler) return;
  const onMode = (params: (number | number[])[]): boolean => {
    if (params.includes(3)) {
      // tmux's order (input.c, DECCOLM): the cursor home — to the scroll region's top in origin
      // mode, as CSI H — then the whole screen erased in the current background.
      handler.cursorPosition({ length: 0, params: new Int32Array(0) });
      handler.eraseInDisplay({ length: 1, params: Int32Array.of(2) });
    }
    // xterm's own handler still runs: the other modes in the same sequence.
    return false;
  };
  term.parser.registerCsiHandler({ prefix: '?', final: 'h' }, onMode);
  term.parser.registerCsiHandler({ prefix: '?', final: 'l' }, onMode);
}
