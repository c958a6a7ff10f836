/**
 * `ssh [options] DESTINATION [command …]`, read the way ssh reads it: which words are its options
 * (with their values), which is the destination, and which make the remote command. Pure.
 *
 * ssh joins the command's words with spaces and the remote user's shell parses the result, so
 * `ssh host claude --model opus` and `ssh host 'claude --model opus'` run the same thing; the
 * agent is recognised from that joined line.
 */
import { splitWords } from '../agents/spec-words.js';

export interface SshCommand {
  /** ssh's own options, as given (values included), in order. */
  options: string[];
  destination: string;
  /** The host alone, for people: no `user@`, no `ssh://`, no port. */
  host: string;
  /** The remote command's words as given (empty: the remote login shell). */
  command: string[];
  /** `-t` (a terminal even with a command), `-T` (never one), or neither. */
  tty: 'forced' | 'off' | 'default';
}

/** Options that take a value (ssh(1), OpenSSH 9.2+: -P tag). */
const WITH_VALUE = new Set('BbcDEeFIiJLlmOoPpQRSWw');
const FLAGS = new Set('46AaCfGgKkMNnqsTtVvXxYy');

export class SshCommandError extends Error {
  override name = 'SshCommandError';
}

/** `args`: the words after `ssh`. Throws SshCommandError when ssh itself would refuse them. */
export function parseSshCommand(args: readonly string[]): SshCommand {
  const options: string[] = [];
  const read = { tty: 'default' as SshCommand['tty'], terminated: false };
  // ssh reads options before the destination and again right after it (`ssh devbox -A claude`).
  let i = readOptions(args, 0, options, read);
  const destination = args[i];
  if (destination === undefined) throw new SshCommandError('ssh needs a destination: ssh [options] [user@]host [command]');
  const after: string[] = [];
  if (!read.terminated) i = readOptions(args, i + 1, after, read) - 1;
  // Kept before the destination, where sshArgv puts every option: `--` would end them early there.
  options.push(...after.filter((word) => word !== '--'));
  return { options, destination, host: hostOf(destination), command: args.slice(i + 1), tty: read.tty };
}

/** Reads options from `start` into `options`; returns the index of the first word that is none. */
function readOptions(args: readonly string[], start: number, options: string[], read: { tty: SshCommand['tty']; terminated: boolean }): number {
  let i = start;
  for (; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      options.push(arg);
      read.terminated = true;
      i++;
      break;
    }
    if (!arg.startsWith('-') || arg === '-') break;
    options.push(arg);
    for (let j = 1; j < arg.length; j++) {
      const letter = arg[j]!;
      if (FLAGS.has(letter)) {
        if (letter === 't') read.tty = 'forced';
        if (letter === 'T') read.tty = 'off';
        continue;
      }
      if (!WITH_VALUE.has(letter)) throw new SshCommandError(`ssh has no option -${letter}`);
      if (j === arg.length - 1) {
        const value = args[i + 1];
        if (value === undefined) throw new SshCommandError(`ssh's -${letter} needs a value`);
        options.push(value);
        i++;
      }
      break;
    }
  }
  return i;
}

/** `user@host`, `ssh://user@host:2222`, `[::1]` → the host. */
export function hostOf(destination: string): string {
  let rest = destination;
  const uri = /^ssh:\/\/(.*)$/.exec(rest);
  if (uri) rest = uri[1]!.replace(/\/.*$/, '');
  rest = rest.slice(rest.lastIndexOf('@') + 1);
  const bracketed = /^\[([^\]]*)\](:\d+)?$/.exec(rest);
  if (bracketed) return bracketed[1]!;
  if (uri) rest = rest.replace(/:\d+$/, '');
  return rest;
}

export interface RemoteProgram {
  /** Words before the program (`env`, `NAME=value`): kept in front of it. */
  prefix: string[];
  /** The program word as written (`claude`, `~/.local/bin/claude`). */
  program: string;
  /** Its name (`claude`). */
  name: string;
  args: string[];
}

/** Characters that make the remote line more than words (the remote shell would expand them). */
const SHELL_SYNTAX = /[|&;<>()$`\\*?[\]#~!{}]/;
/** Inside double quotes, what sh and fish still expand. */
const QUOTED_SYNTAX = /[$`\\]/;

/** Whether the remote shell would do more than split this line into words. Single-quoted text is
 * taken as written (a backslash in it is not: fish reads it). */
function hasShellSyntax(line: string): boolean {
  let quote: string | null = null;
  for (const ch of line) {
    if (quote === "'") {
      if (ch === "'") quote = null;
      else if (ch === '\\') return true;
    } else if (quote === '"') {
      if (ch === '"') quote = null;
      else if (QUOTED_SYNTAX.test(ch)) return true;
    } else if (ch === "'" || ch === '"') quote = ch;
    else if (SHELL_SYNTAX.test(ch)) return true;
  }
  return quote !== null;
}

/**
 * The program the remote command runs and its arguments, when the joined line is plain words;
 * null when it is empty or uses shell syntax (then it is passed on untouched, as ssh would).
 */
export function remoteProgram(command: readonly string[]): RemoteProgram | null {
  const line = command.join(' ');
  if (line.trim() === '' || hasShellSyntax(line)) return null;
  let words: string[];
  try {
    words = splitWords(line);
  } catch {
    return null;
  }
  let at = 0;
  if (words[at] === 'env') at++;
  while (at < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[at]!)) at++;
  const program = words[at];
  if (program === undefined || program.startsWith('-')) return null;
  // npm installs Claude Code as claude.exe behind a `claude` link, on every system.
  const name = (program.split('/').at(-1) ?? program).replace(/\.exe$/, '');
  return { prefix: words.slice(0, at), program, name, args: words.slice(at + 1) };
}

/**
 * A word as the remote login shell must see it, whether sh, bash, zsh or fish: bare when that is
 * safe, else in single quotes, with a quote as '"'"' and a backslash as '\\' (fish reads
 * backslashes inside single quotes; outside them every shell reads \\ as one).
 */
export function remoteWord(word: string): string {
  // Bare only when no shell reads more into it: zsh expands a leading `=`, fish a leading `%self`.
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(word) && !/^[=%]/.test(word)) return word;
  return `'${word.replace(/'/g, `'"'"'`).replace(/\\/g, `'\\\\'`)}'`;
}
