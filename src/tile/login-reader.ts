/** ssh's login question on the row the cursor waits on, read right after each chunk's parse. */
import { loginPromptAt } from '../sources/ssh-login.js';
import type { LoginPrompt } from '../verdict/signals.js';

export interface CursorScreen {
  readonly cursor: { readonly x: number; readonly y: number };
  rowText(y: number): string;
}

/** A reader that answers the question when it changed since it last asked (undefined: no change). */
export function createLoginReader(screen: CursorScreen): () => LoginPrompt | null | undefined {
  let last: LoginPrompt | null = null;
  return () => {
    const { x, y } = screen.cursor;
    const now = loginPromptAt(screen.rowText(y), x);
    if (now === last) return undefined;
    last = now;
    return now;
  };
}
