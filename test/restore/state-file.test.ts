/**
 * The state file: written whole or not at all (a kill -9 at any moment leaves the old file or
 * the new one), private, never read through a link or from a file that is not the user's own.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readStateFile, setAside, stateFilePath, writeStateFile } from '../../src/restore/state-file.js';

const repo = path.join(import.meta.dirname, '..', '..');
const built = path.join(repo, 'dist', 'restore', 'state-file.js');
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'belltower-state-'));
  dirs.push(dir);
  return dir;
}

describe('the workspace state file', () => {
  it('lives in a private folder, 0600, and reads back what was written', () => {
    const file = stateFilePath(tempDir(), 'api');
    writeStateFile(file, '{"a":1}');
    writeStateFile(file, '{"a":2}');
    expect(readStateFile(file)).toEqual({ kind: 'text', text: '{"a":2}' });
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    // No temporary file stays beside it.
    expect(fs.readdirSync(path.dirname(file))).toEqual(['api.json']);
    expect(readStateFile(stateFilePath(tempDir(), 'none'))).toEqual({ kind: 'absent' });
  });

  it('never reads through a symbolic link, nor a file others can read', () => {
    const dir = tempDir();
    const file = stateFilePath(dir, 'api');
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    const elsewhere = path.join(dir, 'elsewhere.json');
    fs.writeFileSync(elsewhere, '{}', { mode: 0o600 });
    fs.symlinkSync(elsewhere, file);
    const linked = readStateFile(file);
    expect(linked.kind).toBe('refused');
    expect(linked.kind === 'refused' && linked.error).toMatch(/symbolic link/);
    // Writing replaces the link itself: the file it pointed at is untouched.
    writeStateFile(file, '{"b":1}');
    expect(fs.readFileSync(elsewhere, 'utf8')).toBe('{}');
    expect(fs.lstatSync(file).isSymbolicLink()).toBe(false);
    fs.chmodSync(file, 0o644);
    const open = readStateFile(file);
    expect(open.kind === 'refused' && open.error).toMatch(/read or changed by others/);
  });

  it('a temporary file planted as a link is removed, not followed', () => {
    const dir = tempDir();
    const file = stateFilePath(dir, 'api');
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    const victim = path.join(dir, 'victim');
    fs.writeFileSync(victim, 'keep me');
    fs.symlinkSync(victim, `${file}.${process.pid}.tmp`);
    writeStateFile(file, '{"c":1}');
    expect(fs.readFileSync(victim, 'utf8')).toBe('keep me');
    expect(readStateFile(file)).toEqual({ kind: 'text', text: '{"c":1}' });
  });

  it('a file belltower cannot use is set aside, not deleted', () => {
    const file = stateFilePath(tempDir(), 'api');
    writeStateFile(file, 'not json');
    const aside = setAside(file, new Date('2026-12-01T10:00:00Z'));
    expect(fs.existsSync(file)).toBe(false);
    expect(fs.readFileSync(aside, 'utf8')).toBe('not json');
  });

  it('kill -9 while writing in a loop leaves the old file or the new one, never a torn one', async (ctx) => {
    if (!fs.existsSync(built)) return ctx.skip('the sources are not built (npm run build)');
    const file = stateFilePath(tempDir(), 'torn');
    // Each write is a whole JSON document of a different size (1 KB to 4 MB), numbered.
    const script = `
      import { writeStateFile } from ${JSON.stringify(built)};
      for (let n = 0; ; n++) {
        const size = n % 2 === 0 ? 1024 : 4 * 1024 * 1024;
        writeStateFile(${JSON.stringify(file)}, JSON.stringify({ n, pad: 'x'.repeat(size) }));
        if (n === 3) process.stdout.write('writing\\n');
      }`;
    for (let round = 0; round < 5; round++) {
      const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
      await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
      // Somewhere in the middle of a write, a different moment each round.
      await new Promise((resolve) => setTimeout(resolve, 5 + round * 17));
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));
      const read = readStateFile(file);
      expect(read.kind).toBe('text');
      const parsed = JSON.parse(read.kind === 'text' ? read.text : '') as { n: number; pad: string };
      expect(parsed.pad.length).toBe(parsed.n % 2 === 0 ? 1024 : 4 * 1024 * 1024);
    }
  }, 60_000);
});
