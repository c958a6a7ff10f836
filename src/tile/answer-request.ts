/**
 * Answering a tile's permission request without entering it (the grid's y / Y / N / T, and
 * `belltower answer`): only the request that was shown, with the option the agent's dialog draws
 * for that answer now, and never anything else.
 *
 * 1. The tile must be asking, and asking the request named (its id): otherwise nothing is sent.
 * 2. The option is read off the dialog as drawn (waiting a moment for a dialog the agent has
 *    announced but not drawn yet); no such option, nothing is sent.
 * 3. Agents ignore keys for a moment after drawing a dialog (Claude Code ~200 ms, and its blocked
 *    state comes before the dialog): the option's key goes once the dialog has stood `settleMs`,
 *    and again every `retryMs` while that same dialog stays, at most `tries` times, each time only
 *    after reading the screen again — so no key ever lands in a prompt or in another dialog.
 * 4. Then the verdict must leave this request within `leaveMs`; if it does not, it says so.
 * 5. Deny with a message: once the dialog is gone, the message is typed into the agent's prompt
 *    and submitted — every agent here drops back to its prompt on "no, and tell it what to do".
 *
 * Time comes in through the port's `wait`, so the rules are tested on a clock, not by sleeping.
 */
import { answerWords, pickChoice } from '../agents/permission-choices.js';
import type { Choice } from '../agents/permission-choices.js';
import type { AnswerOutcome } from '../control/control-target.js';
import type { AnswerChoice, AnswerRefusal, TileInfo } from '../control/protocol.js';

export interface AnswerPort {
  /** The tile as it is now; undefined once it is gone. */
  info(): TileInfo | undefined;
  /** Keys for the tile's program, as given. */
  input(data: string): void;
  /** A line for its prompt, submitted (as `belltower send --enter` does). */
  send(text: string, enter: boolean): void;
  /** Resolves after `ms`. */
  wait(ms: number): Promise<void>;
}

export interface AnswerTiming {
  /** How long a dialog must have stood before its key goes. */
  readonly settleMs: number;
  readonly retryMs: number;
  readonly tries: number;
  /** How long an announced dialog may take to be drawn. */
  readonly drawMs: number;
  /** How long the verdict may take to leave the request once its dialog is gone. */
  readonly leaveMs: number;
  /** How often the tile is looked at while waiting. */
  readonly pollMs: number;
}

export const ANSWER_TIMING: AnswerTiming = { settleMs: 500, retryMs: 700, tries: 4, drawMs: 3000, leaveMs: 5000, pollMs: 100 };


export interface AnswerOptions {
  /** The request the user was shown (its id): a different one standing now refuses the answer. */
  readonly request?: string;
  /** Deny, then tell the agent this. */
  readonly message?: string;
}

type Asking = TileInfo & { request: NonNullable<TileInfo['request']> };

export async function answerRequest(port: AnswerPort, answer: AnswerChoice, options: AnswerOptions = {}, timing: AnswerTiming = ANSWER_TIMING): Promise<AnswerOutcome> {
  const refuse = (refused: AnswerRefusal, error: string): AnswerOutcome => ({ ok: false, refused, error });
  const first = port.info();
  if (!first) return refuse('not-asking', 'the tile is gone: nothing sent');
  const tile = `tile ${first.id} (${first.name})`;
  if (options.message !== undefined && answer !== 'deny' && answer !== 'text') return refuse('no-option', 'a message goes with deny, or is the answer in your own words: nothing sent');
  if (answer === 'text' && !options.message) return refuse('no-option', 'an answer in your own words needs the words: nothing sent');
  if (first.state !== 'blocked' || !first.request) return refuse('not-asking', `${tile} is not asking anything now (it is ${first.state}): nothing sent`);
  const request = first.request;
  if (options.request !== undefined && options.request !== request.id) {
    // "nothing sent" first: a status line cut to its width still says it.
    return refuse('stale', `${tile}'s request changed since it was shown: nothing sent (now: ${request.asks || 'a request without words'}, id ${request.id})`);
  }
  const words = answerWords(answer);

  /** The same request, still standing: the tile asks it, and its dialog (if drawn) is the same. */
  const standing = (info: TileInfo | undefined): info is Asking => info !== undefined && info.state === 'blocked' && info.request?.id === request.id;

  // An announced dialog may not be drawn yet: wait for it (a drawn one without the option refuses).
  let current: Asking = { ...first, request };
  let choice: Choice | null = pickChoice(request.options, answer);
  for (let waited = 0; !choice && current.request.options.length === 0 && waited < timing.drawMs; waited += timing.pollMs) {
    await port.wait(timing.pollMs);
    const now = port.info();
    if (!standing(now)) return refuse('stale', `${tile} stopped asking "${request.asks}" before its dialog was drawn: nothing sent`);
    current = now;
    choice = pickChoice(now.request.options, answer);
  }
  if (!choice) return refuse('no-option', `${tile}: its dialog shows no "${words}" option: nothing sent (⏎ to answer in the tile)`);
  const picked = choice;

  const showsChoice = (info: TileInfo | undefined): boolean => {
    if (!standing(info)) return false;
    const again = pickChoice(info.request.options, answer);
    return again !== null && again.key === picked.key && again.label === picked.label;
  };

  await port.wait(Math.max(0, timing.settleMs - current.sinceMs));
  if (answer === 'text') {
    // The own-words option opens a field in the same dialog: one key, then the words and Enter
    // (the option stays drawn as the field, so it is no sign the key was missed).
    if (!showsChoice(port.info())) return refuse('stale', `${tile} stopped asking "${request.asks}" before the answer went: nothing sent`);
    port.input(picked.key);
    await port.wait(timing.retryMs);
    if (!standing(port.info())) return refuse('still-asking', `${tile} left the question after "${picked.label}": your words were not sent`);
    port.send(options.message!, true);
    return leaves(port, standing, timing, tile, picked.label);
  }
  let sent = 0;
  while (showsChoice(port.info())) {
    if (sent === timing.tries) return refuse('still-asking', `${tile} still asks after "${picked.label}": nothing more sent`);
    port.input(picked.key);
    sent++;
    await port.wait(timing.retryMs);
  }
  if (sent === 0) return refuse('stale', `${tile} stopped asking "${request.asks}" before the answer went: nothing sent`);

  // The dialog is gone: the verdict follows within a moment (the agent's next hook or record).
  const left = await leaves(port, standing, timing, tile, picked.label);
  if (left.ok && options.message !== undefined) port.send(options.message, true);
  return left;
}

/** Wait for the verdict to leave the request (its dialog is gone or answered). */
async function leaves(port: AnswerPort, standing: (info: TileInfo | undefined) => boolean, timing: AnswerTiming, tile: string, label: string): Promise<AnswerOutcome> {
  let after = port.info();
  for (let waited = 0; standing(after) && waited < timing.leaveMs; waited += timing.pollMs) {
    await port.wait(timing.pollMs);
    after = port.info();
  }
  if (!after) return { ok: false, refused: 'still-asking', error: `${tile} is gone after "${label}"` };
  if (standing(after)) return { ok: false, refused: 'still-asking', error: `${tile} still says it asks after "${label}": look at it (nothing more sent)` };
  return { ok: true, answered: label, tile: after };
}
