/**
 * What the foreground of a terminal is doing, from the process table (Linux `/proc`): whether the
 * foreground process group's leader is asleep reading that terminal. A shell tile's command that
 * sleeps in `read(2)` on its terminal is waiting for the user (`read x`, a `[y/N]` question, a
 * REPL's prompt) — which nothing on the screen or in the prompt marks can tell.
 *
 * The facts: the shell's `stat` names the terminal's foreground process group (`tpgid`, field 8);
 * that group's leader's `syscall` names the call it sleeps in and its first argument (the file
 * descriptor for a read); its `fd/N` link names what that descriptor is, compared with the
 * shell's own terminal (`fd/0`). A shell's own builtin that reads a line (fish's `read`, bash's
 * `read -e`) reads through the shell's line editor, which waits in `poll`/`select` as it does at
 * the prompt: the shell itself asleep there while a command runs is reading the terminal too.
 * Reading another process's `syscall` needs the right to trace it,
 * which a parent has. Where any of it is missing (macOS, a leader that exited, a locked-down
 * kernel) the answer is null: nothing is known, so nothing is claimed.
 */
import { readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';

export interface ForegroundFacts {
  /** The foreground process group's leader. */
  readonly pid: number;
  /** It sleeps reading the terminal. */
  readonly reading: boolean;
}

/** The `read` family by architecture: the calls a program blocks in to wait for typed input. */
const READ_CALLS: Readonly<Record<string, readonly number[]>> = {
  x64: [0, 19], // read, readv
  arm64: [63, 65],
  arm: [3, 145],
  ia32: [3, 145],
};

/** The `poll`/`select` family by architecture: how a line editor waits for keys. */
const WAIT_CALLS: Readonly<Record<string, readonly number[]>> = {
  x64: [7, 23, 232, 270, 271, 281], // poll, select, epoll_wait, pselect6, ppoll, epoll_pwait
  arm64: [22, 72, 73], // epoll_pwait, pselect6, ppoll
  arm: [142, 168, 335, 336],
  ia32: [142, 168, 308, 309],
};

/** Whether a `/proc/PID/syscall` line is a sleep in `poll`/`select`. */
export function waitingInPoll(syscallText: string, arch: string): boolean {
  const nr = syscallText.trim().split(/\s+/)[0];
  return nr !== undefined && /^\d+$/.test(nr) && (WAIT_CALLS[arch] ?? []).includes(Number(nr));
}

/** The fields of `/proc/PID/stat` after the command name (which may hold spaces and parentheses). */
export function statFields(text: string): string[] | null {
  const close = text.lastIndexOf(')');
  if (close < 0) return null;
  // Field 3 (state) is the first after the name: fields[0] is field 3.
  return text.slice(close + 2).trim().split(/\s+/);
}

/** The foreground process group of the terminal a process has (`tpgid`), or null. */
export function foregroundGroup(statText: string): number | null {
  const fields = statFields(statText);
  const tpgid = fields ? Number(fields[5]) : NaN;
  return Number.isInteger(tpgid) && tpgid > 0 ? tpgid : null;
}

/** Whether a `/proc/PID/syscall` line is a sleep in a read of `fd` (null: not a read). */
export function readingFd(syscallText: string, arch: string): number | null {
  const [nr, first] = syscallText.trim().split(/\s+/);
  // "running" or "-1 …" (not in a system call) read nothing.
  if (nr === undefined || !/^\d+$/.test(nr) || first === undefined) return null;
  if (!(READ_CALLS[arch] ?? []).includes(Number(nr))) return null;
  const fd = Number.parseInt(first, 16);
  return Number.isInteger(fd) && fd >= 0 ? fd : null;
}

export function readForeground(shellPid: number, options: { proc?: string; arch?: string } = {}): ForegroundFacts | null {
  const proc = options.proc ?? '/proc';
  const arch = options.arch ?? process.arch;
  try {
    const group = foregroundGroup(readFileSync(join(proc, String(shellPid), 'stat'), 'utf8'));
    if (group === null) return null;
    const terminal = readlinkSync(join(proc, String(shellPid), 'fd', '0'));
    const state = statFields(readFileSync(join(proc, String(group), 'stat'), 'utf8'))?.[0];
    // Only a sleep is a wait: a running or stopped leader is not waiting for keys.
    if (state !== 'S') return { pid: group, reading: false };
    const syscall = readFileSync(join(proc, String(group), 'syscall'), 'utf8');
    const fd = readingFd(syscall, arch);
    if (fd === null) return { pid: group, reading: group === shellPid && waitingInPoll(syscall, arch) };
    return { pid: group, reading: readlinkSync(join(proc, String(group), 'fd', String(fd))) === terminal };
  } catch {
    return null;
  }
}
