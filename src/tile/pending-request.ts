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
import { dialogAsks, readChoices, readQuestion, requestWords } from '../agents/permission-choices.js';
import type { Choice } from '../agents/permission-choices.js';

export interface PendingRequest {
  /** Stable while this request stands: from the moment the tile began asking and its words. */
  readonly id: string;
  /** What is asked, in the agent's words as the header shows them (`approve Bash: npm test`);
   * empty when the agent asked without saying what. */
  readonly asks: string;
  /** The tool asked for, and its command or file, where the agent's words name them. */
  readonly tool?: string;
  readonly command?: string;
  readonly path?: string;
  /** The options its dialog draws now, in order (none while the dialog is not drawn yet). */
  readonly options: readonly Choice[];
}

/** Tools whose object is a file (Claude's, Gemini's `Edit`); any other tool's object is a command
 * where the tool runs one (Claude's Bash, Gemini's Shell, Codex's dialog). */
const FILE_TOOLS = new Set(['Edit', 'Write', 'MultiEdit', 'NotebookEdit', 'Read']);
const COMMAND_TOOLS = new Set(['Bash', 'Shell', 'command', 'PowerShell']);

/** The tool and its object in the agent's words: a hook's `approve TOOL \`WHAT\``, or OSC 7501's
 * `approve TOOL: WHAT` (Claude Code says it both ways). */
function requestParts(words: string | undefined): Pick<PendingRequest, 'tool' | 'command' | 'path'> {
  const m = words ? /^approve (\S+?)(?: `(.*)`|: (.+))?$/s.exec(words) : null;
  if (!m) return {};
  const [, tool, quoted, said] = m;
  const what = quoted ?? said;
  if (what === undefined) return { tool: tool! };
  if (FILE_TOOLS.has(tool!)) return { tool: tool!, path: what };
  if (COMMAND_TOOLS.has(tool!)) return { tool: tool!, command: what };
  return { tool: tool! };
}

/**
 * The pending request of a tile that is blocked since `since` (the tile's own clock) with the
 * agent's words `says`, its dialog read off `rows` (a question's options when `kind` is one). The id does not depend on the options: the
 * dialog is often drawn a moment after the agent says it asks, and it is the same request.
 * (The same request may be worded by a hook and by OSC 7501; both give the same shown words.)
 * Where the agent's words are only in its dialog (Codex), they are read from it.
 */
export function pendingRequest(tileId: number, since: number, says: string | undefined, rows: readonly string[], kind?: string): PendingRequest {
  // An agent that says in no hook what it asks (Codex) says it in its dialog: read it there. The
  // id then changes as the dialog is drawn, and when another command replaces it.
  const drawn = says ? undefined : dialogAsks(rows);
  const asks = says ? requestWords(says) : drawn ? requestWords(drawn) : '';
  const id = createHash('sha256').update(`${tileId}\0${since}\0${asks}`).digest('hex').slice(0, 10);
  return { id, asks, ...requestParts(says ?? drawn), options: kind === 'question' ? readQuestion(rows) : readChoices(rows) };
}
