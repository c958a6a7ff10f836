/**
 * The request a blocked tile puts to the user, as one thing that can be shown, named and answered:
 * the agent's own words for it, the options its dialog draws, and an id that stays the same while
 * the same request stands and changes when another replaces it (a second permission prompt, the
 * agent moving on and asking again). An answer names the id it was shown, so a press that has
 * gone stale is refused instead of landing on a request the user never saw.
 *
 * Pure: the tile's verdict facts and its screen rows in, the request out.
 */
import { createHash } from 'node:crypto';
import { readChoices, readQuestion, requestWords } from '../agents/permission-choices.js';
import type { Choice } from '../agents/permission-choices.js';

export interface PendingRequest {
  /** Stable while this request stands: from the moment the tile began asking and its words. */
  readonly id: string;
  /** What is asked, in the agent's words as the header shows them (`approve Bash: npm test`);
   * empty when the agent asked without saying what. */
  readonly asks: string;
  /** The options its dialog draws now, in order (none while the dialog is not drawn yet). */
  readonly options: readonly Choice[];
}

/**
 * The pending request of a tile that is blocked since `since` (the tile's own clock) with the
 * agent's words `says`, its dialog read off `rows` (a question's options when `kind` is one). The id does not depend on the options: the
 * dialog is often drawn a moment after the agent says it asks, and it is the same request.
 * (The same request may be worded by a hook and by OSC 7501; both give the same shown words.)
 */
export function pendingRequest(tileId: number, since: number, says: string | undefined, rows: readonly string[], kind?: string): PendingRequest {
  const asks = says ? requestWords(says) : '';
  const id = createHash('sha256').update(`${tileId}\0${since}\0${asks}`).digest('hex').slice(0, 10);
  return { id, asks, options: kind === 'question' ? readQuestion(rows) : readChoices(rows) };
}
