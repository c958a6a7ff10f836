import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fileLogger } from '../../src/platform/file-logger.js';

describe('the log file', () => {
  let dir = '';
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bt-log-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('is bounded: past its cap it moves to .1 and starts again, so at most twice the cap is on disk', () => {
    const file = path.join(dir, 'log', 'belltower.log');
    const log = fileLogger(file, { maxBytes: 16 * 1024 });
    for (let i = 0; i < 20_000; i++) log('info', 'hook server: refused a request', { i });
    expect(fs.statSync(file).size).toBeLessThanOrEqual(16 * 1024);
    expect(fs.statSync(`${file}.1`).size).toBeLessThanOrEqual(16 * 1024);
    expect(fs.readdirSync(path.dirname(file)).sort()).toEqual(['belltower.log', 'belltower.log.1']);
    expect(fs.readFileSync(file, 'utf8').trimEnd().split('\n').at(-1)).toMatch(/"i":19999/);
    expect(fs.statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  });

  it('never writes through a symlink at the log path', () => {
    const victim = path.join(dir, 'victim');
    fs.writeFileSync(victim, 'keep');
    fs.mkdirSync(path.join(dir, 'log'), { mode: 0o700 });
    fs.symlinkSync(victim, path.join(dir, 'log', 'belltower.log'));
    fileLogger(path.join(dir, 'log', 'belltower.log'))('info', 'hello');
    expect(fs.readFileSync(victim, 'utf8')).toBe('keep');
  });
});
