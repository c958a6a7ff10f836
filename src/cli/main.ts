/**
 * The command line (DESIGN.md: a public contract). Each command lives in its own file; this one
 * wires them to commander and turns results into exit statuses.
 */
import { Command, CommanderError } from 'commander';
import { processOutput } from './output.js';
import type { Output } from './output.js';
import { addCommand, answerCommand, closeCommand, diffCommand, lsCommand, renameCommand, restartCommand, sendCommand, waitCommand, whyCommand } from './control-commands.js';
import type { SendFlags } from './control-commands.js';
import { STATE_NAMES } from '../control/protocol.js';
import { demoCommand } from './demo-command.js';
import type { DemoFlags } from './demo-command.js';
import { addGridOptions } from './grid-options.js';
import { closestName, mistypedName } from './did-you-mean.js';
import { EXIT, EXIT_STATUS_HELP } from '../platform/exit-codes.js';
import { splitWords } from '../agents/launch-spec.js';
import { launchProblem } from '../session/launch-check.js';
import { reportFailure } from './refusal.js';
import { replayCommand } from './replay-command.js';
import { runHeadlessWorkspace } from './run-command.js';
import { gridCommand } from './grid-command.js';
import { attachCommand, detachCommand, killSessionCommand, sessionsCommand } from './session-commands.js';
import type { AttachFlags } from './session-commands.js';
import type { GridFlags } from './grid-command.js';
import { initWorkspace } from './workspace-command.js';
import { trustCommand } from './trust-command.js';
import { worktreesCommand } from './worktrees-command.js';
import type { WorktreesFlags } from './worktrees-command.js';
import type { TrustFlags } from './trust-command.js';
import { WORKSPACE_FILE } from '../workspace/workspace-file.js';
import type { RunFlags } from './run-command.js';
import { packageVersion } from './version.js';

export function buildProgram(out: Output, setExit: (code: number) => void): Command {
  const program = new Command('belltower')
    .description('A terminal multiplexer for coding agents that rings when each one is really done or blocked on you.')
    .version(packageVersion(), '-v, --version')
    .exitOverride()
    .configureOutput({ writeOut: (s) => out.line(s.trimEnd()), writeErr: (s) => out.error(s.trimEnd()) })
    .helpCommand(false)
    .addHelpText('after', `\n${EXIT_STATUS_HELP}`);

  const collect = (value: string, previous: string[] = []) => [...previous, value];

  // Options of the grid itself come before any SPEC; a subcommand's options are its own.
  program.enablePositionalOptions();
  program.argument('[spec...]', 'claude | codex | gemini | shell | "any command line" (default: claude)');
  addGridOptions(program, 'grid');
  program.action(async (specs: string[], flags: GridFlags) => {
    if (mistyped(program, specs, out)) return setExit(EXIT.usage);
    setExit(await gridCommand(specs, flags, out));
  });

  // Our own help command: one for a name that is no command says so (commander's printed the
  // top-level help and exited 1, as if the user had asked for it).
  program
    .command('help')
    .description('show the help of belltower, or of one command')
    .argument('[command]')
    .action((name: string | undefined) => {
      if (name === undefined) {
        program.outputHelp();
        return setExit(EXIT.ok);
      }
      const command = program.commands.find((c) => c.name() === name || c.aliases().includes(name));
      if (!command || command.name() === 'help') {
        const names = program.commands.map((c) => c.name());
        const close = closestName(name, names);
        out.error(`belltower: there is no command "${name}"${close ? ` (did you mean: belltower help ${close}?)` : ''}; every command: belltower help`);
        return setExit(EXIT.usage);
      }
      command.outputHelp();
      return setExit(EXIT.ok);
    });

  program
    .command('init')
    .description(`write a commented example ${WORKSPACE_FILE} here: the tiles \`belltower\` opens in this folder`)
    .action(() => setExit(initWorkspace(process.cwd(), process.env, out)));

  program
    .command('trust')
    .description(`show what a workspace file starts and trust it: \`belltower\` starts it without asking until it changes`)
    .argument('[file]', `the workspace file (default: ./${WORKSPACE_FILE})`)
    .option('--revoke', 'forget the yes: belltower asks again before it starts the file')
    .option('--list', 'every trusted file, and whether it still holds what you trusted')
    .action((file: string | undefined, flags: TrustFlags) => setExit(trustCommand(file, flags, out)));

  const demo = program
    .command('demo')
    .description('simulated agents that work, finish and ask for permission: see belltower decide, no agent needed')
    .option('--seconds <n>', 'end after this long (default: on a terminal, until you quit; printing lines, 30)')
    .option('--lines', 'print each verdict as a line instead of opening the grid')
    .option('--tiles <n>', 'how many simulated agents (default 5)');
  // The grid's own options, as `belltower [SPEC...]` takes them (those that mean something here).
  addGridOptions(demo, 'demo')
    .addHelpText('after', '\nPrinting lines (piped, with CI set, or --lines), the grid options that apply are\n--session, --record, --capture-output, --record-text, --no-psp and --timing.')
    .action(async (flags: DemoFlags) => setExit(await demoCommand(flags, out)));

  program
    .command('run')
    .description('run sessions; with --headless, no UI: every verdict change is one JSON line on stdout')
    .argument('[spec...]', 'claude | codex | gemini | shell | "any command line" (default: claude)')
    .option('--headless', 'no UI (required: the full-screen UI is `belltower [SPEC...]` itself)')
    .option('--config <file>', 'start the tiles of this workspace file first (it must be trusted: belltower trust FILE)')
    .option('--session <name>', 'the name control commands use to find this belltower')
    .option('--cols <n>', 'terminal width of each session', '120')
    .option('--rows <n>', 'terminal height of each session', '40')
    .option('--record <dir>', 'write one recording per tile into this folder')
    .option('--capture-output', 'include the raw output in recordings (large)')
    .option('--record-text', "record the agents' text as received (prompts, replies): not shareable")
    .option('--no-psp', 'do not answer the OSC 7501 query (agents fall back to titles)')
    .option('--no-hooks', "do not inject belltower's hooks")
    .option('--remote-hooks', "remote Claude tiles (ssh HOST claude) get belltower's hooks over their ssh connection: a private folder on HOST while the tile runs")
    .option('--timing <name=ms>', 'override a timing default (repeatable), e.g. conflictWindowMs=1000', collect)
    .addHelpText('after', `\n${EXIT_STATUS_HELP}`)
    .action(async (specs: string[], flags: RunFlags) => {
      if (!flags.headless) {
        out.error('belltower run: add --headless (the full-screen UI is `belltower [SPEC...]`)');
        return setExit(2);
      }
      setExit(await runHeadlessWorkspace(specs, flags, out));
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
    .command('diff')
    .description("what a tile's folder changed, as git diff shows it (untracked files included); coloured on a terminal")
    .argument('<tile>')
    .option('--session <name>', 'which running belltower')
    .action(async (tile: string, flags: { session?: string }) => setExit(await diffCommand(tile, { ...flags, color: process.stdout.isTTY === true }, out)));

  program
    .command('worktrees')
    .description('the git worktrees belltower made: branch, folder, repository, and whether anything in them is uncommitted, on no other branch, or in use by a tile')
    .option('--prune', 'remove those that lose nothing: clean, no commit on no other branch, not in use by a tile (the rest are named, with why)')
    .option('--json', 'one JSON array')
    .action(async (flags: WorktreesFlags) => setExit(await worktreesCommand(flags, out)));

  program
    .command('send')
    .description('type TEXT into a tile (by number or name), into several (TILE,TILE…), every running tile (--all) or those in a state (--state)')
    .usage('[options] TILE TEXT | TILE,TILE… TEXT | --all TEXT | --state STATE[,STATE…] TEXT')
    .argument('[tile]', 'a tile by number or name; several with commas (1,3,web)')
    .argument('[text]')
    .option('--enter', 'then press Enter (submits: counts as a prompt)')
    .option('--all', 'every tile whose program still runs')
    .option('--state <states>', `the running tiles in this state, or one of several (done,idle): ${STATE_NAMES.join(' | ')}`)
    .option('--session <name>', 'which running belltower')
    .addHelpText(
      'after',
      [
        '',
        'Several tiles: one line per tile (sent, or skipped: it has exited). Exit 0 when',
        'every tile took the text; 1 when one could not (it exited, it was closed) or',
        'none was chosen — a TILE that is no tile sends nothing —; 2 for a usage error.',
      ].join('\n'),
    )
    .action(async (tile: string | undefined, text: string | undefined, flags: SendFlags) => setExit(await sendCommand(tile, text, flags, out)));

  program
    .command('wait')
    .description('block until the tile reaches a state; exit 0, 124 on timeout, or 1 if the tile exits first')
    .argument('<tile>')
    .option('--for <state>', 'done | blocked | idle | exited | any | finished (its command or turn ended, however long it ran)', 'done')
    .option('--timeout <duration>', 'e.g. 30s, 10m, 1h', '10m')
    .option('--session <name>', 'which running belltower')
    .action(async (tile: string, flags: { for?: string; timeout?: string; session?: string }) => setExit(await waitCommand(tile, flags, out)));

  program
    .command('answer')
    .description("answer a tile's permission request with the option its dialog shows: allow (once), always (do not ask again, as far as the agent offers), deny")
    .argument('<tile>')
    .argument('<answer>', 'allow | always | deny')
    .option('--message <text>', 'with deny: then tell the agent what to do instead (typed into its prompt)')
    .option('--request <id>', "only if this request still stands (ls --json's request.id)")
    .option('--session <name>', 'which running belltower')
    .addHelpText(
      'after',
      [
        '',
        'Exit 0 once the request has gone; 1 when the tile still asks after the answer;',
        '2 for a usage error; and, with nothing sent: 3 when another request stands than',
        '--request names, 4 when the tile is not asking anything, 5 when its dialog has',
        'no option for that answer.',
      ].join('\n'),
    )
    .action(async (tile: string, answer: string, flags: { message?: string; request?: string; session?: string }) => setExit(await answerCommand(tile, answer, flags, out)));

  program
    .command('add')
    .description('start a tile in the running belltower (SPEC as for belltower itself)')
    .argument('<spec>', 'claude | codex | gemini | shell | "any command line"')
    .option('--name <name>', "the tile's name (default: from what it runs)")
    .option('--cwd <dir>', 'the folder it runs in (default: this one)')
    .option('--worktree [branch]', "start it in a new git worktree of the folder's repository, on a new branch (default: belltower/NAME)")
    .option('--base <ref>', 'what the worktree branches from (default: HEAD)')
    .option('--session <name>', 'which running belltower')
    .action(async (spec: string, flags: { name?: string; cwd?: string; session?: string; worktree?: string | boolean; base?: string }) => setExit(await addCommand(spec, flags, out)));

  program
    .command('close')
    .description('end a tile (every process of it) and remove it')
    .argument('<tile>')
    .option('--session <name>', 'which running belltower')
    .action(async (tile: string, flags: { session?: string }) => setExit(await closeCommand(tile, flags, out)));

  program
    .command('restart')
    .description('run a tile again in the same place (ending what still runs of it first)')
    .argument('<tile>')
    .option('--session <name>', 'which running belltower')
    .action(async (tile: string, flags: { session?: string }) => setExit(await restartCommand(tile, flags, out)));

  program
    .command('rename')
    .description('give a tile another name')
    .argument('<tile>')
    .argument('<name>')
    .option('--session <name>', 'which running belltower')
    .action(async (tile: string, name: string, flags: { session?: string }) => setExit(await renameCommand(tile, name, flags, out)));

  program
    .command('attach')
    .description("attach to a running session's server (default: this folder's session); d detaches again")
    .argument('[session]')
    .option('--session <name>', 'which session (as the argument)')
    .option('--bell <mode>', "this client's bell: all | background | off (default: the session's)")
    .option('--notify <how>', "this client's notifications: auto | osc9 | osc777 | osc99 | off (default: the session's)")
    .option('--escape-key <key>', "this client's key back to the grid (default: the session's)")
    .action(async (session: string | undefined, flags: AttachFlags) => setExit(await attachCommand(session, flags, out)));

  program
    .command('detach')
    .description("let the session's client that typed or resized last go (--all: every client); the tiles keep running")
    .argument('[session]')
    .option('--session <name>', 'which session (as the argument)')
    .option('--all', 'every attached client')
    .action(async (session: string | undefined, flags: { session?: string; all?: boolean }) => setExit(await detachCommand(session, flags, out)));

  program
    .command('sessions')
    .description('the running session servers: name, folder, tiles and their states, clients attached, since when')
    .option('--json', 'one JSON array')
    .action(async (flags: { json?: boolean }) => setExit(await sessionsCommand(flags, out)));

  program
    .command('kill-session')
    .description("end a session's server and every tile in it (default: this folder's session)")
    .argument('[session]')
    .option('--session <name>', 'which session (as the argument)')
    .action(async (session: string | undefined, flags: { session?: string }) => setExit(await killSessionCommand(session, flags, out)));

  program
    .command('replay')
    .description('re-run a recording through the same sources and engine as live; print the verdict timeline')
    .argument('<file>', 'a belltower recording (.jsonl)')
    .option('--json', 'one verdict JSON line per change')
    .option('--check', 'exit 1 at the first verdict that differs from the recorded one')
    .action(async (file: string, flags: { json?: boolean; check?: boolean }) => setExit(await replayCommand(file, flags, out)));

  return program;
}

/** Names a first SPEC word may be a typo of: the commands, and the agents a SPEC names. */
const SPEC_NAMES = ['claude', 'codex', 'gemini', 'shell'];

/** `belltower lss`: a typo of a command, not a program to run. Says so (and what to type) when it is. */
function mistyped(program: Command, specs: string[], out: Output): boolean {
  // Only a SPEC that is one bare word can be a mistyped command: "cd /tmp && ls" is a command
  // line whose first word happens to be close to `ls`.
  let words: string[];
  try {
    words = splitWords(specs[0] ?? '');
  } catch {
    return false; // unbalanced quotes: the SPEC parser words that
  }
  const first = words[0];
  if (first === undefined || words.length > 1 || !/^[\w.-]+$/.test(first)) return false;
  const names = [...program.commands.map((c) => c.name()), 'help', ...SPEC_NAMES];
  const runnable = (word: string) => launchProblem(word, process.cwd(), process.env) === undefined;
  const suggestion = mistypedName(first, names, runnable);
  if (suggestion === null) return false;
  out.error(
    [
      `belltower: "${first}" is neither a belltower command nor a program on your PATH.`,
      `  did you mean:    belltower ${suggestion}`,
      '  every command:   belltower help',
    ].join('\n'),
  );
  return true;
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
    code = error instanceof CommanderError ? commanderStatus(error) : reportFailure(error, out);
  }
  process.exitCode = code;
}

/** What commander stopped for, as the README's table has it: help and the version are 0, every
 * usage error (an unknown option or command, a missing argument) is 2. */
function commanderStatus(error: CommanderError): number {
  if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.code === 'commander.help') return EXIT.ok;
  return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
}
