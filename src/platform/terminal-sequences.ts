/**
 * What a full-screen view of belltower sets on the user's terminal, and what puts it back: the
 * grid in-process and the attach client use the same two sequences, so every way out restores
 * the same modes.
 */
export const ENTER_SEQUENCE = [
  '\x1b[?1049h', // alternate screen (saves the cursor)
  '\x1b[?2004h', // bracketed paste
  '\x1b[?1004h', // focus reporting
  '\x1b=', // application keypad, as tmux sets it (smkx): keypad keys come as ESC O q, not 1, and go on as the tile asked
  '\x1b[?25l', // the frame writer shows the cursor where a focused tile has it
  '\x1b[0m\x1b[2J',
].join('');

/** Mouse reports (`--mouse`): button presses and the wheel (1000), in SGR form (1006). */
export const MOUSE_ON = '\x1b[?1000h\x1b[?1006h';

export const RESTORE_SEQUENCE = [
  '\x1b[?2026l', // end a synchronized update a crash may have left open
  '\x1b[0m',
  '\x1b[?1006l\x1b[?1000l', // mouse reports off (harmless when they were never on)
  '\x1b[?1004l',
  '\x1b[?2004l',
  '\x1b>', // numeric keypad
  '\x1b[?25h',
  '\x1b[?1049l', // main screen (restores the cursor)
].join('');
