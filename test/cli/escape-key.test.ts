/**
 * `--escape-key` refuses the keys every shell and agent needs — Ctrl+C (interrupt), Ctrl+D (end of
 * input), Ctrl+Z (suspend), Ctrl+[ (Escape), as it did Enter, Tab and Backspace — saying why, as a usage
 * error (exit 2) before anything starts: from the grid's command line, the demo's, and a workspace
 * file's `escapeKey` (its own and a tile's).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { gridCommand } from '../../src/cli/grid-command.js';
import { buildProgram } from '../../src/cli/main.js';
import { parseEscapeKey } from '../../src/ui/keymap.js';

function capture() {
  const lines: string[] = [];
  const errors: string[] = [];
  return { out: { line: (t: string) => lines.push(t), error: (t: string) => errors.push(t) }, lines, errors };
}

async function belltower(...args: string[]): Promise<{ code: number; lines: string[]; errors: string[] }> {
  const { out, lines, errors } = capture();
  let code = -1;
  await buildProgram(out, (c) => (code = c)).parseAsync(['node', 'belltower', ...args]);
  return { code, lines, errors };
}

describe('keys that every shell and agent needs are no escape key', () => {
  it.each([
    ['ctrl-c', 'that key interrupts the agent or command in every tile'],
    ['Ctrl+C', 'that key interrupts the agent or command in every tile'],
    ['^d', 'that key ends input in every tile (a shell exits on it, an agent quits)'],
    ['C-z', 'that key suspends the agent or command in every tile'],
    ['ctrl-[', 'that key is Escape, which every agent uses (to stop a turn, to close a dialog)'],
  ])('%s is refused: %s', (key, why) => {
    expect(parseEscapeKey(key)).toEqual({ error: `--escape-key ${key}: ${why}; pick another (default ctrl-\\)` });
  });

  it('belltower --escape-key ctrl-c is a usage error that says why, before anything starts', async () => {
    const result = await belltower('--escape-key', 'ctrl-c', 'shell');
    expect(result.code).toBe(2);
    expect(result.errors).toEqual(['belltower: --escape-key ctrl-c: that key interrupts the agent or command in every tile; pick another (default ctrl-\\)']);
  });

  it('belltower demo --escape-key ctrl-d is refused the same way', async () => {
    const result = await belltower('demo', '--escape-key', 'ctrl-d', '--lines');
    expect(result.code).toBe(2);
    expect(result.errors).toEqual(['belltower demo: --escape-key ctrl-d: that key ends input in every tile (a shell exits on it, an agent quits); pick another (default ctrl-\\)']);
    expect(result.lines).toEqual([]); // no simulated agent started
  });
});

describe('a workspace file that sets such a key', () => {
  let folder = '';
  beforeEach(() => (folder = mkdtempSync(join(tmpdir(), 'bt-escape-'))));
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  it('is refused where it says so, for the file and for a tile, before its trust question', async () => {
    writeFileSync(join(folder, 'belltower.json'), `{\n  "tiles": [\n    { "agent": "shell", "escapeKey": "ctrl-z" }\n  ],\n  "escapeKey": "ctrl-c"\n}\n`);
    const { out, errors } = capture();
    expect(await gridCommand([], {}, out, { ...process.env, BELLTOWER_STATE_DIR: folder }, folder)).toBe(2);
    expect(errors).toEqual([
      'belltower: belltower.json:5: escapeKey: ctrl-c: that key interrupts the agent or command in every tile; pick another (default ctrl-\\)',
      'belltower: belltower.json:3: tiles[0].escapeKey: ctrl-z: that key suspends the agent or command in every tile; pick another (default ctrl-\\)',
      'belltower: nothing started; fix the workspace file (or run with --config another file)',
    ]);
  });

  it('the command line is refused before the workspace file is asked about', async () => {
    writeFileSync(join(folder, 'belltower.json'), JSON.stringify({ tiles: [{ agent: 'shell' }] }));
    const { out, errors } = capture();
    expect(await gridCommand([], { escapeKey: 'ctrl-[' }, out, { ...process.env, BELLTOWER_STATE_DIR: folder }, folder)).toBe(2);
    expect(errors).toEqual(['belltower: --escape-key ctrl-[: that key is Escape, which every agent uses (to stop a turn, to close a dialog); pick another (default ctrl-\\)']);
  });
});
