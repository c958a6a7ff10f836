/**
 * A tile's changes on screen, in a real terminal (tmux) with the session server users get: the
 * header shows what its folder changed as git counts it, counted again while it works; `D` opens
 * the review — git's diff line for line, coloured as git colours it — `/` finds a line in it, Esc
 * closes it; and `belltower diff` prints what git diff prints.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { belltowerCli } from '../support/belltower-cli.js';
import { closeAll, keepFolder, start } from '../support/grid-session.js';
import { GIT_ENV, gitIn, tempRepository } from '../support/git-repo.js';
import { headerOf, tmuxMissing } from '../support/tmux.js';

afterEach(() => closeAll());

/** The review box's lines (its title and footer left out), without its frame. */
function boxRows(screen: string): string[] {
  const inside = screen.split('\n').flatMap((row) => {
    const inner = /^.?│ (.*) │.?\s*$/.exec(row);
    return inner ? [inner[1]!.replace(/\s+$/, '')] : [];
  });
  return inside.slice(1, -1);
}

describe.skipIf(tmuxMissing() !== null)("a tile's changes, and their review (tmux)", () => {
  it('the header counts them, D shows git diff line for line in colour, / finds a line, Esc closes', async () => {
    const made = tempRepository({ 'app.ts': 'export const a = 1;\nexport const b = 2;\n' }, 'belltower-review-tmux-');
    keepFolder(made.root);
    const { repo } = made;
    writeFileSync(join(repo, 'app.ts'), 'export const a = 10;\nexport const b = 2;\n');
    writeFileSync(join(repo, 'notes.md'), 'first note\nsecond note\n');
    const session = 'review';
    const { tmux, dir } = start(['sleep 600', '--session', session], { cols: 120, rows: 40 }, [], { cwd: repo, env: GIT_ENV });

    const header = (s: string) => headerOf(s, 1, 'sleep') ?? '';
    await tmux.waitFor('the changes in the header', (s) => header(s).includes('main +3 −1 · 2 files'), 30_000);
    // The command works: its changes are counted again within seconds, without a verdict change.
    writeFileSync(join(repo, 'third.txt'), 'x\n');
    await tmux.waitFor('the new file counted', (s) => header(s).includes('main +4 −1 · 3 files'), 30_000);

    tmux.keys('D');
    const review = await tmux.waitFor('the review', (s) => s.includes('review 1 sleep · main +4 −1 · 3 files · against HEAD') && s.includes('diff --git'), 30_000);
    // git's diff, line for line, after the file list and a blank.
    gitIn(repo, 'add', '--intent-to-add', 'notes.md', 'third.txt');
    const git = gitIn(repo, 'diff', '--no-color', 'HEAD').replace(/\n$/, '').split('\n');
    gitIn(repo, 'reset', '-q');
    const rows = boxRows(review);
    const start0 = rows.findIndex((r) => r.startsWith('diff --git'));
    expect(rows.slice(0, 5)).toEqual(['3 files · +4 −1', '  +1 −1  app.ts', '  +2 −0  notes.md', '  +1 −0  third.txt', '']);
    expect(rows.slice(start0).slice(0, git.length)).toEqual(git.slice(0, rows.length - start0));
    // Coloured as git colours them: added lines green, removed red.
    const coloured = tmux.screen(true).split('\n');
    expect(coloured.find((l) => l.includes('+export const a = 10;'))).toMatch(/\x1b\[(?:[0-9;]*;)?32m\+export const a = 10;/);
    expect(coloured.find((l) => l.includes('-export const a = 1;'))).toMatch(/\x1b\[(?:[0-9;]*;)?31m-export const a = 1;/);

    tmux.keys('/');
    tmux.type('second');
    await tmux.waitFor('the search typed', (s) => s.includes('/second▏'));
    tmux.keys('Enter');
    // The whole diff fits: nothing scrolls, and the line found stands out (inverse).
    const marked = (text: string) => new RegExp(`\x1b\\[(?:[0-9;]*;)?7(?:;[0-9;]*)?m(?:\x1b\\[[0-9;]*m)*\\${text}`);
    const inverse = marked('+second note');
    await tmux.until('the line found, marked', () => tmux.screen(true).split('\n').some((l) => inverse.test(l)), 15_000);
    expect(tmux.screen(true).split('\n').filter((l) => marked('+first note').test(l))).toEqual([]);
    expect(tmux.screen()).toContain('n N next');
    tmux.keys('Escape');
    await tmux.waitFor('the review closed', (s) => !s.includes('review 1 sleep') && header(s).includes('main +4 −1'), 15_000);

    // belltower diff prints what git diff prints (notes.md and third.txt as intent-to-add).
    const printed = await belltowerCli(['diff', '1', '--session', session], { env: { ...GIT_ENV, BELLTOWER_STATE_DIR: join(dir, 'state') } });
    expect(printed.stderr).toBe('');
    expect(printed.stdout.replace(/\n$/, '').split('\n')).toEqual(git);
  }, 120_000);
});
