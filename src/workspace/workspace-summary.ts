/**
 * What a workspace file would start, for a person to read before saying yes: every tile's
 * program as belltower will run it (and the file PATH finds for it), its folder, every variable
 * it sets and the remote it connects to — with the settings that make a program run other code
 * marked, since those are how a file that looks harmless runs something else. Everything that
 * came from the file goes through printable(): a name or a value cannot redraw the question.
 * Pure: the environment and the program lookup are inputs.
 */
import os from 'node:os';
import path from 'node:path';
import { parseSpec, SpecError, specWord } from '../agents/launch-spec.js';
import { printable } from '../platform/printable.js';
import { defaultBranch } from '../worktree/worktree-create.js';
import type { Workspace } from './workspace-file.js';

/** Variables that make a shell, a loader or an interpreter run code of their choosing. */
const RUNS_CODE = new Set([
  'BASH_ENV', 'ENV', 'PROMPT_COMMAND', 'PS0', 'PS1', 'PS2', 'PS4', 'ZDOTDIR', 'HOME', 'XDG_CONFIG_HOME', 'SHELL', 'PATH',
  'LD_PRELOAD', 'LD_LIBRARY_PATH', 'LD_AUDIT', 'NODE_OPTIONS', 'NODE_PATH', 'PYTHONSTARTUP', 'PYTHONPATH', 'PERL5OPT',
  'PERL5LIB', 'RUBYOPT', 'RUBYLIB', 'GIT_SSH', 'GIT_SSH_COMMAND', 'GIT_EXEC_PATH', 'GIT_CONFIG_GLOBAL', 'EDITOR', 'VISUAL',
  'PAGER', 'GIT_PAGER', 'BROWSER', 'SSH_ASKPASS', 'SUDO_ASKPASS',
]);
const RUNS_CODE_PREFIX = /^(DYLD_|BASH_FUNC_|GIT_CONFIG_)/;

/** ssh options that run a command on this machine, or read such options from elsewhere. */
const SSH_LOCAL_COMMAND = new Set(['proxycommand', 'localcommand', 'permitlocalcommand', 'knownhostscommand', 'match', 'include']);

export interface SummaryContext {
  env: Readonly<Record<string, string | undefined>>;
  /** The file a program name runs, as execvp would find it (launch-check's findProgram). */
  findProgram: (file: string, cwd: string, env: Readonly<Record<string, string | undefined>>) => string | undefined;
  home?: string;
}

/** Lines that say what `workspace` starts; the first names the file and counts the tiles. */
export function summarizeWorkspace(workspace: Workspace, shown: string, ctx: SummaryContext): string[] {
  const home = ctx.home ?? os.homedir();
  const tilde = (p: string) => (home && (p === home || p.startsWith(`${home}${path.sep}`)) ? `~${p.slice(home.length)}` : p);
  const count = workspace.tiles.length;
  const lines = [`${printable(shown)} (${printable(tilde(workspace.realPath ?? workspace.file))}) starts ${count} ${count === 1 ? 'tile' : 'tiles'}:`];
  const base = path.dirname(workspace.realPath ?? workspace.file);
  workspace.tiles.forEach((tile, i) => {
    const env = { ...ctx.env, ...tile.env };
    let file: string;
    let args: string[];
    let remote = false;
    let name = tile.name;
    try {
      const launch = parseSpec(tile.spec, env);
      ({ file, args } = launch);
      remote = launch.remote !== undefined;
      name ??= launch.name;
    } catch (error) {
      if (!(error instanceof SpecError)) throw error;
      file = tile.spec;
      args = [];
    }
    name ??= path.basename(file);
    // A command line with shell syntax is the shell's to read: shown as written, and who reads it.
    const script = file === '/bin/sh' && args.length === 2 && args[0] === '-c' ? args[1]! : undefined;
    const runs = script ?? [file, ...args].map(specWord).join(' ');
    lines.push(`  ${i + 1} ${printable(name)}: ${printable(runs)}`);
    const found = ctx.findProgram(file, tile.cwd, env);
    if (script !== undefined) lines.push('      a shell command line, run by /bin/sh -c');
    else if (found && found !== file) {
      const inside = found.startsWith(`${base}${path.sep}`);
      lines.push(`      runs ${printable(tilde(found))}${inside ? '   ! a program from this folder, not an installed one' : ''}`);
    }
    lines.push(`      in ${printable(tilde(tile.cwd))}`);
    if (tile.newWorktree) lines.push(`      in a git worktree of its repository, on branch ${printable(tile.newWorktree.branch ?? defaultBranch(name))} (made, or the one made for it before)`);
    for (const [key, value] of Object.entries(tile.env)) {
      const flag = RUNS_CODE.has(key) || RUNS_CODE_PREFIX.test(key) ? '   ! can make the program run other code' : '';
      lines.push(`      sets ${printable(key)}=${printable(specWord(value))}${flag}`);
    }
    if (remote) {
      lines.push(`      over ssh${tile.remoteHooks ? ', with belltower\'s hooks on the other machine' : ''}`);
      for (const option of sshLocalCommands(args)) lines.push(`      ! ssh option ${printable(option)} runs a command on this machine`);
    }
  });
  if (workspace.onRing !== undefined) {
    lines.push(`  on a ring while no client is attached (a session server), runs: ${printable(workspace.onRing)}`);
    lines.push('      a shell command line, run by /bin/sh -c');
  }
  return lines;
}

/** The options among ssh's words that run something locally (`-oProxyCommand=…`, `-o LocalCommand …`, `-F file`). */
function sshLocalCommands(words: readonly string[]): string[] {
  const found: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    if (word === '-F' || (word.startsWith('-F') && word.length > 2)) found.push('-F (another config file)');
    let option: string | undefined;
    if (word === '-o') option = words[++i];
    else if (word.startsWith('-o')) option = word.slice(2);
    if (option === undefined) continue;
    const name = option.split(/[=\s]/)[0] ?? '';
    if (SSH_LOCAL_COMMAND.has(name.toLowerCase())) found.push(name);
  }
  return found;
}
