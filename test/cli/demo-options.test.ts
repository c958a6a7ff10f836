/**
 * `belltower demo` takes the grid's options — the same definitions as `belltower [SPEC...]`, not a
 * copy — refuses a wrong value in the grid's words before any simulated agent starts, and gives
 * them to the grid it opens (printing lines: the session, recordings, OSC 7501 and timing).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Command } from 'commander';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lsCommand } from '../../src/cli/control-commands.js';
import { demoCommand, demoUiFlags } from '../../src/cli/demo-command.js';
import type { DemoFlags } from '../../src/cli/demo-command.js';
import { buildProgram } from '../../src/cli/main.js';
import type { TileInfo } from '../../src/control/protocol.js';

function capture() {
  const lines: string[] = [];
  const errors: string[] = [];
  return { out: { line: (t: string) => lines.push(t), error: (t: string) => errors.push(t) }, lines, errors };
}

const demoOf = (program: Command) => program.commands.find((c) => c.name() === 'demo')!;
/** What only the grid of a workspace takes: a file, a saved workspace, hooks, remote tiles, a session server. */
const GRID_ONLY = ['--config', '--restore', '--fresh', '--no-hooks', '--remote-hooks', '--server', '--no-server', '--on-ring', '--as-server'];

describe('belltower demo takes the grid options', () => {
  it('every grid option but the workspace ones, in the same words', () => {
    const program = buildProgram(capture().out, () => {});
    const demo = new Map(demoOf(program).options.map((o) => [o.long, o.description]));
    const grid = program.options.filter((o) => o.long !== '--version' && !GRID_ONLY.includes(o.long!));
    for (const option of ['--mouse', '--bell', '--escape-key', '--notify', '--quiet-period', '--scrollback', '--exit-with-last-tile', '--session', '--timing', '--record', '--no-psp']) {
      expect(demo.has(option), option).toBe(true);
    }
    for (const option of grid) {
      if (option.long === '--session') expect(demo.get('--session')).toContain('default: demo-PID');
      else expect(demo.get(option.long), option.long).toBe(option.description);
    }
    expect(GRID_ONLY.filter((o) => demo.has(o))).toEqual([]);
  });

  it('parses them as the grid does and hands them to the grid it opens', async () => {
    const program = buildProgram(capture().out, () => {});
    let given: DemoFlags | undefined;
    demoOf(program).action((flags: DemoFlags) => void (given = flags));
    await program.parseAsync(['node', 'belltower', 'demo', '--tiles', '20', '--mouse', '--bell', 'background', '--escape-key', 'ctrl-q', '--notify', 'off', '--quiet-period', '0', '--scrollback', '50', '--exit-with-last-tile', '--no-psp', '--timing', 'conflictWindowMs=900', '--timing', 'titleStabiliseMs=2000']);
    expect(demoUiFlags(given!)).toEqual({
      mouse: true,
      bell: 'background',
      escapeKey: 'ctrl-q',
      notify: 'off',
      quietPeriod: '0',
      scrollback: '50',
      exitWithLastTile: true,
      psp: false,
      timing: ['conflictWindowMs=900', 'titleStabiliseMs=2000'],
    });
  });

  it.each([
    [['--bell', 'loud'], 'belltower demo: --bell takes all, background, off (got "loud")'],
    [['--quiet-period', 'soon'], 'belltower demo: --quiet-period takes a duration such as 30s or 0 (got "soon")'],
    [['--scrollback', '-1'], 'belltower demo: --scrollback takes a whole number of lines from 0 to 100000 (got "-1")'],
  ])('demo %j is refused in the grid words, exit 2, before any agent starts', async (args, said) => {
    const { out, lines, errors } = capture();
    let code = -1;
    await buildProgram(out, (c) => (code = c)).parseAsync(['node', 'belltower', 'demo', '--lines', ...args]);
    expect(code).toBe(2);
    expect(errors).toEqual([said]);
    expect(lines).toEqual([]);
  });
});

describe('printing lines, the demo takes the session and timing', () => {
  let state = '';
  let before: string | undefined;
  beforeEach(() => {
    state = mkdtempSync(join(tmpdir(), 'bt-demo-'));
    before = process.env.BELLTOWER_STATE_DIR;
    process.env.BELLTOWER_STATE_DIR = state;
  });
  afterEach(() => {
    if (before === undefined) delete process.env.BELLTOWER_STATE_DIR;
    else process.env.BELLTOWER_STATE_DIR = before;
    rmSync(state, { recursive: true, force: true });
  });

  it('a wrong --timing is the headless run refusing it', async () => {
    const { out, errors } = capture();
    expect(await demoCommand({ lines: true, seconds: '1', timing: ['conflictWindow=9'] }, out)).toBe(2);
    expect(errors.join('\n')).toMatch(/unknown timing setting "conflictWindow"/);
  });

  it('belltower ls --session finds the demo by the name it was given', async () => {
    const running = demoCommand({ lines: true, seconds: '2', session: 'demo-named' }, capture().out);
    try {
      let tiles: TileInfo[] = [];
      const deadline = Date.now() + 10_000;
      while (tiles.length === 0 && Date.now() < deadline) {
        const { out, lines } = capture();
        if ((await lsCommand({ json: true, session: 'demo-named' }, out)) === 0) tiles = JSON.parse(lines[0] ?? '[]') as TileInfo[];
        else await new Promise((r) => setTimeout(r, 50));
      }
      expect(tiles.map((t) => t.name)).toEqual(['api', 'web', 'docs', 'tests', 'notes']);
    } finally {
      await running;
    }
  }, 20_000);
});
