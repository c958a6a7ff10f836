/**
 * What a real Claude Code session under belltower's injection delivered (fixtures recorded live
 * by claude-headless.test.ts): its hooks reached the server — SessionStart through the command
 * relay, the rest over HTTP — and its transcript was followed to the turn's end marker.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseRecording } from '../../src/record/format.js';

const dir = join(import.meta.dirname, '..', '..', 'fixtures', 'claude-2.1.332');

describe.each(['hooks-psp', 'hooks-nopsp'])('a real Claude session with hooks (%s)', (config) => {
  const { header, lines } = parseRecording(readFileSync(join(dir, config, 'plain-turn.jsonl'), 'utf8'));

  it('delivered SessionStart, UserPromptSubmit, Stop and SessionEnd, in that order', () => {
    expect(header.hooks).toBe(true);
    const events = lines.flatMap((line) => (line.type === 'hook' ? [line.event] : []));
    expect(events).toEqual(['SessionStart', 'UserPromptSubmit', 'Stop', 'SessionEnd']);
    const sessionIds = new Set(lines.flatMap((line) => (line.type === 'hook' ? [line.payload.session_id] : [])));
    expect(sessionIds.size).toBe(1);
  });

  it('was followed in its transcript to the turn_duration marker, after the Stop', () => {
    const stopAt = lines.findIndex((line) => line.type === 'hook' && line.event === 'Stop');
    const marker = lines.findIndex((line) => line.type === 'transcript' && (line.record as { subtype?: unknown }).subtype === 'turn_duration');
    expect(marker).toBeGreaterThan(stopAt);
    const stop = lines[stopAt];
    const transcriptPath = stop?.type === 'hook' ? stop.payload.transcript_path : undefined;
    const record = lines[marker];
    expect(record?.type === 'transcript' ? record.path : undefined).toBe(transcriptPath);
  });
});

describe.each(['2.1.62', '2.1.70'])('an older Claude Code (%s) under belltower', (version) => {
  const { header, lines } = parseRecording(readFileSync(join(dir, '..', `claude-${version}`, 'plain-turn.jsonl'), 'utf8'));

  it('took the hooks belltower registered for its version: no "Settings Error" dialog, the turn reported first-hand', () => {
    expect(header).toMatchObject({ agentVersion: version, hooks: true });
    const screen = lines.flatMap((line) => (line.type === 'pty' ? [line.data] : [])).join('');
    expect(screen).not.toContain('Settings Error');
    const events = lines.flatMap((line) => (line.type === 'hook' ? [line.event] : []));
    expect(events).toEqual(['SessionStart', 'UserPromptSubmit', 'Stop', 'SessionEnd']);
    expect(lines.filter((line) => line.type === 'verdict' && line.to === 'done').map((line) => (line.type === 'verdict' ? line.source : ''))).toEqual(['hook']);
  });
});
