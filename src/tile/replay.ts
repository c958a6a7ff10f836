/**
 * Replay: feed a recording back through the same screen, sources and engine as live, and compare
 * the verdicts with the recorded ones. A recording with pty lines goes through a fresh headless
 * screen of the header's size, so title, OSC 7501 and banner detection run again on the bytes.
 */
import { profileFor } from '../agents/registry.js';
import { Screen } from '../session/screen.js';
import { createBannerReader } from './banner-reader.js';
import { createLoginReader } from './login-reader.js';
import { TilePipeline } from './tile-pipeline.js';
import { resolveTiming } from '../verdict/timing.js';
import type { ParsedRecording, RecordingLine, VerdictLine } from '../record/format.js';
import { verdictRow } from '../record/verdict-row.js';
import type { VerdictRow } from '../record/verdict-row.js';

export type { VerdictRow } from '../record/verdict-row.js';

export interface Difference {
  index: number;
  recorded: VerdictRow | null;
  replayed: VerdictRow | null;
}

export interface ReplayResult {
  verdicts: VerdictRow[];
  recorded: VerdictRow[];
  /** The first verdict that differs from the recording, if any. */
  difference: Difference | null;
  /** With pty lines: the first derived OSC that differs from the recorded one, if any. */
  oscDifference: { index: number; recorded: string | null; derived: string | null } | null;
  problems: string[];
  /** A version 2 recording without its end line: belltower did not finish writing it. The
   * comparison then covers only the verdicts it holds. */
  truncated: boolean;
}

export async function replay(recording: ParsedRecording, options: { tile?: number } = {}): Promise<ReplayResult> {
  const { header, lines } = recording;
  const tile = options.tile ?? 1;
  const name = header.name ?? header.agent;
  const profile = profileFor(header.agent);
  const hasPty = lines.some((line) => line.type === 'pty');
  const verdicts: VerdictRow[] = [];
  const problems: string[] = [];
  const derivedOscs: string[] = [];

  const screen = hasPty
    ? new Screen({ cols: header.cols, rows: header.rows, answerPspQuery: header.psp ?? profile.answerPsp, onReply: () => {} })
    : null;
  const epoch = Date.parse(header.startedAt);
  const pipeline = new TilePipeline({
    ...(Number.isFinite(epoch) ? { epoch } : {}),
    profile,
    timing: resolveTiming(header.timing ?? {}),
    promptsFromHooks: profile.promptsFromHooks && header.hooks !== false,
    remote: header.remote !== undefined,
    screenDerived: hasPty,
    ...(header.restored ? { restored: header.restored } : {}),
    ...(screen ? { readBanners: createBannerReader(screen) } : {}),
    ...(screen && header.remote !== undefined ? { readLogin: createLoginReader(screen) } : {}),
    onProblem: (problem) => problems.push(problem),
    onEffects: (effects) => {
      for (const effect of effects) {
        if (effect.type !== 'verdict') continue;
        verdicts.push(verdictRow(tile, name, effect.from, effect.verdict));
      }
    },
  });
  screen?.onOsc((code, payload) => {
    derivedOscs.push(`${code};${payload}`);
    pipeline.oscParsed(code, payload);
  });

  let end = 0;
  try {
    for (const line of lines) {
      end = Math.max(end, line.t);
      await feed(line, pipeline, screen);
    }
    // Wake-ups the live run delivered before it stopped (a done released after the last evidence).
    pipeline.wake(end);
  } finally {
    screen?.dispose();
  }

  const recorded = lines.filter((line): line is VerdictLine => line.type === 'verdict').map((line) => toRow(line, tile, name));
  const recordedOscs = lines.flatMap((line) => (line.type === 'osc' ? [`${line.code};${line.payload}`] : []));
  // Cut short, the recording may lack what its last evidence led to: compare what it holds.
  const truncated = recording.ended === false;
  return {
    verdicts,
    recorded,
    difference: firstDifference(recorded, truncated ? verdicts.slice(0, recorded.length) : verdicts),
    oscDifference: hasPty ? firstOscDifference(recordedOscs, truncated ? derivedOscs.slice(0, recordedOscs.length) : derivedOscs) : null,
    problems,
    truncated,
  };
}

async function feed(line: RecordingLine, pipeline: TilePipeline, screen: Screen | null): Promise<void> {
  switch (line.type) {
    case 'verdict':
    case 'end':
      return;
    case 'pty':
      if (!screen) return;
      pipeline.ptyReceived(line.data, line.t);
      await new Promise<void>((resolve) =>
        screen.write(line.data, () => {
          pipeline.ptyParsed();
          resolve();
        }),
      );
      return;
    case 'resize':
      screen?.resize(line.cols, line.rows);
      pipeline.ingest({ type: 'resize', cols: line.cols, rows: line.rows }, line.t);
      return;
    default: {
      const { t, seq: _seq, ...evidence } = line;
      pipeline.ingest(evidence, t);
    }
  }
}

function toRow(line: VerdictLine, tile: number, name: string): VerdictRow {
  return verdictRow(tile, name, line.from, { since: line.t, state: line.to, source: line.source, reason: line.reason, ...(line.kind ? { kind: line.kind } : {}) });
}

/** Verdicts match on time, states, kind and source; the reason is prose and may be reworded. */
function same(a: VerdictRow, b: VerdictRow): boolean {
  return a.t === b.t && a.from === b.from && a.to === b.to && a.source === b.source && (a.kind ?? null) === (b.kind ?? null);
}

function firstDifference(recorded: VerdictRow[], replayed: VerdictRow[]): Difference | null {
  const n = Math.max(recorded.length, replayed.length);
  for (let i = 0; i < n; i++) {
    const r = recorded[i] ?? null;
    const p = replayed[i] ?? null;
    if (!r || !p || !same(r, p)) return { index: i, recorded: r, replayed: p };
  }
  return null;
}

function firstOscDifference(recorded: string[], derived: string[]): ReplayResult['oscDifference'] {
  const n = Math.max(recorded.length, derived.length);
  for (let i = 0; i < n; i++) {
    if (recorded[i] !== derived[i]) return { index: i, recorded: recorded[i] ?? null, derived: derived[i] ?? null };
  }
  return null;
}
