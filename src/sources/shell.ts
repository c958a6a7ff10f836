/**
 * Shell source: OSC 133 prompt marks (FinalTerm's "semantic prompts", as kitty, WezTerm, iTerm2
 * and fish 4 print them, and as belltower's own shell integration does) and OSC 7, the folder the
 * shell is in. Any program may print them; the profile decides whether a tile listens.
 *
 *   ESC ] 133 ; A [; options] ST                      a prompt is shown        → at rest
 *   ESC ] 133 ; C [; cmdline=… | cmdline_url=…] ST    a command starts         → command-start
 *   ESC ] 133 ; D [; status] [; options] ST           the command has ended    → command-end
 *   ESC ] 7 ; file://host/path ST                     the working folder       (not a signal)
 *
 * B (input begins), a secondary prompt (`A;k=s`) and marks this file does not know say nothing
 * about what runs. A malformed mark is no signal and a reason, never a guess.
 */
import { printableLine } from '../platform/printable.js';
import type { SourceSignal } from '../verdict/signals.js';

export const PROMPT_MARK_OSC_CODE = 133;
export const FOLDER_OSC_CODE = 7;

/** Longest command line kept from a C mark, and longest shown in a reason. */
const MAX_COMMAND_INPUT = 4096;
const MAX_COMMAND_SHOWN = 200;
const MAX_FOLDER = 4096;

export type PromptMark =
  | { mark: 'prompt' }
  | { mark: 'command'; command?: string }
  | { mark: 'end'; code: number | null }
  | { mark: 'other' };

/** Parse one OSC 133 payload (what follows `133;`). */
export function parsePromptMark(payload: string): { ok: true; mark: PromptMark } | { ok: false; reason: string } {
  const [letter = '', ...fields] = payload.split(';');
  switch (letter) {
    case 'A':
      // A secondary prompt (a continuation line) is still the same command line being typed.
      return { ok: true, mark: fields.includes('k=s') ? { mark: 'other' } : { mark: 'prompt' } };
    case 'C': {
      // The command line runs to the end of the payload: a quoted `;` is part of it.
      const command = commandLine(fields.join(';'));
      return { ok: true, mark: command === undefined ? { mark: 'command' } : { mark: 'command', command } };
    }
    case 'D': {
      const status = fields[0];
      if (status === undefined || status === '' || status.includes('=')) return { ok: true, mark: { mark: 'end', code: null } };
      if (!/^-?\d{1,10}$/.test(status)) return { ok: false, reason: `OSC 133 D: exit status "${printableLine(status, 40)}" is not a number` };
      return { ok: true, mark: { mark: 'end', code: Number(status) } };
    }
    case '':
      return { ok: false, reason: 'OSC 133: empty mark' };
    default:
      return { ok: true, mark: { mark: 'other' } };
  }
}

export function promptMarkSignals(mark: PromptMark): SourceSignal[] {
  switch (mark.mark) {
    case 'prompt':
      return [{ type: 'at-rest', source: 'shell', detail: 'at the prompt' }];
    case 'command':
      return [{ type: 'command-start', source: 'shell', ...(mark.command === undefined ? {} : { command: mark.command }) }];
    case 'end':
      return [{ type: 'command-end', source: 'shell', code: mark.code }];
    case 'other':
      return [];
  }
}

/**
 * What a recording keeps of an OSC 133 mark: the mark and an exit status, never the command line
 * (it is the user's text). The kept form means the same to `shellSignals`, but for the command's
 * words in a reason.
 */
export function promptMarkForRecording(payload: string): string {
  const parsed = parsePromptMark(payload);
  if (!parsed.ok) return '';
  switch (parsed.mark.mark) {
    case 'prompt':
      return 'A';
    case 'command':
      return 'C';
    case 'end':
      return parsed.mark.code === null ? 'D' : `D;${parsed.mark.code}`;
    case 'other':
      return payload.startsWith('A') ? 'A;k=s' : 'B';
  }
}

/** Parse and map in one step; a malformed payload yields no signal and the reason. */
export function shellSignals(payload: string): { signals: SourceSignal[]; error?: string } {
  const parsed = parsePromptMark(payload);
  return parsed.ok ? { signals: promptMarkSignals(parsed.mark) } : { signals: [], error: parsed.reason };
}

/** The folder an OSC 7 payload names (`file://host/path`, percent-encoded; kitty's
 * `kitty-shell-cwd://host/path` is not encoded), or null when it names none. */
export function parseFolder(payload: string): string | null {
  if (payload.length > MAX_FOLDER) return null;
  const match = /^(file|kitty-shell-cwd):\/\/[^/]*(\/.*)$/.exec(payload);
  if (!match?.[2]) return null;
  const path = match[1] === 'file' ? percentDecode(match[2]) : match[2];
  return path === null || path.includes('\0') ? null : path;
}

/** The command line a C mark carries, as one printable line for a reason; undefined without one. */
function commandLine(rest: string): string | undefined {
  if (rest.length > MAX_COMMAND_INPUT) return undefined;
  let text: string | null = null;
  if (rest.startsWith('cmdline_url=')) text = percentDecode(rest.slice('cmdline_url='.length));
  else if (rest.startsWith('cmdline=')) text = unquoteShell(rest.slice('cmdline='.length));
  if (text === null) return undefined;
  const lines = text.trim().split('\n');
  const shown = printableLine((lines[0] ?? '').trim(), MAX_COMMAND_SHOWN);
  if (shown === '') return undefined;
  return lines.length > 1 ? `${shown} …` : shown;
}

function percentDecode(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}

const ANSI_C: Record<string, number> = { a: 7, b: 8, e: 27, E: 27, f: 12, n: 10, r: 13, t: 9, v: 11, '\\': 92, "'": 39, '"': 34, '?': 63 };

/**
 * Undo the quoting of bash's and zsh's `printf %q` (how kitty's integration sends `cmdline=`):
 * backslash escapes, '…', "…" and $'…' with its C escapes. Bytes given as octal or hex escapes
 * are read as UTF-8, as the shell wrote them.
 */
export function unquoteShell(text: string): string {
  const bytes: number[] = [];
  const encoder = new TextEncoder();
  const add = (s: string) => bytes.push(...encoder.encode(s));
  let i = 0;
  while (i < text.length) {
    const c = text[i] as string;
    if (c === '\\') {
      add(text[i + 1] ?? '');
      i += 2;
    } else if (c === "'") {
      const end = text.indexOf("'", i + 1);
      add(end < 0 ? text.slice(i + 1) : text.slice(i + 1, end));
      i = end < 0 ? text.length : end + 1;
    } else if (c === '"') {
      i++;
      while (i < text.length && text[i] !== '"') {
        if (text[i] === '\\' && i + 1 < text.length && '"\\$`'.includes(text[i + 1] as string)) i++;
        add(text[i] as string);
        i++;
      }
      i++;
    } else if (c === '$' && text[i + 1] === "'") {
      i += 2;
      while (i < text.length && text[i] !== "'") {
        if (text[i] !== '\\') {
          add(text[i] as string);
          i++;
          continue;
        }
        const e = text[i + 1] ?? '';
        const oct = /^[0-7]{1,3}/.exec(text.slice(i + 1, i + 4));
        const hex = /^x([0-9a-fA-F]{1,2})/.exec(text.slice(i + 1, i + 4));
        const uni = /^(?:u([0-9a-fA-F]{1,4})|U([0-9a-fA-F]{1,8}))/.exec(text.slice(i + 1, i + 10));
        if (oct) {
          bytes.push(parseInt(oct[0], 8) & 0xff);
          i += 1 + oct[0].length;
        } else if (hex?.[1]) {
          bytes.push(parseInt(hex[1], 16));
          i += 1 + hex[0].length;
        } else if (uni) {
          const point = parseInt(uni[1] ?? uni[2] ?? '0', 16);
          add(point <= 0x10ffff ? String.fromCodePoint(point) : '\ufffd');
          i += 1 + uni[0].length;
        } else if (e === 'c' && i + 2 < text.length) {
          bytes.push((text.charCodeAt(i + 2) & 0x1f) as number);
          i += 3;
        } else {
          const known = ANSI_C[e];
          if (known === undefined) add(`\\${e}`);
          else bytes.push(known);
          i += 2;
        }
      }
      i++;
    } else {
      add(c);
      i++;
    }
  }
  return new TextDecoder().decode(new Uint8Array(bytes));
}
