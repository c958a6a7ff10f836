/**
 * Where a recording is written, against a second local user who can write the --record folder or
 * plant files in it: never through a planted symlink, never into a file someone else made, always
 * a new 0600 file.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PrivateDirError } from '../../src/platform/private-dir.js';
import { Recorder } from '../../src/record/recorder.js';
import { NOT_ROOT_REASON, OTHER_GID, OTHER_UID, isRoot, plantDir } from '../support/other-user.js';

const header = { agent: 'shell', cols: 80, rows: 24, startedAt: '2026-11-30T09:39:44.000Z' };

describe.skipIf(process.platform === 'win32')('recording files', () => {
  let dir = '';
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bt-recfiles-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('never writes through a symlink planted under the recording name; the recording gets the next free name', () => {
    const victim = path.join(dir, 'victim.txt');
    fs.writeFileSync(victim, 'precious');
    const wanted = path.join(dir, 'rec', 'r.jsonl');
    fs.mkdirSync(path.dirname(wanted), { mode: 0o700 });
    fs.symlinkSync(victim, wanted);
    const recorder = new Recorder(wanted, header);
    recorder.close();
    expect(fs.readFileSync(victim, 'utf8')).toBe('precious');
    expect(recorder.path).toBe(path.join(dir, 'rec', 'r-2.jsonl'));
    expect(fs.readFileSync(recorder.path, 'utf8')).toMatch(/^\{"type":"header"/);
    expect(fs.statSync(recorder.path).mode & 0o777).toBe(0o600);
  });

  it('never reuses a file that already has the name', () => {
    const wanted = path.join(dir, 'r.jsonl');
    fs.writeFileSync(wanted, 'already here\n', { mode: 0o666 });
    const recorder = new Recorder(wanted, header);
    recorder.close();
    expect(fs.readFileSync(wanted, 'utf8')).toBe('already here\n');
    expect(recorder.path).toBe(path.join(dir, 'r-2.jsonl'));
  });

  it('refuses a folder others can write, unless it is sticky and yours', () => {
    const open = path.join(dir, 'open');
    fs.mkdirSync(open);
    fs.chmodSync(open, 0o777);
    expect(() => new Recorder(path.join(open, 'r.jsonl'), header)).toThrow(PrivateDirError);
    expect(fs.readdirSync(open)).toEqual([]);
    fs.chmodSync(open, 0o1777);
    new Recorder(path.join(open, 'r.jsonl'), header).close();
    expect(fs.readdirSync(open)).toEqual(['r.jsonl']);
  });

  it.skipIf(!isRoot)(`refuses a folder another user owns, and leaves their file alone (${NOT_ROOT_REASON})`, () => {
    const theirs = plantDir(path.join(dir, 'theirs'), 0o1777);
    expect(() => new Recorder(path.join(theirs, 'r.jsonl'), header)).toThrow(/belongs to uid 4242/);
    const mine = path.join(dir, 'mine');
    fs.mkdirSync(mine, { mode: 0o1777 });
    fs.chmodSync(mine, 0o1777);
    const planted = path.join(mine, 'r.jsonl');
    fs.writeFileSync(planted, 'theirs\n');
    fs.chownSync(planted, OTHER_UID, OTHER_GID);
    const recorder = new Recorder(planted, header);
    recorder.close();
    expect(fs.readFileSync(planted, 'utf8')).toBe('theirs\n');
    expect(recorder.path).not.toBe(planted);
  });
});
