/**
 * Evidence → signals for one tile, by its agent profile. Pure: the only state is the transcript
 * reader's, passed in and returned. Live and replay both call this, so a recording means the same
 * thing every time it is read.
 */
import type { AgentProfile } from '../agents/profile.js';
import type { Evidence } from '../record/format.js';
import { processSignals } from '../sources/process.js';
import { NOTIFICATION_OSC_CODES, notificationSignals, parseNotification } from '../sources/notification.js';
import { pspSignals } from '../sources/psp.js';
import { PROMPT_MARK_OSC_CODE, shellSignals } from '../sources/shell.js';
import type { SourceSignal } from '../verdict/signals.js';

export interface InterpreterState {
  transcript: unknown;
}

export interface Interpretation {
  state: InterpreterState;
  signals: SourceSignal[];
  /** Evidence that could not be read (a malformed OSC 7501): for the log and "why?". */
  problem?: string;
}

export function initialInterpreter(profile: AgentProfile): InterpreterState {
  return { transcript: profile.transcript?.initial() };
}

export function interpret(profile: AgentProfile, state: InterpreterState, evidence: Evidence): Interpretation {
  switch (evidence.type) {
    case 'osc':
      return { state, ...readOsc(profile, evidence.code, evidence.payload) };
    case 'banner':
      return { state, signals: profile.banner ? [{ type: 'banner', source: 'banner', text: evidence.text }] : [] };
    case 'login':
      // Judged by the engine: only a remote tile that is still logging in listens.
      return { state, signals: [{ type: 'login', source: 'ssh', prompt: evidence.prompt }] };
    case 'hook':
      return { state, signals: profile.hooks ? profile.hooks(evidence.event, evidence.payload) : [] };
    case 'transcript': {
      if (!profile.transcript) return { state, signals: [] };
      const read = profile.transcript.read(state.transcript, evidence.record);
      return { state: { ...state, transcript: read.state }, signals: read.signals };
    }
    case 'notify':
      return { state, signals: profile.notify ? profile.notify(evidence.payload) : [] };
    case 'prompt':
      return { state, signals: [{ type: 'prompt', source: 'user', ...(evidence.local ? { local: true } : {}) }] };
    case 'seen':
      return { state, signals: [{ type: 'seen', source: 'user' }] };
    case 'foreground':
      // Only a shell runs commands whose foreground means anything (the prompt marks say when).
      return { state, signals: profile.promptMarks ? [{ type: 'foreground', source: 'process', reading: evidence.reading, fullScreen: evidence.fullScreen }] : [] };
    case 'spawn':
      return { state, signals: processSignals({ kind: 'spawned' }) };
    case 'exit': {
      const { type: _type, ...exit } = evidence;
      return { state, signals: processSignals({ kind: 'exit', ...exit }) };
    }
    case 'pty':
    case 'resize':
      // Output goes through the screen, which reports its OSCs and banners as their own evidence.
      return { state, signals: [] };
  }
}

function readOsc(profile: AgentProfile, code: number, payload: string): { signals: SourceSignal[]; problem?: string } {
  if (code === 0 || code === 2) {
    return { signals: profile.title?.classify(payload) ?? [] };
  }
  if (NOTIFICATION_OSC_CODES.includes(code)) {
    const notification = parseNotification(code, payload);
    return { signals: notification ? notificationSignals(profile.notifications, notification) : [] };
  }
  if (code === 7501) {
    if (payload === '?') return { signals: [] };
    const read = pspSignals(payload);
    return read.error ? { signals: [], problem: `OSC 7501 ignored: ${read.error}` } : { signals: read.signals };
  }
  if (code === PROMPT_MARK_OSC_CODE) {
    if (!profile.promptMarks) return { signals: [] };
    const read = shellSignals(payload);
    return read.error ? { signals: [], problem: `OSC 133 ignored: ${read.error}` } : { signals: read.signals };
  }
  return { signals: [] };
}
