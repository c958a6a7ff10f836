/**
 * Before the grid owns the terminal: is there a saved workspace for this session, and does the
 * user want it back? `--restore` restores without asking, `--fresh` ignores it, and otherwise a
 * workspace that did not end by the user's own q is offered: "Restore 3 tiles from 14:02
 * (belltower was killed)? [Y/n]". A state file belltower cannot use is refused in one line and
 * kept; `--fresh` sets it aside (renamed, never deleted) and starts anyway.
 */
import { createInterface } from 'node:readline';
import { isFolder } from '../platform/paths.js';
import { offersRestore, planRestore, restoreQuestion } from '../restore/restore-plan.js';
import type { RestorePlan } from '../restore/restore-plan.js';
import { readStateFile, setAside } from '../restore/state-file.js';
import { parseWorkspaceState } from '../restore/workspace-state.js';
import type { WorkspaceState } from '../restore/workspace-state.js';
import { EXIT } from '../platform/exit-codes.js';
import type { Output } from './output.js';
import type { TileRequest } from '../server/tile-request.js';

export interface RestoreFlags {
  restore?: boolean;
  fresh?: boolean;
}

export type StartChoice =
  | { kind: 'fresh'; note?: string }
  | { kind: 'restore'; state: WorkspaceState }
  /** One line for the user; nothing started (exit 2). */
  | { kind: 'refused'; error: string }
  /** The user pressed Ctrl-C (or closed the input) at the question. */
  | { kind: 'cancelled' };

/** A yes-or-no question: true, false, or null for Ctrl-C. Enter alone is `byDefault` (yes unless said). */
export type Ask = (question: string, byDefault?: boolean) => Promise<boolean | null>;

export async function chooseStart(file: string, session: string, flags: RestoreFlags, ask: Ask, now = new Date()): Promise<StartChoice> {
  const read = readStateFile(file);
  if (read.kind === 'absent') {
    if (flags.restore) return { kind: 'refused', error: `nothing to restore for session "${session}" (no saved workspace at ${file})` };
    return { kind: 'fresh' };
  }
  const parsed = read.kind === 'text' ? parseWorkspaceState(read.text) : { ok: false as const, error: read.error };
  if (!parsed.ok) {
    const problem = `the saved workspace of session "${session}" (${file}) cannot be used: ${parsed.error}`;
    if (!flags.fresh) return { kind: 'refused', error: `${problem}; start with --fresh to set it aside` };
    if (read.kind !== 'text') return { kind: 'refused', error: problem };
    return { kind: 'fresh', note: `${problem}; kept as ${setAside(file, now)}` };
  }
  const state = parsed.state;
  if (flags.fresh) return { kind: 'fresh' };
  if (flags.restore) return { kind: 'restore', state };
  if (!offersRestore(state)) return { kind: 'fresh' };
  const yes = await ask(restoreQuestion(state, now));
  if (yes === null) return { kind: 'cancelled' };
  return yes ? { kind: 'restore', state } : { kind: 'fresh' };
}

/**
 * The tiles the grid opens: the saved ones (with the command line's SPECs after them) when the
 * workspace is restored, else those asked for; or the exit status when nothing may start.
 */
export async function startingTiles(
  file: string,
  session: string,
  flags: RestoreFlags,
  asked: readonly TileRequest[],
  ask: Ask,
  out: Output,
): Promise<{ requests: TileRequest[]; restoring: { plan: RestorePlan; state: WorkspaceState } | null } | { exit: number }> {
  const choice = await chooseStart(file, session, flags, ask);
  if (choice.kind === 'refused') {
    out.error(`belltower: ${choice.error}`);
    return { exit: EXIT.usage };
  }
  if (choice.kind === 'cancelled') return { exit: EXIT.sigint };
  if (choice.kind === 'fresh') {
    if (choice.note) out.error(`belltower: ${choice.note}`);
    return { requests: [...asked], restoring: null };
  }
  const plan = planRestore(choice.state, isFolder);
  for (const line of plan.skipped) out.error(`belltower: not restored: ${line}`);
  return { requests: [...plan.tiles, ...asked.filter((r) => r.fromCommandLine)], restoring: { plan, state: choice.state } };
}

/** A restored tile as the grid opens it. */

/** Ask on the terminal, in its normal (cooked) mode: y is yes, n is no, Enter the default, Ctrl-C null. */
export function askOnTerminal(input: NodeJS.ReadableStream, output: NodeJS.WritableStream): Ask {
  return (question, byDefault = true) =>
    new Promise((resolve) => {
      const rl = createInterface({ input, output, terminal: true });
      let answered = false;
      const done = (answer: boolean | null) => {
        if (answered) return;
        answered = true;
        rl.close();
        resolve(answer);
      };
      rl.on('SIGINT', () => {
        output.write('\n');
        done(null);
      });
      rl.on('close', () => done(null));
      const once = () =>
        rl.question(question, (reply) => {
          const word = reply.trim().toLowerCase();
          if (word === '') return done(byDefault);
          if (word === 'y' || word === 'yes') return done(true);
          if (word === 'n' || word === 'no') return done(false);
          once();
        });
      once();
    });
}
