/**
 * What happens at start with a saved workspace: asked, restored, ignored, or refused in a line.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { chooseStart } from '../../src/cli/restore-start.js';
import { stateFilePath, writeStateFile } from '../../src/restore/state-file.js';
import { STATE_FORMAT, STATE_VERSION } from '../../src/restore/workspace-state.js';
import type { WorkspaceState } from '../../src/restore/workspace-state.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function saved(ended: WorkspaceState['ended']): WorkspaceState {
  return {
    format: STATE_FORMAT,
    version: STATE_VERSION,
    session: 'api',
    savedAt: new Date().toISOString(),
    pid: 4242,
    ended,
    tiles: [{ name: 'sh', spec: 'shell', agent: 'shell', cwd: '/', state: 'idle', reason: 'at rest', source: 'shell', unseen: false, muted: false }],
    ui: { selected: 0, zoomed: false, layout: 'auto', hideIdle: false },
  };
}

function fileWith(text: string | null): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'belltower-start-'));
  dirs.push(dir);
  const file = stateFilePath(dir, 'api');
  if (text !== null) writeStateFile(file, text);
  return file;
}

function asker(answer: boolean | null): { ask: (q: string) => Promise<boolean | null>; asked: string[] } {
  const asked: string[] = [];
  return { asked, ask: async (q) => (asked.push(q), answer) };
}

describe('starting with a saved workspace', () => {
  it('asks after a kill, and restores on yes, starts fresh on no, stops on Ctrl-C', async () => {
    const file = fileWith(JSON.stringify(saved(null)));
    const yes = asker(true);
    expect((await chooseStart(file, 'api', {}, yes.ask)).kind).toBe('restore');
    expect(yes.asked).toEqual([expect.stringMatching(/\nRestore 1 tile from \d\d:\d\d \(belltower was killed\)\? \[Y\/n\] $/)]);
    expect((await chooseStart(file, 'api', {}, asker(false).ask)).kind).toBe('fresh');
    expect((await chooseStart(file, 'api', {}, asker(null).ask)).kind).toBe('cancelled');
  });

  it('does not ask after q; --restore brings it back anyway; --fresh never asks', async () => {
    const file = fileWith(JSON.stringify(saved('quit')));
    const never = asker(true);
    expect((await chooseStart(file, 'api', {}, never.ask)).kind).toBe('fresh');
    expect((await chooseStart(file, 'api', { restore: true }, never.ask)).kind).toBe('restore');
    expect((await chooseStart(fileWith(JSON.stringify(saved(null))), 'api', { fresh: true }, never.ask)).kind).toBe('fresh');
    expect(never.asked).toEqual([]);
  });

  it('--restore with nothing saved is refused in a line', async () => {
    const choice = await chooseStart(fileWith(null), 'api', { restore: true }, asker(true).ask);
    expect(choice).toEqual({ kind: 'refused', error: expect.stringMatching(/^nothing to restore for session "api" \(no saved workspace at .*api\.json\)$/) });
    expect((await chooseStart(fileWith(null), 'api', {}, asker(true).ask)).kind).toBe('fresh');
  });

  it('a state from a newer belltower is refused and kept; --fresh sets it aside and starts', async () => {
    const text = JSON.stringify({ format: STATE_FORMAT, version: 99 });
    const file = fileWith(text);
    const refused = await chooseStart(file, 'api', {}, asker(true).ask);
    expect(refused).toEqual({ kind: 'refused', error: expect.stringMatching(/written by a newer belltower .*upgrade belltower; start with --fresh to set it aside$/) });
    expect(fs.readFileSync(file, 'utf8')).toBe(text);
    const fresh = await chooseStart(file, 'api', { fresh: true }, asker(true).ask);
    expect(fresh.kind).toBe('fresh');
    const kept = fresh.kind === 'fresh' ? /kept as (\S+)$/.exec(fresh.note ?? '')?.[1] : undefined;
    expect(kept && fs.readFileSync(kept, 'utf8')).toBe(text);
    expect(fs.existsSync(file)).toBe(false);
  });
});
