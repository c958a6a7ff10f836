/**
 * A workspace file starts nothing the user has not seen and said yes to (docs/security.md, "The
 * workspace file"). The first time a file is used, and whenever its content changes, belltower
 * shows what it would start and asks — on a terminal, before the grid takes it; the default is no.
 * Without a terminal (headless, a script) an untrusted file is refused with the command that
 * trusts it. There is no flag around it: `belltower trust FILE` is the way for scripts.
 */
import { specWord } from '../agents/launch-spec.js';
import { findProgram } from '../session/launch-check.js';
import { belltowerDirs } from '../platform/state-dir.js';
import { printable } from '../platform/printable.js';
import { recordTrust, readTrust, trustFilePath, trustStatus } from '../workspace/trust-store.js';
import type { Workspace } from '../workspace/workspace-file.js';
import { summarizeWorkspace } from '../workspace/workspace-summary.js';
import { EXIT } from '../platform/exit-codes.js';
import type { Output } from './output.js';
import type { Ask } from './restore-start.js';

export interface TrustGate {
  /** The question, on a terminal; null without one. */
  ask: Ask | null;
  /** Where the question's explanation goes (the terminal). */
  show: (line: string) => void;
  out: Output;
  env?: Readonly<Record<string, string | undefined>>;
  stateDir?: string;
  now?: Date;
}

/** null: the workspace may start. Else the exit status (nothing started). */
export async function admitWorkspace(workspace: Workspace, shown: string, gate: TrustGate): Promise<number | null> {
  const { realPath, sha256 } = workspace;
  if (realPath === undefined || sha256 === undefined) return null; // not read from a file
  const file = trustFilePath(gate.stateDir ?? belltowerDirs().state);
  const read = readTrust(file);
  if (!read.ok) gate.out.error(`belltower: ${read.error}: every workspace file counts as new`);
  const status = read.ok ? trustStatus(read.record, realPath, sha256) : { kind: 'new' as const };
  if (status.kind === 'trusted') return null;
  const trustCommand = `belltower trust ${specWord(shown)}`;
  if (!gate.ask) {
    gate.out.error(
      `belltower: ${printable(shown)} ${status.kind === 'changed' ? 'changed since you trusted it' : 'is not trusted yet'}: belltower starts nothing from a workspace file you have not seen. ` +
        `To see what it starts and trust it: ${trustCommand}`,
    );
    return EXIT.usage;
  }
  const summary = summarizeWorkspace(workspace, shown, { env: gate.env ?? process.env, findProgram });
  const why =
    status.kind === 'changed'
      ? `${printable(shown)} changed since you trusted it (${status.trustedAt.slice(0, 16).replace('T', ' ')} UTC); what it starts now:`
      : 'belltower has not started this workspace file before. A workspace file can run any program as you: read what it starts.';
  gate.show(why);
  for (const line of summary) gate.show(line);
  const yes = await gate.ask('Start these tiles? Your yes is remembered until the file changes. [y/N] ', false);
  if (yes === null) return EXIT.sigint;
  if (!yes) {
    gate.out.error(`belltower: nothing started. To trust ${printable(shown)} later without this question: ${trustCommand}`);
    return EXIT.usage;
  }
  try {
    const { note } = recordTrust(file, realPath, sha256, gate.now);
    if (note) gate.out.error(`belltower: ${note}`);
  } catch (error) {
    gate.out.error(`belltower: your yes could not be remembered (${(error as Error).message}): you will be asked again next time`);
  }
  return null;
}
