/**
 * What the agent's prompt box holds, read from the screen: the text on the cursor's row up to the
 * cursor, after the box's prompt glyph (Claude `❯ `, Codex `› `, Gemini ` > `; observed on the
 * versions in the shared facts). Whether a submit is a slash command depends on the box, not on
 * what a script sent last: text typed before it, or a bare Enter, changes the answer.
 */

/** The input on a prompt row, or undefined when the row holds nothing before the cursor. */
export function promptInput(rowText: string, cursorX: number): string | undefined {
  const upToCursor = [...rowText].slice(0, Math.max(0, cursorX)).join('');
  // Borders and the prompt glyph: anything before the first letter, digit, `/` or quote that is
  // not part of the input (one glyph at most, so a leading symbol the user typed is kept).
  const input = upToCursor.replace(/^[\s│┃║|]*(?:[^\p{L}\p{N}\s/'"`]\s+)?/u, '');
  return input === '' ? undefined : input;
}

/**
 * Whether a submit is a slash command. `input` is the box as read (undefined: not readable);
 * `sent` is what was typed just before the Enter. The box is trusted only once it shows what was
 * sent (its echo); until then the sent text is all there is.
 */
export function isSlashCommand(input: string | undefined, sent: string): boolean {
  const expected = sent.trim();
  if (input !== undefined && (expected === '' || input.endsWith(expected))) return input.trimStart().startsWith('/');
  return expected.startsWith('/');
}

/** The box shows what was sent (nothing to wait for when nothing was sent). */
export function echoed(input: string | undefined, sent: string): boolean {
  const expected = sent.trim();
  return expected === '' || (input !== undefined && input.endsWith(expected));
}

/** How many rows under the box's row a command menu may start (the box's border, a hint line). */
const MENU_SEARCH_ROWS = 4;

/**
 * Enter on a command menu runs its highlighted (first) entry, not what the box holds: Gemini 0.61
 * under load still drew the menu of `/` while its box held `/quit`, and Enter ran `/clear`. So a
 * slash command is submitted once the menu under the box, when one is drawn, starts with that
 * command. `rows` is the screen, `cursorY` the box's row; a menu row is a command's name (with or
 * without its `/`, after the selection's glyph, if any), two spaces or more, and its description.
 */
export function menuAgrees(rows: readonly string[], cursorY: number, sent: string): boolean {
  const command = /^\/([^\s/]+)/.exec(sent.trim())?.[1];
  if (command === undefined) return true;
  for (const row of rows.slice(cursorY + 1, cursorY + 1 + MENU_SEARCH_ROWS)) {
    const entry = /^[\s│┃║|]*(?:[›❯>▸▶→]\s*)?\/?([\p{L}][\p{L}\p{N}_:.-]*)\s{2,}\S/u.exec(row);
    if (entry) return entry[1] === command;
  }
  return true;
}
