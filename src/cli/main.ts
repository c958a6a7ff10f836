/**
 * The command line (DESIGN.md: a public contract). Each command lives in its own file; this one
 * wires them to commander and turns results into exit statuses.
 */
import { Command, CommanderError } from 'commander';
import { processOutput } from './output.js';
import type { Output } from './output.js';
import { lsCommand, sendCommand, waitCommand, whyCommand } from './control-commands.js';
import { demoCommand } from './demo-command.js';
import { reportFailure } from './refusal.js';
import { replayCommand } from './replay-command.js';
import { runHeadless } from './run-command.js';
import type { RunFlags } from './run-command.js';
import { packageVersion } from './version.js';

export function buildProgram(out: Output, setExit: (code: number) => void): Command {
  const program = new Command('belltower')
    .description('A terminal multiplexer for coding agents that rings when each one is really done or blocked on you.')
    .version(packageVersion(), '-v, --version')
    .exitOverride()
    .configureOutput({ writeOut: (s) => out.line(s.trimEnd()), writeErr: (s) => out.error(s.trimEnd()) });

  const collect = (value: string, previous: string[] = []) => [...previous, value];

  program
    .argument('[spec...]', 'claude | codex | gemini | shell | "any command line"')
    .action((specs: string[]) => {
      const run = specs.length > 0 ? specs.map((s) => (/\s/.test(s) ? JSON.stringify(s) : s)).join(' ') : 'claude';
      out.error(
        [
          'belltower: the full-screen UI is not built yet.',
          `  run the sessions without it:   belltower run --headless ${run}`,
          '  watch belltower decide:        belltower demo',
          '  see every command:             belltower --help',
        ].join('\n'),
      );
      setExit(2);
    });

  program
    .command('demo')
    .description('simulated agents that work, finish and ask for permission: see belltower decide, no agent needed')
    .option('--seconds <n>', 'how long to run', '30')
    .action(async (flags: { seconds?: string }) => setExit(await demoCommand(flags, out)));

  program
    .command('run')
    .description('run sessions; with --headless, no UI: every verdict change is one JSON line on stdout')
    .argument('[spec...]', 'claude | codex | gemini | shell | "any command line" (default: claude)')
    .option('--headless', 'no UI (required for now: the full-screen UI is `belltower` itself)')
    .option('--session <name>', 'the name control commands use to find this belltower')
    .option('--cols <n>', 'terminal width of each session', '120')
    .option('--rows <n>', 'terminal height of each session', '40')
    .option('--record <dir>', 'write one recording per tile into this folder')
    .option('--capture-output', 'include the raw output in recordings (large)')
    .option('--record-text', "record the agents' text as received (prompts, replies): not shareable")
    .option('--no-psp', 'do not answer the OSC 7501 query (agents fall back to titles)')
    .option('--no-hooks', "do not inject belltower's hooks")
    .option('--timing <name=ms>', 'override a timing default (repeatable), e.g. conflictWindowMs=1000', collect)
    .action(async (specs: string[], flags: RunFlags) => {
      if (!flags.headless) {
        out.error('belltower run: add --headless (the full-screen UI is `belltower [SPEC...]`)');
        return setExit(2);
      }
      setExit(await runHeadless(specs, flags, out));
    });

  program
    .command('ls')
    .description('tiles of the running belltower: id, name, state, provenance, since')
    .option('--json', 'one JSON array')
    .option('--session <name>', 'which running belltower')
    .action(async (flags: { json?: boolean; session?: string }) => setExit(await lsCommand(flags, out)));

  program
    .command('why')
    .description("why a tile shows what it shows: its verdict and the last signals that led there")
    .argument('<tile>')
    .option('--json', 'one JSON object')
    .option('--session <name>', 'which running belltower')
    .action(async (tile: string, flags: { json?: boolean; session?: string }) => setExit(await whyCommand(tile, flags, out)));

  program
    .command('send')
    .description('type TEXT into a tile (by number or name)')
    .argument('<tile>')
    .argument('<text>')
    .option('--enter', 'then press Enter (submits: counts as a prompt)')
    .option('--session <name>', 'which running belltower')
    .action(async (tile: string, text: string, flags: { enter?: boolean; session?: string }) => setExit(await sendCommand(tile, text, flags, out)));

  program
    .command('wait')
    .description('block until the tile reaches a state; exit 0, or 124 on timeout')
    .argument('<tile>')
    .option('--for <state>', 'done | blocked | idle | exited | any', 'done')
    .option('--timeout <duration>', 'e.g. 30s, 10m, 1h', '10m')
    .option('--session <name>', 'which running belltower')
    .action(async (tile: string, flags: { for?: string; timeout?: string; session?: string }) => setExit(await waitCommand(tile, flags, out)));

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
  // A reader that went away (`belltower run --headless | head`) is a request to stop: end the
  // sessions the way SIGTERM does, instead of dying with their children still running.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.kill(process.pid, 'SIGTERM');
  });
  // An error thrown outside a command's own flow (an event handler) is a crash like any other:
  // its stack goes to the log, one line to the terminal.
  const crash = (error: unknown) => process.exit(reportFailure(error, out));
  process.on('uncaughtException', crash);
  process.on('unhandledRejection', crash);
  let code = 0;
  const program = buildProgram(out, (c) => (code = c));
  try {
    await program.parseAsync(argv);
  } catch (error) {
    // A refusal is one line and exit 2; a crash logs its stack and points there (refusal.ts).
    code = error instanceof CommanderError ? error.exitCode : reportFailure(error, out);
  }
  process.exitCode = code;
}
