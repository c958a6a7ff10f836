import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ClaudeTranscriptSource } from '../../src/sources/transcript/claude-transcript-source.js';
import type { SourceSignal } from '../../src/verdict/signals.js';
import { r } from './claude-records.js';
import { waitFor } from './wait-for.js';

const line = (value: unknown) => `${JSON.stringify(value)}\n`;

describe('ClaudeTranscriptSource (a real file, appended live)', () => {
  let root: string;
  let source: ClaudeTranscriptSource | undefined;
  let signals: SourceSignal[];
  let raw: unknown[];

  beforeEach(() => {
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'bt-cts-')));
    signals = [];
    raw = [];
  });
  afterEach(async () => {
    await source?.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  const open = (file: string, quietMs = 2_000) => {
    source = new ClaudeTranscriptSource({ path: file, quietMs, onSignals: (s) => signals.push(...s), onRecord: (rec) => raw.push(rec) });
    return source;
  };

  it('follows a turn as Claude writes it, the turn-end coming from the marker', async () => {
    const file = path.join(root, 'projects', '-work-app', 's.jsonl');
    open(file);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, line(r.prompt));
    await waitFor(() => signals.length === 1);
    for (const rec of [r.toolUse, r.toolResult, r.endTurn, r.stopHookAttachment, r.stopHookSummary, r.turnDuration, r.fileHistory]) {
      fs.appendFileSync(file, line(rec));
    }
    await waitFor(() => raw.length === 8);
    expect(signals.map((s) => s.type)).toEqual(['turn-start', 'working', 'working', 'turn-end']);
  });

  it('settles an end_turn after a quiet spell when the transcript writes no markers', async () => {
    const file = path.join(root, 'old.jsonl');
    fs.writeFileSync(file, line(r.prompt) + line(r.endTurn));
    open(file, 80);
    await waitFor(() => signals.some((s) => s.type === 'turn-end'), { what: 'quiet turn-end' });
    expect(signals.map((s) => s.type)).toEqual(['turn-start', 'turn-end']);
  });

  it('starts a fresh reading on the file /clear switches to', async () => {
    const first = path.join(root, 'a.jsonl');
    const second = path.join(root, 'b.jsonl');
    fs.writeFileSync(first, line(r.prompt) + line(r.endTurn) + line(r.turnDuration));
    const s = open(first, 80);
    await waitFor(() => signals.length === 2);
    s.switchTo(second);
    fs.writeFileSync(second, line(r.prompt) + line(r.endTurn)); // without markers in this file: quiet settles it
    await waitFor(() => signals.length === 4, { what: 'second file turn-end' });
    expect(signals.map((x) => x.type)).toEqual(['turn-start', 'turn-end', 'turn-start', 'turn-end']);
  });
});
