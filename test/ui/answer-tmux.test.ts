/**
 * Answering a permission request from the grid and from a script, in a real terminal (tmux), on
 * the demo's simulated agent (it draws its dialog as Claude Code does: `❯ 1. Yes` / `2. Yes, and
 * don't ask again …` / `3. No, and tell me what to do differently`). y allows once, Y allows and
 * is not asked again, T denies and tells the agent what to do instead — all without entering the
 * tile; `belltower answer` does the same for the request `ls --json` showed, and refuses (with its
 * own exit status, nothing sent) a request that is no longer the one standing.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { TileInfo } from '../../src/control/protocol.js';
import { belltowerCli } from '../support/belltower-cli.js';
import { closeAll, simSpec, start } from '../support/grid-session.js';
import { stateOf, tmuxMissing } from '../support/tmux.js';


afterEach(() => closeAll());


/** The CLI against the belltower whose state folder is under `dir` (grid-session's start). */
const cli = (dir: string, args: string[]) => belltowerCli(args, { env: { ...process.env, BELLTOWER_STATE_DIR: join(dir, 'state') } });

async function tiles(dir: string, session: string): Promise<TileInfo[]> {
  const { stdout } = await cli(dir, ['ls', '--json', '--session', session]);
  return JSON.parse(stdout) as TileInfo[];
}

const asking = (s: string) => /◆ approve Bash: make deploy/.test(s) && s.includes('3. No, and tell me');

describe.skipIf(tmuxMissing() !== null)('answering from the grid (tmux)', () => {
  it('y allows the request once: the agent goes on, and the grid kept the keyboard', async () => {
    const { tmux } = start([simSpec('asks', 'rest:1,ask:600,rest:600'), '--quiet-period', '0'], { cols: 100, rows: 30 });
    await tmux.waitFor('the request in the header, the dialog in the tile', asking, 20_000);
    tmux.keys('y');
    const screen = await tmux.waitFor('approved, and said so', (s) => s.includes('  approved') && s.includes('allow — "Yes"'), 20_000);
    expect(screen).not.toContain('3. No, and tell me');
    expect(screen.split('\n').filter(Boolean).at(-1)).not.toMatch(/FOCUS/);
  }, 60_000);

  it('Y allows it and the same request is not asked again', async () => {
    const { tmux } = start([simSpec('asks', 'rest:1,ask:600,rest:1,ask:600,rest:600'), '--quiet-period', '0'], { cols: 100, rows: 30 });
    await tmux.waitFor('asking', asking, 20_000);
    tmux.keys('Y');
    const screen = await tmux.waitFor('the second request allowed without asking', (s) => s.includes('allowed without asking'), 20_000);
    expect(screen).toContain("approved: I won't ask again for make");
    expect(stateOf(tmux.screen(), 1, 'node')).not.toBe('blocked');
  }, 60_000);

  it('T denies it and types what to do instead into the agent, which takes it as its next prompt', async () => {
    const { tmux } = start([simSpec('asks', 'rest:1,ask:600,rest:600'), '--quiet-period', '0'], { cols: 100, rows: 30 });
    await tmux.waitFor('asking', asking, 20_000);
    tmux.keys('T');
    const form = await tmux.waitFor('the line to tell it', (s) => s.includes('deny and tell 1 node'));
    expect(form).toContain('approve Bash: make deploy');
    tmux.type('deploy to staging first');
    tmux.keys('Enter');
    const screen = await tmux.waitFor('denied, then the line as its prompt', (s) => s.includes('denied: tell me what to do instead') && s.includes('answering "deploy to staging first"'), 20_000);
    expect(screen).not.toContain('  approved');
  }, 60_000);
});

describe.skipIf(tmuxMissing() !== null)('belltower answer (tmux)', () => {
  it('answers the request ls --json shows; a request no longer standing is refused with exit 3, nothing sent', async () => {
    const session = 'answers';
    const { tmux, dir } = start([simSpec('asks', 'rest:1,ask:600,rest:1,ask:600,rest:600'), '--session', session, '--quiet-period', '0'], { cols: 100, rows: 30 });
    await tmux.waitFor('asking', asking, 20_000);
    const first = (await tiles(dir, session))[0]!;
    expect(first.request).toMatchObject({ asks: 'approve Bash: make deploy' });
    expect(first.request!.options.map((o) => [o.key, o.answer])).toEqual([['1', 'allow'], ['2', 'always'], ['3', 'deny']]);
    // ls says it for people, under the tile.
    const listed = (await cli(dir, ['ls', '--session', session])).stdout.split('\n');
    expect(listed.find((line) => line.startsWith('    asks: '))).toBe(`    asks: approve Bash: make deploy — 1 Yes · 2 Yes, and don't ask again for make commands · 3 No, and tell me what to do differently (esc) (request ${first.request!.id})`);

    const allowed = await cli(dir, ['answer', '1', 'allow', '--request', first.request!.id, '--session', session]);
    expect(allowed.stderr).toBe('');
    expect(allowed.code).toBe(0);
    expect(allowed.stdout).toMatch(/^Yes: /);

    // The next request, with the same words: another id. The old one is refused, and the dialog stays.
    await tmux.waitFor('asking again', (s) => s.includes('  approved') && asking(s), 20_000);
    const second = (await tiles(dir, session))[0]!;
    expect(second.request!.id).not.toBe(first.request!.id);
    const stale = await cli(dir, ['answer', '1', 'allow', '--request', first.request!.id, '--session', session]);
    expect(stale.code).toBe(3);
    expect(stale.stderr).toContain('request changed since it was shown');
    expect((await tiles(dir, session))[0]!.request?.id).toBe(second.request!.id);

    // A tile that asks nothing: exit 4. A usage error: exit 2.
    const denied = await cli(dir, ['answer', '1', 'deny', '--session', session]);
    expect(denied.code).toBe(0);
    await tmux.waitFor('denied', (s) => s.includes('denied: tell me what to do instead'));
    expect((await cli(dir, ['answer', '1', 'deny', '--session', session])).code).toBe(4);
    expect((await cli(dir, ['answer', '1', 'maybe', '--session', session])).code).toBe(2);
  }, 90_000);
});

describe.skipIf(tmuxMissing() !== null)('a line to several tiles from the grid (tmux)', () => {
  it('v marks tiles (◉ after the name); i then sends one line to every marked tile and to no other', async () => {
    const tiles = ['a', 'b', 'c'].map((name) => simSpec(name, 'rest:600'));
    const { tmux } = start([...tiles, '--quiet-period', '0'], { cols: 120, rows: 30 });
    await tmux.waitFor('three agents at rest', (s) => (s.match(/a simulated agent/g) ?? []).length === 3, 20_000);
    tmux.keys('1');
    tmux.keys('v');
    tmux.keys('3');
    tmux.keys('v');
    let screen = await tmux.waitFor('two marks', (s) => /1 node ◉/.test(s) && /3 node-3 ◉/.test(s));
    expect(screen).not.toMatch(/2 node-2 ◉/);
    tmux.keys('i');
    await tmux.waitFor('the line for the marked tiles', (s) => s.includes('send to 2 marked tiles: 1 node, 3 node-3'));
    tmux.type('run the tests again');
    tmux.keys('Enter');
    screen = await tmux.waitFor('the line in both marked tiles', (s) => (s.match(/answering "run the tests again"/g) ?? []).length === 2, 20_000);
    expect(screen).toContain('sent to 2 tiles');
    // V clears the marks: i goes to the selected tile alone again.
    tmux.keys('V');
    await tmux.waitFor('no marks', (s) => !s.includes('◉'));
    tmux.keys('2');
    tmux.keys('i');
    await tmux.waitFor('the line for tile 2 alone', (s) => s.includes('send to 2 node-2'));
  }, 60_000);
});
