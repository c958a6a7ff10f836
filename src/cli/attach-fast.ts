/**
 * `belltower attach [SESSION] [--session NAME]` without the rest of the command line: the launcher
 * (bin/belltower.js) comes here first, so attaching loads the client, the wire protocol and a few
 * checks — not commander, the grid's options or anything that draws. Anything else on the command
 * line (--help, the client's own --bell, a typo) is the full command line's: null says so.
 */
import { attachToSession } from './attach-session.js';
import { processOutput } from './output.js';

export async function attachFast(argv: readonly string[]): Promise<number | null> {
  const args = argv.slice(3);
  let name: string | undefined;
  let session: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--session' && args[i + 1] !== undefined && !args[i + 1]!.startsWith('-')) session = args[++i];
    else if (arg.startsWith('--session=')) session = arg.slice('--session='.length);
    else if (arg.startsWith('-') || name !== undefined) return null;
    else name = arg;
  }
  return attachToSession(name, session !== undefined ? { session } : {}, {}, processOutput);
}
