/**
 * What the user (or a script) puts into a tile: keystrokes, submitted lines, a look, a size — to
 * the session, and as evidence where the engine must hear of it. A submitted line's Enter goes
 * after its text, once the prompt box shows what was typed (only then does the box say what will
 * be sent, and whether it is a slash command), or after ECHO_WAIT_MS anyway: TUIs treat a burst
 * ending in CR as a paste.
 */
import type { Evidence } from '../record/format.js';
import type { Session } from '../session/session.js';
import { echoed, isSlashCommand, menuAgrees, promptInput } from './prompt-box.js';

/** How long a submit waits for the box to show what was typed before pressing Enter anyway. */
const ECHO_WAIT_MS = 1_000;
/** How long a slash command shown in the box waits for the menu under it to offer it first. */
const MENU_WAIT_MS = 3_000;
/** How long after a pasted line shows in the box its Enter waits. */
const PASTE_SETTLE_MS = 100;

export interface TileInputOptions {
  session: Session;
  /** Input starting with `/` is the agent's own command (AgentProfile.slashCommands). */
  slashCommands: boolean;
  /** The program reads a sent line into a prompt box (an agent): a line goes as one paste where it
   * asked for bracketed paste. Elsewhere a line may be keys for whatever runs (vim's `:q`). */
  pasteLines: boolean;
  /** The tile's exit has been reported: nothing reaches its program any more. */
  exited(): boolean;
  ingest(evidence: Evidence): void;
  now(): number;
}

export class TileInput {
  /** Lines sent with Enter whose Enter is not pressed yet (it waits for the box to show them). */
  private unpressed = 0;

  constructor(private readonly options: TileInputOptions) {}

  /** A line's Enter is still to be pressed: what the tile shows is from before it. */
  get pending(): boolean {
    return this.unpressed > 0;
  }

  type(data: string): void {
    if (!this.options.exited()) this.options.session.write(data);
  }

  /** Text, then (with `enter`) the Enter that submits the box: a prompt, never recorded. A line of
   * text to an agent that asked for bracketed paste goes as a paste, so that none of it is read as
   * a key (Claude Code's `?` or `!` at an empty prompt, a newline that would submit early); a
   * single key or control keys (`y` to a dialog, Esc) go as keys, which is what they mean. */
  send(text: string, enter: boolean): void {
    const { session, exited, now, pasteLines } = this.options;
    if (exited()) return;
    const pasted = text.length > 0 && pasteLines && session.screen.inputModes.bracketedPaste && isLineOfText(text);
    if (text.length > 0) session.write(pasted ? asPaste(text) : text);
    if (!enter) return;
    this.unpressed += 1;
    const started = now();
    let shownAt: number | undefined;
    const press = (): void => {
      if (exited()) return void (this.unpressed -= 1);
      const input = this.boxInput();
      // Wait (a little) for the box to show the text: only then does it say what will be sent; and
      // for a command menu to offer that command first, as Enter runs the menu's first entry.
      const shown = echoed(input, text);
      if (!shown && now() - started < ECHO_WAIT_MS) return void setTimeout(press, 25);
      if (shown && !this.menuAgrees(input ?? text) && now() - started < MENU_WAIT_MS) return void setTimeout(press, 25);
      // An Enter soon after a paste is a newline to Gemini 0.61 (its guard: 40 ms after it takes
      // the paste, by its own clock, which a loaded machine stretches): a pause once it shows it.
      shownAt ??= now();
      if (pasted && shown && now() - shownAt < PASTE_SETTLE_MS) return void setTimeout(press, 25);
      session.write('\r');
      this.prompt(isSlashCommand(input, text));
      this.unpressed -= 1;
    };
    setTimeout(press, text.length > 0 ? 150 : 0);
  }

  /** The user pressed Enter on a line in the tile: a prompt (`local` for a slash command). */
  submitted(local: boolean): void {
    if (!this.options.exited()) this.prompt(local);
  }

  /** The user looked at the tile: an unseen done becomes idle. */
  seen(): void {
    this.options.ingest({ type: 'seen' });
  }

  resize(cols: number, rows: number): void {
    const { session } = this.options;
    if (this.options.exited() || (cols === session.screen.cols && rows === session.screen.rows)) return;
    session.resize(cols, rows);
    this.options.ingest({ type: 'resize', cols, rows });
  }

  private prompt(local: boolean): void {
    this.options.ingest(local && this.options.slashCommands ? { type: 'prompt', local: true } : { type: 'prompt' });
  }

  /** No command menu under the box offers another command first. */
  private menuAgrees(input: string): boolean {
    const screen = this.options.session.screen;
    return menuAgrees(screen.rowTexts(), screen.cursor.y, input);
  }

  /** The agent's prompt box as the screen shows it (the cursor's row). */
  private boxInput(): string | undefined {
    const screen = this.options.session.screen;
    const { x, y } = screen.cursor;
    return promptInput(screen.rowText(y), x);
  }
}

/** More than one character and no control keys but tab and newline: words, not keys. */
export function isLineOfText(text: string): boolean {
  // eslint-disable-next-line no-control-regex -- control characters are what this looks for
  return [...text].length > 1 && !/[\x00-\x08\x0b-\x1f\x7f]/.test(text);
}

const PASTE_START = '\x1b[200~';
const PASTE_END = '\x1b[201~';

/** `text` as one bracketed paste; an end marker inside it would end the paste early and let the
 * rest be read as keys, so it is taken out. */
export function asPaste(text: string): string {
  return `${PASTE_START}${text.split(PASTE_END).join('')}${PASTE_END}`;
}
