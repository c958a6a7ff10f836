/**
 * The real Claude Code 2.1.332 recordings under fixtures/claude-2.1.332/<config>/<scenario>.jsonl
 * (made by claude-headless.test.ts with BELLTOWER_UPDATE_FIXTURES=1), replayed through the same
 * screen, sources and engine as live, and held to the product's claims. Needs no claude binary.
 *
 * Each recording is one session: a scenario, then /exit. The claims:
 * - exactly one done per model turn, from the hooks with hooks, from OSC 7501 when it is answered
 *   (no hooks), from the title or the banner with neither;
 * - none during /clear or /compact, nor while a background shell runs;
 * - blocked (kind permission), not done, at a permission prompt;
 * - failed (a verdict edge to failed is a ring) for an API error, never done;
 * - exited with code 0 after /exit.
 *
 * A change to the engine or a source that changes a verdict changes the recorded timeline: the
 * fixtures are then made again from a live run (BELLTOWER_UPDATE_FIXTURES=1), never edited by hand.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseRecording } from '../../src/record/format.js';
import type { RecordingLine, VerdictLine } from '../../src/record/format.js';
import { replay } from '../../src/tile/replay.js';
import { resolveTiming, type Timing } from '../../src/verdict/timing.js';

const ROOT = join(import.meta.dirname, '..', '..', 'fixtures', 'claude-2.1.332');

interface FixtureConfig {
  name: string;
  hooks: boolean;
  psp: boolean;
  /**
   * Who may decide a done. With hooks, the Stop hook — unless a transcript record read after it
   * (the tool_result, written late) cancels its hold as newer evidence, and the next turn end
   * decides. Seen live after a tool call: Stop 3621, transcript tool_result 3622 → the hold is
   * cancelled, OSC 7501 done 3685 → done (psp) at 4435; or the transcript's turn_duration decides.
   */
  doneSources: string[];
}

const CONFIGS: FixtureConfig[] = [
  { name: 'hooks-psp', hooks: true, psp: true, doneSources: ['hook', 'psp', 'transcript'] },
  { name: 'hooks-nopsp', hooks: true, psp: false, doneSources: ['hook', 'transcript'] },
  { name: 'nohooks-psp', hooks: false, psp: true, doneSources: ['psp'] },
  { name: 'nohooks-nopsp', hooks: false, psp: false, doneSources: ['title', 'banner'] },
];

interface Fixture {
  /** The rules the recording was made (and is replayed) with. */
  timing: Timing;
  lines: RecordingLine[];
  verdicts: VerdictLine[];
  /** Prompts the user typed (the first is the scenario's prompt; later ones are Enters). */
  prompts: RecordingLine[];
  /** Slash commands (/compact, /clear, /exit). */
  commands: RecordingLine[];
}

const cache = new Map<string, Promise<Fixture>>();

/** Loads, replays (it must match the recording exactly) and indexes one fixture. */
function load(config: string, scenario: string): Promise<Fixture> {
  const file = join(ROOT, config, `${scenario}.jsonl`);
  let loaded = cache.get(file);
  if (!loaded) {
    loaded = (async () => {
      expect(existsSync(file), `${file} is missing: make it with BELLTOWER_UPDATE_FIXTURES=1 npx vitest run test/e2e/claude-headless.test.ts`).toBe(true);
      const recording = parseRecording(readFileSync(file, 'utf8'), file);
      expect(recording.header).toMatchObject({ agent: 'claude', agentVersion: '2.1.332' });
      const result = await replay(recording);
      expect(result.difference).toBeNull();
      expect(result.oscDifference).toBeNull();
      const lines = recording.lines;
      return {
        timing: resolveTiming(recording.header.timing ?? {}),
        lines,
        verdicts: lines.filter((l): l is VerdictLine => l.type === 'verdict'),
        prompts: lines.filter((l) => l.type === 'prompt' && !l.local),
        commands: lines.filter((l) => l.type === 'prompt' && l.local === true),
      };
    })();
    cache.set(file, loaded);
  }
  return loaded;
}

const between = <T extends RecordingLine>(lines: T[], from: RecordingLine | undefined, to?: RecordingLine) =>
  lines.filter((l) => (from === undefined || l.seq > from.seq) && (to === undefined || l.seq < to.seq));
const dones = (verdicts: VerdictLine[]) => verdicts.filter((v) => v.to === 'done');
const describeVerdicts = (verdicts: VerdictLine[]) => verdicts.map((v) => `${v.t} ${v.from}→${v.to} (${v.source}${v.kind ? `, ${v.kind}` : ''})`).join('\n');
const oscs = (f: Fixture, code: number, prefix: string) => f.lines.filter((l) => l.type === 'osc' && l.code === code && l.payload.startsWith(prefix));
const hooks = (f: Fixture, event: string) => f.lines.filter((l): l is Extract<RecordingLine, { type: 'hook' }> => l.type === 'hook' && l.event === event);
const firstPartyEvidence = (config: FixtureConfig) => config.hooks || config.psp;

describe.each(CONFIGS.map((c) => [c.name, c] as const))('real Claude Code 2.1.332 recordings: %s', (_name, config) => {
  it('the session set-up is in the header; every session ends exited with code 0 after /exit, without a done', async () => {
    for (const scenario of ['plain-turn', 'tool-call-4s', 'compact-clear', 'background-shell', 'permission-prompt', 'api-error']) {
      const f = await load(config.name, scenario);
      const exit = f.commands.at(-1);
      expect(f.verdicts.at(-1), scenario).toMatchObject({ to: 'exited', source: 'process' });
      expect(f.lines.filter((l) => l.type === 'exit'), scenario).toMatchObject([{ code: 0, signal: null }]);
      expect(dones(between(f.verdicts, exit)), scenario).toEqual([]);
    }
    const header = parseRecording(readFileSync(join(ROOT, config.name, 'plain-turn.jsonl'), 'utf8')).header;
    expect(header).toMatchObject({ hooks: config.hooks, psp: config.psp });
  });

  it('1. a plain prompt: working, then exactly one done, from the expected source', async () => {
    const f = await load(config.name, 'plain-turn');
    const turn = between(f.verdicts, f.prompts[0], f.commands[0]);
    expect(turn.map((v) => v.to), describeVerdicts(f.verdicts)).toEqual(['working', 'done']);
    expect(config.doneSources).toContain(turn[1]?.source);
  });

  it('2. a 4-second tool call: working throughout, one done at least 4 s after the prompt', async () => {
    const f = await load(config.name, 'tool-call-4s');
    const turn = between(f.verdicts, f.prompts[0], f.commands[0]);
    expect(turn.map((v) => v.to), describeVerdicts(f.verdicts)).toEqual(['working', 'done']);
    expect(config.doneSources).toContain(turn[1]?.source);
    expect(turn[1]!.t - f.prompts[0]!.t).toBeGreaterThanOrEqual(4_000);
  });

  it('3. /compact after a real turn, then /clear: the turn is done once, neither command is', async () => {
    const f = await load(config.name, 'compact-clear');
    const [compact, clear] = f.commands;
    expect(dones(between(f.verdicts, f.prompts[0], compact)), describeVerdicts(f.verdicts)).toHaveLength(1);
    expect(dones(between(f.verdicts, compact)), describeVerdicts(f.verdicts)).toEqual([]);
    // The evidence that would have read as a finished turn was there, and was not taken.
    if (config.hooks) {
      expect(hooks(f, 'PreCompact').length).toBe(1);
      expect(hooks(f, 'SessionStart').map((h) => h.payload.source)).toEqual(['startup', 'compact', 'clear']);
    }
    if (config.psp) expect(between(oscs(f, 7501, 'state=done'), compact, clear)).toHaveLength(1); // the compaction's own "done"
    // Title only: the title flashes busy → rest for each command, or not at all when the flash
    // falls between two renders (both seen): nothing to require, only that no done followed.
  });

  it('4. a background shell: no done while it runs; one after the follow-up turn', async () => {
    const f = await load(config.name, 'background-shell');
    const turn = between(f.verdicts, f.prompts[0], f.commands[0]);
    if (config.hooks) {
      // The first Stop declared the shell running; its end came back as a <task-notification> turn.
      expect(hooks(f, 'Stop')[0]?.payload.background_tasks).toMatchObject([{ type: 'shell', status: 'running' }]);
      const notification = hooks(f, 'UserPromptSubmit').find((h) => String(h.payload.prompt).startsWith('<task-notification>'));
      expect(notification).toBeDefined();
      expect(dones(between(f.verdicts, f.prompts[0], notification))).toEqual([]);
    }
    if (config.psp) {
      // OSC 7501: "working · 1 shell still running" and a child record, cleared when the shell ends.
      const cleared = oscs(f, 7501, 'state=clear:id=')[0];
      expect(cleared).toBeDefined();
      expect(dones(between(f.verdicts, f.prompts[0], cleared))).toEqual([]);
    }
    if (firstPartyEvidence(config)) {
      expect(turn.map((v) => v.to), describeVerdicts(f.verdicts)).toEqual(['working', 'done']);
      expect(config.doneSources).toContain(turn[1]?.source);
    } else {
      // The follow-up turn's done is its own end: after its last spinner frame (not the first
      // banner repainted without "· 1 shell still running" while the follow-up still ran).
      const lastSpinner = between(oscs(f, 0, '◐').concat(oscs(f, 0, '◑')), f.prompts[0], f.commands[0]).sort((a, b) => a.seq - b.seq).at(-1)!;
      expect(dones(turn).at(-1)!.seq).toBeGreaterThan(lastSpinner.seq);
    }
  });

  it('5. a permission prompt: blocked (permission), not done, until approved; then one done', async () => {
    const f = await load(config.name, 'permission-prompt');
    const [prompt, approval] = f.prompts; // the request, then the first Enter on the dialog
    const waiting = between(f.verdicts, prompt, approval);
    const after = between(f.verdicts, approval, f.commands[0]);
    expect(dones(after), describeVerdicts(f.verdicts)).toHaveLength(1);
    expect(config.doneSources).toContain(dones(after)[0]?.source);
    if (firstPartyEvidence(config)) {
      expect(waiting.find((v) => v.to === 'blocked')?.kind, describeVerdicts(f.verdicts)).toBe('permission');
      expect(dones(waiting)).toEqual([]);
    } else {
      expect(f.verdicts.map((v) => v.to)).not.toContain('blocked'); // a title never claims blocked
    }
    if (config.psp && !config.hooks) expect(waiting.at(-1)).toMatchObject({ to: 'blocked', kind: 'permission' });
  });

  it('7. an API error (HTTP 400): failed, never done', async () => {
    const f = await load(config.name, 'api-error');
    const turn = between(f.verdicts, f.prompts[0], f.commands[0]);
    if (firstPartyEvidence(config)) {
      expect(turn.map((v) => v.to), describeVerdicts(f.verdicts)).toContain('failed');
      expect(turn.at(-1)?.to).toBe('failed');
      expect(dones(turn)).toEqual([]);
    } else {
      expect(turn.map((v) => v.to)).not.toContain('failed'); // the title cannot know
    }
  });

  if (firstPartyEvidence(config)) {
    it('8. the next prompt 300 ms after each turn end: one done per turn, each before the next turn works', async () => {
      const f = await load(config.name, 'next-prompt-300ms');
      const turn = between(f.verdicts, f.prompts[0], f.commands[0]);
      const sequence = turn.map((v) => v.to).filter((to) => to === 'done' || to === 'working');
      expect(sequence, describeVerdicts(turn)).toEqual(['working', 'done', 'working', 'done', 'working', 'done']);
      // The first two dones came with the next prompt when it came inside the conflict window of
      // their turn end (300 ms after it, as recorded), else from the window's end, before the
      // prompt. Which rule applies is read from the recording's own times, not from how fast the
      // machine that made it was.
      const ends = config.hooks ? hooks(f, 'Stop') : oscs(f, 7501, 'state=done');
      for (const prompt of f.prompts.slice(1)) {
        const end = ends.filter((e) => e.seq < prompt.seq).at(-1)!;
        const done = dones(turn).find((v) => v.seq > end.seq)!;
        if (prompt.t - end.t < f.timing.conflictWindowMs) {
          expect(done.t, describeVerdicts(turn)).toBe(prompt.t);
        } else {
          expect(done.seq, describeVerdicts(turn)).toBeLessThan(prompt.seq);
          expect(done.t, describeVerdicts(turn)).toBeGreaterThanOrEqual(end.t + f.timing.conflictWindowMs);
        }
      }
    });
  }

  it('9. a prompt queued while Claude streams its answer', async () => {
    const f = await load(config.name, 'queued-prompt');
    const [, queued] = f.prompts;
    const all = between(f.verdicts, f.prompts[0], f.commands[0]);
    if (config.hooks) {
      // Its UserPromptSubmit fired mid-turn; the first turn's Stop (and banner) made no done.
      const [, queuedSubmit] = hooks(f, 'UserPromptSubmit');
      const [firstStop, secondStop] = hooks(f, 'Stop');
      expect(queuedSubmit!.seq).toBeGreaterThan(queued!.seq);
      expect(queuedSubmit!.seq).toBeLessThan(firstStop!.seq);
      expect(dones(between(f.verdicts, firstStop, secondStop)), describeVerdicts(all)).toEqual([]);
    }
    if (firstPartyEvidence(config)) {
      expect(all.map((v) => v.to), describeVerdicts(all)).toEqual(['working', 'done']);
    } else {
      // Title and banner alone: the first turn's banner is painted after the title spun again
      // for the queued turn; recorded, not claimed.
      expect(dones(all).length).toBeGreaterThanOrEqual(1);
    }
  });

  it('10. a submit is a slash command by what the prompt box held, not by what was sent last', async () => {
    const f = await load(config.name, 'slash-by-box');
    // "/tmp/belltower-x" after "please look at ": a real prompt and its one done; a bare Enter on
    // "/compact": a slash command, and no done after it.
    expect(f.prompts).toHaveLength(1);
    const [compact] = f.commands;
    expect(dones(between(f.verdicts, f.prompts[0], compact)), describeVerdicts(f.verdicts)).toHaveLength(1);
    expect(dones(between(f.verdicts, compact))).toEqual([]);
  });

  if (config.hooks) {
    // Claude's transcript is tailed beside the hooks and lands 5–100 ms after the hook for the same
    // moment (hooks-nopsp: PermissionRequest 1610, the prompt's transcript record 1670, its
    // tool_use 1675). With hooks those restatements decide nothing, so the dialog stays blocked.
    it('the tile stays blocked from the permission request until the user answers', async () => {
      const f = await load(config.name, 'permission-prompt');
      const [prompt, approval] = f.prompts;
      const waiting = between(f.verdicts, prompt, approval);
      const blocked = waiting.findIndex((v) => v.to === 'blocked');
      expect(waiting.slice(blocked + 1), describeVerdicts(waiting)).toEqual([]);
    });

    // The same lag after an API error (StopFailure, then the prompt's and the error's transcript
    // records): one edge to failed, one ring.
    it('an API error is one failed verdict (it rings once)', async () => {
      const f = await load(config.name, 'api-error');
      const turn = between(f.verdicts, f.prompts[0], f.commands[0]);
      expect(turn.filter((v) => v.to === 'failed'), describeVerdicts(turn)).toHaveLength(1);
    });
  }

  if (!firstPartyEvidence(config)) {
    // Title and banner only. Claude's title reads ✳ whenever its main loop stops — at a permission
    // dialog, after an API error, while a background shell runs — so a ✳ is a done only when a
    // banner confirms it, and a banner that says "· 1 shell still running" is none.
    it('no done while the background shell runs (its banner says "· 1 shell still running")', async () => {
      const f = await load(config.name, 'background-shell');
      expect(dones(between(f.verdicts, f.prompts[0], f.commands[0]))).toHaveLength(1);
    });

    it('no done at the permission prompt (title ✳ at the dialog, no banner)', async () => {
      const f = await load(config.name, 'permission-prompt');
      const [prompt, approval] = f.prompts;
      expect(dones(between(f.verdicts, prompt, approval))).toEqual([]);
    });

    it('an API error is never done (the title rests, no banner)', async () => {
      const f = await load(config.name, 'api-error');
      expect(dones(between(f.verdicts, f.prompts[0], f.commands[0]))).toEqual([]);
    });
  }
});
