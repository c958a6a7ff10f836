import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseRecording, RecordingError } from '../../src/record/format.js';
import { Recorder } from '../../src/record/recorder.js';
import { replay } from '../../src/tile/replay.js';

const header = '{"type":"header","format":"belltower-recording","version":1,"agent":"claude","cols":120,"rows":40,"startedAt":"2026-11-30T09:39:44.000Z"}';

function errorOf(text: string): RecordingError {
  try {
    parseRecording(text, 'r.jsonl');
  } catch (error) {
    if (error instanceof RecordingError) return error;
    throw error;
  }
  throw new Error('parsed without an error');
}

describe('reading a recording', () => {
  it('names the line of malformed JSON', () => {
    const error = errorOf(`${header}\n{"type":"prompt","t":1,"seq":1}\n{"type":"hook",\n`);
    expect(error.line).toBe(3);
    expect(error.message).toMatch(/^r\.jsonl:3: not JSON/);
  });

  it('names the line of an unknown type', () => {
    const error = errorOf(`${header}\n{"type":"telepathy","t":1,"seq":1}\n`);
    expect(error.line).toBe(2);
    expect(error.message).toMatch(/unknown line type "telepathy"/);
  });

  it('names the field that is wrong', () => {
    const error = errorOf(`${header}\n{"type":"hook","t":1,"seq":1,"event":"Stop","payload":"not an object"}\n`);
    expect(error.message).toMatch(/r\.jsonl:2: bad hook line: payload/);
  });

  it('refuses sequence numbers that do not increase', () => {
    const error = errorOf(`${header}\n{"type":"prompt","t":1,"seq":2}\n{"type":"prompt","t":1,"seq":2}\n`);
    expect(error.line).toBe(3);
  });

  it('refuses a file without a header, and a newer format version', () => {
    expect(errorOf('{"type":"prompt","t":1,"seq":1}\n').message).toMatch(/first line must be the header/);
    expect(errorOf(header.replace('"version":1', '"version":3')).message).toMatch(/newer than this belltower reads/);
    expect(errorOf('').message).toMatch(/empty file/);
  });

  it('refuses sizes beyond the live bound in the header and in resize lines (replay grew to 12 GB on rows: 2^31)', () => {
    expect(errorOf(header.replace('"rows":40', `"rows":${2 ** 31}`)).message).toMatch(/^r\.jsonl:1: bad header: rows/);
    expect(errorOf(header.replace('"cols":120', `"cols":${2 ** 31}`)).message).toMatch(/^r\.jsonl:1: bad header: cols/);
    const huge = errorOf(`${header}\n{"type":"prompt","t":1,"seq":1}\n{"type":"resize","t":2,"seq":2,"cols":100000,"rows":100000}\n`);
    expect(huge.line).toBe(3);
    expect(huge.message).toMatch(/bad resize line: cols/);
    expect(errorOf(`${header}\n{"type":"resize","t":2,"seq":1,"cols":80,"rows":0}\n`).message).toMatch(/bad resize line: rows/);
    expect(parseRecording(`${header}\n{"type":"resize","t":2,"seq":1,"cols":1000,"rows":1000}\n`).lines).toHaveLength(1);
  });

  it('refuses a header whose timing settings live belltower would refuse, on line 1', () => {
    expect(errorOf(header.replace('}', ',"timing":{"conflictWindowMs":-1}}')).message).toMatch(/^r\.jsonl:1: bad header: timing setting "conflictWindowMs"/);
    expect(errorOf(header.replace('}', `,"timing":{"heldReleaseQuietMs":${2 ** 40}}}`)).message).toMatch(/^r\.jsonl:1: .*at most/);
    expect(errorOf(header.replace('}', ',"timing":{"nonsenseMs":5}}')).message).toMatch(/^r\.jsonl:1: .*unknown timing setting/);
  });

  it('accepts lines it does not need (pty, resize) and equal times', () => {
    const parsed = parseRecording(`${header}\n{"type":"resize","t":5,"seq":1,"cols":80,"rows":24}\n{"type":"prompt","t":5,"seq":2}\n`);
    expect(parsed.lines.map((l) => l.type)).toEqual(['resize', 'prompt']);
  });
});

describe('a plain command recording (agent "command")', () => {
  it('replays its start and its exit: working, then failed with the code', async () => {
    const command = header.replace('"agent":"claude"', '"agent":"command"');
    const parsed = parseRecording(
      `${command}\n{"type":"spawn","t":0,"seq":1}\n{"type":"exit","t":420000,"seq":2,"code":1,"signal":null,"remaining":2}\n`,
    );
    const result = await replay(parsed);
    expect(result.verdicts.map((v) => [v.t, v.to, v.reason])).toEqual([
      [0, 'working', 'running'],
      [420_000, 'failed', 'exited with code 1 · 2 processes still running'],
    ]);
  });

  it('an exit belltower caused is closed, never failed', async () => {
    const command = header.replace('"agent":"claude"', '"agent":"command"');
    const parsed = parseRecording(`${command}\n{"type":"spawn","t":0,"seq":1}\n{"type":"exit","t":900,"seq":2,"code":null,"signal":"SIGHUP","closed":true}\n`);
    expect((await replay(parsed)).verdicts.at(-1)).toMatchObject({ to: 'exited', reason: 'closed (killed by SIGHUP)' });
  });

  it('a recording of a remote tile replays ssh’s 255 as the connection lost, as it was live', async () => {
    const lines = `{"type":"spawn","t":0,"seq":1}\n{"type":"prompt","t":100,"seq":2}\n{"type":"exit","t":900,"seq":3,"code":255,"signal":null}\n`;
    const remote = header.replace('"agent":"claude"', '"agent":"claude","remote":"devbox"');
    expect((await replay(parseRecording(`${remote}\n${lines}`))).verdicts.at(-1)).toMatchObject({ to: 'exited', reason: 'connection lost (ssh exited 255)' });
    expect((await replay(parseRecording(`${header}\n${lines}`))).verdicts.at(-1)).toMatchObject({ to: 'exited', reason: 'exited with code 255' });
    expect(errorOf(header.replace('"agent":"claude"', '"agent":"claude","remote":7')).message).toMatch(/remote/);
  });
});

describe('the recorder', () => {
  let dir = '';
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('writes the version 2 format that replay reads back to the same verdicts, ending with an end line', async () => {
    dir = mkdtempSync(join(tmpdir(), 'belltower-rec-'));
    const path = join(dir, 'a', 'r.jsonl');
    const recorder = new Recorder(path, { agent: 'claude', agentVersion: '2.1.332', cols: 100, rows: 30, startedAt: '2026-11-30T09:39:44.000Z' });
    recorder.evidence({ type: 'pty', data: 'not captured' }, 1);
    recorder.evidence({ type: 'hook', event: 'UserPromptSubmit', payload: { session_id: 's', prompt: 'hi' } }, 1000);
    recorder.verdict({ from: 'starting', to: 'working', source: 'hook', reason: 'prompt submitted' }, 1000);
    recorder.evidence({ type: 'hook', event: 'Stop', payload: { session_id: 's', background_tasks: [] } }, 2000);
    recorder.verdict({ from: 'working', to: 'done', source: 'hook', reason: 'turn ended' }, 2750);
    recorder.end(3000);
    recorder.evidence({ type: 'seen' }, 3001); // after the end: not written

    const text = readFileSync(path, 'utf8');
    const lines = text.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines[0]).toEqual({ type: 'header', format: 'belltower-recording', version: 2, agent: 'claude', agentVersion: '2.1.332', cols: 100, rows: 30, startedAt: '2026-11-30T09:39:44.000Z' });
    expect(lines.slice(1).map((l) => [l.type, l.t, l.seq])).toEqual([
      ['hook', 1000, 1],
      ['verdict', 1000, 2],
      ['hook', 2000, 3],
      ['verdict', 2750, 4],
      ['end', 3000, 5],
    ]);
    const parsed = parseRecording(text);
    expect(parsed.ended).toBe(true);
    const result = await replay(parsed);
    expect(result.difference).toBeNull();
    expect(result.truncated).toBe(false);
  });

  it('records pty output only when capture is on', () => {
    dir = mkdtempSync(join(tmpdir(), 'belltower-rec-'));
    const path = join(dir, 'r.jsonl');
    const recorder = new Recorder(path, { agent: 'shell', cols: 80, rows: 24, startedAt: '2026-11-30T09:39:44.000Z' }, { captureOutput: true });
    recorder.evidence({ type: 'pty', data: 'hello\r\n' }, 3);
    recorder.close();
    expect(readFileSync(path, 'utf8')).toContain('{"type":"pty","t":3,"seq":1,"data":"hello\\r\\n"}');
  });
});

describe('replay --check', () => {
  it('reports the first verdict that differs, with both sides', async () => {
    const text = [
      header,
      '{"type":"hook","t":1000,"seq":1,"event":"UserPromptSubmit","payload":{"session_id":"s","prompt":"hi"}}',
      '{"type":"verdict","t":1000,"seq":2,"from":"starting","to":"working","source":"hook","reason":"prompt submitted"}',
      '{"type":"hook","t":2000,"seq":3,"event":"Stop","payload":{"session_id":"s","background_tasks":[]}}',
      '{"type":"verdict","t":2000,"seq":4,"from":"working","to":"done","source":"hook","reason":"a done without the conflict window"}',
      '{"type":"seen","t":5000,"seq":5}',
    ].join('\n');
    const result = await replay(parseRecording(text));
    expect(result.difference?.index).toBe(1);
    expect(result.difference?.recorded?.t).toBe(2000);
    expect(result.difference?.replayed?.t).toBe(2750);
  });
});

describe('a restored tile recording (header "restored")', () => {
  it('starts from the restored done: the resumed agent at rest keeps it, the user looking makes it idle', async () => {
    const restored = header.replace('}', ',"hooks":true,"restored":{"state":"done","reason":"turn ended","source":"hook","ended":false}}');
    const lines = [
      '{"type":"spawn","t":0,"seq":1}',
      '{"type":"osc","t":900,"seq":2,"code":7501,"payload":"state=idle:app=claude"}',
      '{"type":"seen","t":5000,"seq":3}',
    ];
    const result = await replay(parseRecording(`${restored}\n${lines.join('\n')}\n`));
    expect(result.verdicts.map((v) => [v.t, v.from, v.to, v.reason])).toEqual([[5000, 'done', 'idle', 'seen']]);
    // Without the header's restored verdict the same evidence is a plain start.
    const plain = await replay(parseRecording(`${header.replace('}', ',"hooks":true}')}\n${lines.join('\n')}\n`));
    expect(plain.verdicts.map((v) => [v.from, v.to])).toEqual([['starting', 'idle']]);
  });

  it('refuses a restored verdict that is not a done, failed or exited one', () => {
    const bad = header.replace('}', ',"restored":{"state":"blocked","reason":"x","source":"hook","ended":false}}');
    expect(errorOf(`${bad}\n`).message).toMatch(/^r\.jsonl:1: bad header: restored\.state: /);
  });
});
