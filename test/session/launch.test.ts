import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { childEnv } from '../../src/session/child-env.js';
import { helperFailure, launchProblem } from '../../src/session/launch-check.js';

const dir = mkdtempSync(path.join(tmpdir(), 'belltower-launch-'));
writeFileSync(path.join(dir, 'not-exec.sh'), 'echo hi\n');
writeFileSync(path.join(dir, 'exec.sh'), '#!/bin/sh\necho hi\n');
chmodSync(path.join(dir, 'exec.sh'), 0o755);
const env = { PATH: process.env.PATH };

describe('childEnv', () => {
  it('drops multiplexer and size variables, sets TERM, keeps the rest', () => {
    const out = childEnv({ TMUX: '/tmp/tmux-0/default,1,0', TMUX_PANE: '%1', COLUMNS: '80', LINES: '24', TERM: 'screen', HOME: '/h', X: undefined });
    expect(out).toEqual({ HOME: '/h', TERM: 'xterm-256color' });
  });
});

describe('launchProblem', () => {
  it('accepts commands on PATH and executable paths', () => {
    expect(launchProblem('sh', dir, env)).toBeUndefined();
    expect(launchProblem('./exec.sh', dir, env)).toBeUndefined();
    expect(launchProblem(path.join(dir, 'exec.sh'), '/', env)).toBeUndefined();
  });

  it('words what is wrong', () => {
    expect(launchProblem('no-such-binary', dir, env)).toBe('command not found: no-such-binary');
    expect(launchProblem('./nope', dir, env)).toBe('command not found: ./nope (no such file)');
    expect(launchProblem('./not-exec.sh', dir, env)).toMatch(/^permission denied: .*not-exec\.sh is not executable/);
    expect(launchProblem('not-exec.sh', dir, { PATH: dir })).toMatch(/^permission denied: /);
    expect(launchProblem('sh', path.join(dir, 'missing'), env)).toBe(`working directory not found: ${path.join(dir, 'missing')}`);
    expect(launchProblem(dir, '/', env)).toBe(`cannot run ${dir}: it is a directory`);
    expect(launchProblem('', dir, env)).toBe('no command given');
  });
});

describe('helperFailure', () => {
  it("turns node-pty's perror lines into messages", () => {
    expect(helperFailure('execvp(3) failed.: No such file or directory\r\n', './x')).toBe(
      'cannot start ./x: No such file or directory (is the interpreter on its #! line installed?)',
    );
    expect(helperFailure('execvp(3) failed.: Permission denied\r\n', 'x')).toBe('cannot start x: Permission denied');
    expect(helperFailure('chdir(2) failed.: No such file or directory\r\n', 'x')).toBe(
      'cannot enter the working directory: No such file or directory',
    );
    expect(helperFailure('hello', 'x')).toBeUndefined();
  });
});
