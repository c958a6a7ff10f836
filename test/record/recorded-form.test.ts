/**
 * What a recording keeps (docs/recording-format.md, "What a recording holds"): never the agents'
 * text — prompts, replies, the system prompt, titles, status messages — and still every verdict.
 * The real-agent fixtures hold their evidence as received (version 1): kept in the recorded form,
 * each must replay to the same verdicts, and hold none of that text.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { profileFor } from '../../src/agents/registry.js';
import { parseRecording, type RecordingLine } from '../../src/record/format.js';
import { recordedForm } from '../../src/record/recorded-form.js';
import { replay } from '../../src/tile/replay.js';
import { decodeBase64 } from '../../src/sources/psp.js';
import { TITLE_REQUEST } from '../../src/sources/hooks/codex-notify.js';

const root = join(import.meta.dirname, '..', '..', 'fixtures');

function recordings(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return recordings(path);
    return name.endsWith('.jsonl') ? [path] : [];
  });
}

/** A version 1 recording's text rewritten as belltower now records it: kept form, version 2, ended. */
function keptForm(text: string, file: string): string {
  const { header, lines } = parseRecording(text, file);
  const hasPty = lines.some((line) => line.type === 'pty');
  const keep = recordedForm(profileFor(header.agent), { rawOsc: hasPty });
  const last = lines.at(-1);
  const kept = lines.map((line) => {
    if (line.type === 'verdict' || line.type === 'end' || line.type === 'pty') return line;
    const { t, seq, ...evidence } = line;
    return { ...keep(evidence), t, seq } as RecordingLine;
  });
  // A version 2 recording already ends with its end line.
  const end = last?.type === 'end' ? [] : [{ type: 'end', t: last?.t ?? 0, seq: (last?.seq ?? 0) + 1 }];
  return [{ ...header, version: 2 }, ...kept, ...end].map((value) => JSON.stringify(value)).join('\n') + '\n';
}

/** Every string in a value, deeply. */
function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (typeof value === 'object' && value !== null) return Object.values(value).flatMap(strings);
  return [];
}

/** The free text a line carries as received: what must never be recorded. */
function freeText(line: RecordingLine): string[] {
  switch (line.type) {
    case 'hook': {
      const p = line.payload;
      // An error's first line is kept: it is the stop reason ("API Error: 400 …").
      const last = line.event === 'StopFailure' ? undefined : p.last_assistant_message;
      // A transcript path's folder names the user; its file name is kept (a recording already in
      // the kept form holds only that).
      const folder = typeof p.transcript_path === 'string' && p.transcript_path.includes('/') ? p.transcript_path.slice(0, p.transcript_path.lastIndexOf('/')) : undefined;
      return [p.prompt, last, p.message, p.cwd, folder, p.prompt_response, ...strings(p.background_tasks).filter((s) => s.includes(' '))].filter(
        (s): s is string => typeof s === 'string' && s.length > 24,
      );
    }
    case 'transcript':
      if ((line.record as { isApiErrorMessage?: unknown }).isApiErrorMessage === true) return [];
      return strings(line.record).filter((s) => s.length > 40 && !s.startsWith('toolu_'));
    case 'notify':
      // The title thread's marker (TITLE_REQUEST) is kept on purpose: it is belltower's words.
      return strings(line.payload).filter((s) => s.length > 40 && s !== TITLE_REQUEST);
    case 'osc': {
      // An error's text is its stop reason, which the StopFailure hook keeps (first line).
      if (line.code !== 7501 || line.payload.startsWith('state=error')) return [];
      return [...line.payload.matchAll(/(?:^|:)(?:msg|title)=([^:]*)/g)].map((m) => {
        const bytes = decodeBase64(m[1] ?? '');
        return typeof bytes === 'string' ? '' : new TextDecoder().decode(bytes);
      }).filter((s) => s.length > 8);
    }
    default:
      return [];
  }
}

describe('the recorded form', () => {
  const files = recordings(root);

  for (const file of files) {
    it(`keeps the verdicts of ${relative(root, file)}`, async () => {
      const original = readFileSync(file, 'utf8');
      const kept = keptForm(original, file);
      const recording = parseRecording(kept, file);
      expect(recording.ended).toBe(true);
      const result = await replay(recording);
      expect(result.difference).toBeNull();
      expect(result.oscDifference).toBeNull();
      expect(result.truncated).toBe(false);
      // None of the agents' text survives (the raw output is kept only under --capture-output).
      const text = parseRecording(original, file).lines.flatMap(freeText);
      // With the output captured, the OSCs parsed from it are kept as they are, like the output.
      const captured = recording.lines.some((line) => line.type === 'pty');
      const keptText = recording.lines
        .filter((line) => line.type !== 'pty' && line.type !== 'verdict' && !(captured && line.type === 'osc'))
        .map((line) => JSON.stringify(line))
        .join('\n');
      for (const secret of text) expect(keptText.includes(secret), `${secret.slice(0, 60)}… is recorded`).toBe(false);
    }, 60_000);
  }

  it('a Claude session with hooks keeps a fraction of its size, and not one prompt', () => {
    const file = join(root, 'claude-2.1.332', 'hooks-psp', 'background-shell.jsonl');
    const original = readFileSync(file, 'utf8');
    const kept = keptForm(original, file);
    const evidenceOnly = (text: string) => text.split('\n').filter((line) => !line.startsWith('{"type":"pty"')).join('\n');
    expect(evidenceOnly(kept).length).toBeLessThan(evidenceOnly(original).length / 2);
    expect(original).toContain('Sleep for six seconds in the background');
    expect(evidenceOnly(kept)).not.toContain('Sleep for six seconds');
    expect(kept).not.toMatch(/"transcript_path"|"cwd"|"command"|"description"/);
  });
});

describe('what each reader keeps', () => {
  it('titles keep their glyph, or the known title they are', () => {
    const claude = profileFor('claude').title!;
    const codex = profileFor('codex').title!;
    const gemini = profileFor('gemini').title!;
    expect(claude.forRecording('✳ Fix the login bug in auth.ts')).toBe('✳ ...');
    expect(codex.forRecording('fix the login bug | api')).toBe('...');
    expect(codex.forRecording('[ ! ] Action Required | api')).toBe('[ ! ] Action Required');
    expect(gemini.forRecording('✋  Action Required (api)')).toBe('✋ Action Required');
    expect(gemini.forRecording('   ')).toBe('');
    for (const [reader, title] of [[claude, '◐ secret'], [codex, '⠋ secret'], [codex, 'secret'], [gemini, '◇  Ready (secret)'], [gemini, '✋ x']] as const) {
      expect(reader.classify(reader.forRecording(title)).map((s) => s.type)).toEqual(reader.classify(title).map((s) => s.type));
    }
  });
});
