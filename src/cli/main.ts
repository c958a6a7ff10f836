/**
 * The command line (DESIGN.md: a public contract). Each command lives in its own file; this one
 * wires them to commander and turns results into exit statuses.
 */
import { Command, CommanderError } from 'commander';
import { processOutput } from './output.js';
import type { Output } from './output.js';
import { replayCommand } from './replay-command.js';
import { packageVersion } from './version.js';

export function buildProgram(out: Output, setExit: (code: number) => void): Command {
  const program = new Command('belltower')
    .description('A terminal multiplexer for coding agents that rings when each one is really done or blocked on you.')
    .version(packageVersion(), '-v, --version')
    .exitOverride()
    .configureOutput({ writeOut: (s) => out.line(s.trimEnd()), writeErr: (s) => out.error(s.trimEnd()) });

  program
    .command('replay')
    .description('re-run a recording through the same sources and engine as live; print the verdict timeline')
    .argument('<file>', 'a belltower recording (.jsonl)')
    .option('--json', 'one verdict JSON line per change')
    .option('--check', 'exit 1 at the first verdict that differs from the recorded one')
    .action(async (file: string, flags: { json?: boolean; check?: boolean }) => setExit(await replayCommand(file, flags, out)));

  return program;
}

export async function main(argv: string[], out: Output = processOutput): Promise<void> {
  let code = 0;
  const program = buildProgram(out, (c) => (code = c));
  try {
    await program.parseAsync(argv);
  } catch (error) {
    if (error instanceof CommanderError) {
      code = error.exitCode;
    } else {
      out.error(`belltower: ${(error as Error).stack ?? String(error)}`);
      code = 1;
    }
  }
  process.exitCode = code;
}
