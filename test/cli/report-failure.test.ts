import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { refusalMessage, reportFailure } from '../../src/cli/refusal.js';
import { PrivateDirError } from '../../src/platform/private-dir.js';
import { RecordingError } from '../../src/record/format.js';
import { TimingError } from '../../src/verdict/timing.js';

describe('how a failure is reported', () => {
  let dir = '';
  let errors: string[] = [];
  const out = { line: () => {}, error: (text: string) => errors.push(text) };
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bt-report-'));
    errors = [];
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('a refusal is one line and exit 2, nothing logged', () => {
    const log = path.join(dir, 'log', 'belltower.log');
    for (const error of [new PrivateDirError('/tmp/x belongs to uid 4242'), new TimingError('bad'), new RecordingError('r.jsonl', 3, 'not JSON'), Object.assign(new Error("EACCES: permission denied, mkdir '/x'"), { code: 'EACCES' })]) {
      expect(reportFailure(error, out, log)).toBe(2);
    }
    expect(errors).toEqual(['belltower: /tmp/x belongs to uid 4242', 'belltower: bad', 'belltower: r.jsonl:3: not JSON', "belltower: EACCES: permission denied, mkdir '/x'"]);
    expect(fs.existsSync(log)).toBe(false);
  });

  it('a crash writes its stack to the log and prints one line pointing there', () => {
    const log = path.join(dir, 'log', 'belltower.log');
    const crash = new TypeError('cannot read properties of undefined\n  (more)');
    expect(reportFailure(crash, out, log)).toBe(1);
    expect(errors).toEqual([`belltower: unexpected error: cannot read properties of undefined (the details are in ${log})`]);
    const logged = JSON.parse(fs.readFileSync(log, 'utf8').trim()) as { level: string; data: { stack: string } };
    expect(logged.level).toBe('error');
    expect(logged.data.stack).toContain('at ');
    expect(refusalMessage(crash)).toBeNull();
  });

  it('an error message from a file or an agent is shown safely', () => {
    reportFailure(new RecordingError('evil\x1b]0;x\x07.jsonl', 1, 'bad'), out, null);
    expect(errors[0]).toBe('belltower: evil\\x1b]0;x\\x07.jsonl:1: bad');
  });
});
