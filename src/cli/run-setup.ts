/**
 * What `run --headless` and the full-screen UI share before anything starts: the SPECs, timing
 * overrides, recording folder and session name, each refused in one line (exit 2) when wrong.
 */
import { accessSync, constants } from 'node:fs';
import { ensureOwnDir, PrivateDirError } from '../platform/private-dir.js';
import { parseSpec, SpecError } from '../agents/launch-spec.js';
import type { LaunchSpec } from '../agents/launch-spec.js';
import { checkSessionName } from '../control/socket-path.js';
import { resolveTiming, TimingError } from '../verdict/timing.js';
import type { Timing } from '../verdict/timing.js';

export interface CommonRunFlags {
  session?: string;
  record?: string;
  captureOutput?: boolean;
  /** Keep the agents' text in recordings (prompts, replies, messages): not for sharing. */
  recordText?: boolean;
  psp?: boolean;
  hooks?: boolean;
  /** Hooks for remote Claude tiles, over their ssh connection. */
  remoteHooks?: boolean;
  timing?: string[];
}

export interface RunSetup {
  launches: LaunchSpec[];
  timing: Timing;
  session: string;
}

/** The validated setup, or the one line that says what is wrong. */
export function prepareRun(specs: string[], flags: CommonRunFlags, defaultSession: string): RunSetup | { error: string } {
  let launches: LaunchSpec[];
  let timing: Timing;
  try {
    launches = specs.map((spec) => parseSpec(spec));
    timing = resolveTiming(parseTimingFlags(flags.timing ?? []));
  } catch (error) {
    if (error instanceof SpecError || error instanceof TimingError) return { error: error.message };
    throw error;
  }
  if (flags.record) {
    const problem = recordDirProblem(flags.record);
    if (problem) return { error: `--record ${flags.record}: ${problem}` };
  }
  const session = flags.session ?? defaultSession;
  const badName = checkSessionName(session);
  if (badName) return { error: badName };
  return { launches, timing, session };
}

/** Why recordings cannot be written into `dir` (created if missing, 0700), or null. The folder
 * must be the user's and not writable by others (unless sticky): see Recorder for the files. */
export function recordDirProblem(dir: string): string | null {
  try {
    ensureOwnDir(dir);
    accessSync(dir, constants.W_OK);
    return null;
  } catch (error) {
    if (error instanceof PrivateDirError) return error.message;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') return 'not writable';
    if (code === 'ENOTDIR' || code === 'EEXIST') return 'not a folder';
    return (error as Error).message;
  }
}

/** A workspace file's timing overrides as `--timing` flags, before the command line's own (which
 * win, coming later). */
export function withWorkspaceTiming(workspace: Readonly<Record<string, number>> | undefined, flags: readonly string[] | undefined): string[] {
  return [...Object.entries(workspace ?? {}).map(([name, ms]) => `${name}=${ms}`), ...(flags ?? [])];
}

/** `--timing conflictWindowMs=1000` → { conflictWindowMs: 1000 } (validated by resolveTiming). */
export function parseTimingFlags(values: string[]): Record<string, unknown> {
  const overrides: Record<string, unknown> = {};
  for (const value of values) {
    const eq = value.indexOf('=');
    if (eq < 1) throw new TimingError(`--timing takes NAME=MILLISECONDS, got "${value}"`);
    const raw = value.slice(eq + 1);
    overrides[value.slice(0, eq)] = raw.trim() === '' ? raw : Number(raw);
  }
  return overrides;
}

/** The TileSet options both the grid and headless mode take from their flags. */
export function tileSetBase(flags: CommonRunFlags, runtimeDir: string): { runtimeDir: string; recordDir?: string; captureOutput: boolean; recordText?: boolean; answerPsp?: boolean; hooks: boolean; remoteHooks?: boolean } {
  return {
    runtimeDir,
    ...(flags.record ? { recordDir: flags.record } : {}),
    captureOutput: flags.captureOutput ?? false,
    ...(flags.recordText ? { recordText: true } : {}),
    ...(flags.psp === false ? { answerPsp: false } : {}),
    hooks: flags.hooks !== false,
    ...(flags.remoteHooks ? { remoteHooks: true } : {}),
  };
}
