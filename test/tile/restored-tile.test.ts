/**
 * Restored tiles in a TileSet, with real ptys: a finished command shows its last screen and how it
 * ended and runs nothing until it is restarted; an agent resumes its conversation with its own
 * flag, and one that cannot (it gives up at once) starts a new conversation and says so.
 */
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseSpec } from '../../src/agents/launch-spec.js';
import { Screen } from '../../src/session/screen.js';
import type { Tile } from '../../src/tile/tile.js';
import { testSet, until } from './helpers.js';
import type { TestSet } from './helpers.js';

let current: TestSet | undefined;
const folders: string[] = [];
afterEach(async () => {
  await current?.cleanup();
  current = undefined;
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

const shows = (tile: Tile, text: string) => tile.session.screen.rowTexts().some((row) => row.includes(text));
const id = '0f8a2b8e-6c1d-4c55-9a1e-2f6b7c8d9e01';

async function snapshotOf(text: string): Promise<string> {
  const screen = new Screen({ cols: 80, rows: 24, onReply: () => {} });
  await new Promise<void>((resolve) => screen.write(text, resolve));
  const data = screen.snapshot(100);
  screen.dispose();
  return data;
}

/** A stand-in for an agent: writes its arguments (a line per run) to `<its folder>/args`, refuses
 * `--resume` when told, and is ready a moment after it starts. */
function fakeAgent(refuseResume: boolean): string {
  const dir = mkdtempSync(join(tmpdir(), 'belltower-fake-agent-'));
  folders.push(dir);
  const file = join(dir, 'fake-agent.sh');
  writeFileSync(
    file,
    [
      '#!/bin/sh',
      `echo "$*" >> ${join(dir, 'args')}`,
      refuseResume ? 'case "$*" in *--resume*) echo "No conversation found with session ID: $2"; exit 1;; esac' : '',
      'sleep 0.3',
      'echo "agent ready"',
      'exec sleep 600',
    ].join('\n'),
  );
  chmodSync(file, 0o755);
  return file;
}

describe('restored tiles', () => {
  it('a finished command shows its last screen and its outcome, runs nothing, and runs again on restart', async () => {
    current = testSet();
    const { set, changes } = current;
    const rings: string[] = [];
    set.onRing((_id, state) => rings.push(state));
    const tile = await set.add(parseSpec('echo built'), {
      name: 'build',
      restored: {
        screen: await snapshotOf('built ok\r\n'),
        verdict: { state: 'done', reason: 'exited with code 0', source: 'process', exit: { code: 0, signal: null }, ended: true },
        finished: { code: 0, signal: null, closed: false, remaining: 0, detached: 0 },
      },
    });
    expect(tile.session.pid).toBeUndefined();
    expect(tile.hasExited).toBe(true);
    expect(shows(tile, 'built ok')).toBe(true);
    expect(tile.info()).toMatchObject({ state: 'done', reason: 'restored: exited with code 0', restored: true, exit: { code: 0, closed: false } });
    expect(changes).toEqual([]);
    expect(rings).toEqual([]);
    // Looking at it: a seen finished command is a process that exited.
    set.seen(tile.id);
    await until('seen', () => tile.verdict.state === 'exited');
    expect(rings).toEqual([]);

    const again = await set.restart(tile.id);
    await until('the real run to end', () => again.hasExited && shows(again, 'built'));
    expect(again.info().restored).toBeUndefined();
    expect(again.verdict.state).toBe('done');
    expect(rings).toEqual(['done']);
  });

  it('an agent resumes its conversation with its own flag, without the prompt it started with', async () => {
    const agent = fakeAgent(false);
    current = testSet({ env: { ...process.env, BELLTOWER_CLAUDE_BIN: agent } });
    const { set } = current;
    const tile = await set.add(parseSpec('claude --model opus "fix the tests"', { BELLTOWER_CLAUDE_BIN: agent }), {
      conversation: { id, resume: true },
      restored: { screen: await snapshotOf('the old conversation\r\n') },
    });
    expect(tile.info().restored).toBe(true);
    await until('the agent to start', () => shows(tile, 'agent ready'));
    expect(readFileSync(join(agent, '..', 'args'), 'utf8').trim()).toBe(`--resume ${id} --model opus`);
    // Its output ends the "restored" mark; the old screen stays above it.
    await until('live', () => tile.info().restored === undefined);
    expect(shows(tile, 'the old conversation')).toBe(true);
    expect(tile.conversationToResume).toBe(id);
  });

  it('a resume the agent refuses at once starts a new conversation, and the tile says so', async () => {
    const agent = fakeAgent(true);
    current = testSet({ env: { ...process.env, BELLTOWER_CLAUDE_BIN: agent } });
    const { set, log } = current;
    const rings: string[] = [];
    set.onRing((_id, state) => rings.push(state));
    const tile = await set.add(parseSpec('claude', { BELLTOWER_CLAUDE_BIN: agent }), { conversation: { id, resume: true } });
    await until('a new run', () => set.tiles[0] !== tile && set.tiles[0]!.run === 2 && shows(set.tiles[0]!, 'agent ready'));
    const fresh = set.tiles[0]!;
    const args = readFileSync(join(agent, '..', 'args'), 'utf8').trim().split('\n');
    expect(args[0]).toBe(`--resume ${id}`);
    expect(args[1]).toMatch(/^--session-id [0-9a-f-]{36}$/);
    expect(args[1]).not.toContain(id);
    expect(fresh.info().note).toMatch(/^could not resume the conversation 0f8a2b8e-\S+ \(it exited with code 1: No conversation found with session ID: 0f8a2b8e-\S+\); started a new one$/);
    expect(shows(fresh, '[belltower] could not resume the conversation')).toBe(true);
    expect(fresh.conversationToResume).toBeNull(); // nothing said in the new one yet
    expect(log.some((line) => line.includes('could not resume'))).toBe(true);
    expect(rings).toEqual([]);
  });
});
