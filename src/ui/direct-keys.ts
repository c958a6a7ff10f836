/**
 * Typing that may reach a focused tile's program before the main thread sees it (the keyboard's
 * thread, keyboard-worker.ts), and what the main thread then leaves out of its own writes.
 *
 * The rule is the focused tile's: for these characters the UI writes exactly what the terminal
 * sent (ui-state.ts, focusInput: a key's raw bytes, encodeKey changing only escape sequences), so
 * writing them early changes nothing but when they arrive. Anything else — an escape sequence (a
 * cursor key the program may want as SS3, a paste, a mouse or focus report), the key that leaves
 * the tile, text beyond ASCII — waits for the main thread, which knows what it means.
 */
import { plainKeyName } from './input-parser.js';
import type { UiEffect } from './ui-state.js';

/** Part of a chunk the keyboard's thread wrote to tile `tileId` itself: its first `chars`
 * characters (ASCII: one byte each). */
export interface DirectWritten {
  tileId: number;
  chars: number;
}

/** Whether `data` may go straight to the focused tile whose leaving key is `escapeKey` (a keymap
 * name: 'ctrl-\\'): printable ASCII, DEL, and the control keys Ctrl-A … Ctrl-Z (Tab, Enter,
 * Ctrl-C among them), none of them the leaving key. One byte a character, so a write the kernel
 * takes in part ends between two characters. */
export function isDirectTyping(data: string, escapeKey: string): boolean {
  if (data.length === 0) return false;
  for (let i = 0; i < data.length; i++) {
    const code = data.charCodeAt(i);
    if (code > 0x7f || code === 0 || (code > 0x1a && code < 0x20)) return false;
    if (code < 0x20 || code === 0x7f || escapeKey.length === 1) {
      if (plainKeyName(data[i]!) === escapeKey) return false;
    }
  }
  return true;
}

/** `effects` with the first `written.chars` characters of their writes to `written.tileId` taken
 * out (the keyboard's thread wrote those). */
export function withoutWritten(effects: readonly UiEffect[], written: DirectWritten): UiEffect[] {
  let left = written.chars;
  const out: UiEffect[] = [];
  for (const effect of effects) {
    if (left === 0 || effect.type !== 'write' || effect.tileId !== written.tileId) {
      out.push(effect);
      continue;
    }
    if (effect.data.length <= left) {
      left -= effect.data.length;
      continue;
    }
    out.push({ ...effect, data: effect.data.slice(left) });
    left = 0;
  }
  return out;
}
