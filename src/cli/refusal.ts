/**
 * Which errors are refusals — the user's input, folder or permissions are not what belltower can
 * work with — and which are crashes. A refusal is one plain line and exit 2; a crash writes its
 * stack to the log file and prints one line that points there. Never a stack on the terminal.
 */
import { ClaudeSettingsError } from '../agents/claude-settings.js';
import { GeminiSettingsError } from '../agents/gemini-settings.js';
import { SpecError } from '../agents/launch-spec.js';
import { ControlClientError } from '../control/control-client.js';
import { ControlServerError } from '../control/control-server.js';
import { appendLogLine } from '../platform/file-logger.js';
import { printable } from '../platform/printable.js';
import { PrivateDirError } from '../platform/private-dir.js';
import { belltowerDirs } from '../platform/state-dir.js';
import { RecordingError } from '../record/format.js';
import { RecorderError } from '../record/recorder.js';
import { TimingError } from '../verdict/timing.js';
import { EXIT } from '../platform/exit-codes.js';
import type { Output } from './output.js';

const REFUSALS = [PrivateDirError, SpecError, TimingError, RecordingError, RecorderError, ControlClientError, ControlServerError, ClaudeSettingsError, GeminiSettingsError];

// What the file system says about a folder or file the user named or owns: theirs to fix.
const REFUSED_CODES = new Set(['EACCES', 'EPERM', 'EROFS', 'ENOTDIR', 'EISDIR', 'ENAMETOOLONG', 'ENOSPC', 'EDQUOT', 'ELOOP']);

/** The one line that says why, when `error` is a refusal; null for a crash. */
export function refusalMessage(error: unknown): string | null {
  if (!(error instanceof Error)) return null;
  if (REFUSALS.some((type) => error instanceof type)) return firstLine(error.message);
  const code = (error as NodeJS.ErrnoException).code;
  if (code !== undefined && REFUSED_CODES.has(code)) return firstLine(error.message);
  return null;
}

/** Says what went wrong in one line on stderr and returns the exit status. */
export function reportFailure(error: unknown, out: Output, logPath = defaultLogPath()): number {
  const refused = refusalMessage(error);
  if (refused !== null) {
    out.error(`belltower: ${refused}`);
    return EXIT.usage;
  }
  const message = error instanceof Error ? error.message : String(error);
  const stack = error instanceof Error ? (error.stack ?? message) : message;
  const written = logPath !== null && appendLogLine(logPath, 'error', 'unexpected error', { stack });
  out.error(`belltower: unexpected error: ${firstLine(message)}${written ? ` (the details are in ${logPath})` : ''}`);
  return EXIT.failure;
}

function defaultLogPath(): string | null {
  try {
    return `${belltowerDirs().log}/belltower.log`;
  } catch {
    return null;
  }
}

/** The first line of a message, shown safely (it may quote a path or a recording's text). */
function firstLine(text: string): string {
  return printable(text.split('\n', 1)[0] ?? '');
}
