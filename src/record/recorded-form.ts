/**
 * What a recording keeps of each piece of evidence (docs/recording-format.md, "What a recording
 * holds"). Recordings are meant to be shared as bug reports, and an agent's evidence carries the
 * whole conversation: its hooks the prompts and replies, its transcript those and the system
 * prompt, its title the first prompt, OSC 7501 the agent's own status text. So by default a
 * recording keeps only what the readers and the engine use — event names, ids, states, tool
 * names, stop reasons, lengths — each reader saying what that is of its own evidence
 * (`forRecording`), so that the kept form means exactly what the evidence meant.
 *
 * `--record-text` keeps the evidence as received. `--capture-output` records the output itself,
 * so the OSCs parsed from it are kept as they are too (replay derives them again and compares).
 */
import path from 'node:path';
import type { AgentProfile } from '../agents/profile.js';
import { pspForRecording, PSP_OSC_CODE } from '../sources/psp.js';
import { PROMPT_MARK_OSC_CODE, promptMarkForRecording } from '../sources/shell.js';
import type { Evidence } from './format.js';

export interface RecordedFormOptions {
  /** The output is recorded raw: OSCs parsed from it stay as they are. */
  rawOsc: boolean;
}

export function recordedForm(profile: AgentProfile, options: RecordedFormOptions): (evidence: Evidence) => Evidence {
  return (evidence) => {
    switch (evidence.type) {
      case 'osc':
        return options.rawOsc ? evidence : { ...evidence, payload: oscForRecording(profile, evidence.code, evidence.payload) };
      case 'hook':
        return { ...evidence, payload: profile.hooksForRecording?.(evidence.event, evidence.payload) ?? {} };
      case 'transcript':
        // The full path names the user and the project: the file's name is enough to tell files apart.
        return { ...evidence, path: path.basename(evidence.path), record: profile.transcript?.forRecording(evidence.record) ?? null };
      case 'notify':
        return { ...evidence, payload: profile.notifyForRecording?.(evidence.payload) ?? {} };
      default:
        return evidence;
    }
  };
}

function oscForRecording(profile: AgentProfile, code: number, payload: string): string {
  if (code === 0 || code === 2) return profile.title?.forRecording(payload) ?? '';
  if (code === PSP_OSC_CODE) return pspForRecording(payload);
  if (code === PROMPT_MARK_OSC_CODE) return promptMarkForRecording(payload);
  // Notifications (OSC 9, 777) are the agent's words, and OSC 7 names the user's folders: the
  // engine reads neither.
  return '';
}
