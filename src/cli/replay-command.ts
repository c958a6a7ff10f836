/** `belltower replay FILE [--json] [--check]`: re-run a recording through the live pipeline. */
import { readFile } from 'node:fs/promises';
import { printable } from '../platform/printable.js';
import { parseRecording, RecordingError } from '../record/format.js';
import { replay } from '../tile/replay.js';
import type { VerdictRow } from '../tile/replay.js';
import type { Output } from './output.js';

export interface ReplayFlags {
  json?: boolean;
  check?: boolean;
}

/** Exit status: 0 fine, 1 a verdict differs (--check), 2 the recording cannot be read. */
export async function replayCommand(file: string, flags: ReplayFlags, out: Output): Promise<number> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    out.error(printable(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message}`));
    return 2;
  }
  let result;
  try {
    result = await replay(parseRecording(text, file));
  } catch (error) {
    if (error instanceof RecordingError) {
      out.error(`${printable(error.message)}\nnothing was replayed: a recording with a bad line is not a timeline.`);
      return 2;
    }
    throw error;
  }

  for (const row of result.verdicts) out.line(flags.json ? JSON.stringify(row) : formatRow(row));
  for (const problem of result.problems) out.error(`note: ${printable(problem)}`);
  if (result.truncated) out.error('note: truncated recording (belltower did not finish writing it)');
  if (!flags.check) return 0;

  if (result.difference) {
    const { index, recorded, replayed } = result.difference;
    out.error(`verdict ${index + 1} differs from the recording:`);
    out.error(`  recorded: ${recorded ? JSON.stringify(recorded) : '(none)'}`);
    out.error(`  replayed: ${replayed ? JSON.stringify(replayed) : '(none)'}`);
    return 1;
  }
  if (result.oscDifference) {
    const { index, recorded, derived } = result.oscDifference;
    out.error(`OSC ${index + 1} derived from the output differs from the recorded one:`);
    out.error(`  recorded: ${JSON.stringify(recorded)}`);
    out.error(`  derived:  ${JSON.stringify(derived)}`);
    return 1;
  }
  const n = result.truncated ? result.recorded.length : result.verdicts.length;
  const verdicts = `${n} verdict${n === 1 ? '' : 's'}`;
  out.error(result.truncated ? `check passed: the ${verdicts} the recording holds match; what came after it was cut short is not compared` : `check passed: ${verdicts} match the recording`);
  return 0;
}

/** One verdict for people: the reason is text from the agent, shown through printable(). */
function formatRow(row: VerdictRow): string {
  const time = `${(row.t / 1000).toFixed(3)}s`.padStart(10);
  const to = row.kind ? `${row.to} (${row.kind})` : row.to;
  return `${time}  ${row.from.padEnd(8)} → ${printable(to).padEnd(20)} ${row.source.padEnd(10)} ${printable(row.reason)}`;
}
