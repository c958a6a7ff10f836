/**
 * Restore in a real terminal: the built CLI inside tmux, killed with SIGKILL and started again in
 * the same window. It offers the saved workspace before the grid owns the terminal, brings every
 * tile back in its place with its last screen, keeps an unseen done unseen without ringing again,
 * shows a finished command as finished until `r` runs it, and after a clean q, --restore brings the
 * workspace back without asking.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseWorkspaceState } from '../../src/restore/workspace-state.js';
import type { WorkspaceState } from '../../src/restore/workspace-state.js';
import { closeAll, keepFolder } from '../support/grid-session.js';
import { sleep } from '../support/fake-server.js';
import { headerOf, stateOf, Tmux, tmuxMissing } from '../support/tmux.js';
import { shellQuote as q } from '../support/shell-quote.js';

const repo = join(import.meta.dirname, '..', '..');
const bin = join(repo, 'bin', 'belltower.js');
const missing = tmuxMissing();
const opened: Tmux[] = [];
afterEach(() => {
  for (const t of opened.splice(0)) t.close();
  closeAll();
});


function savedState(file: string): WorkspaceState | null {
  if (!existsSync(file)) return null;
  const parsed = parseWorkspaceState(readFileSync(file, 'utf8'));
  return parsed.ok ? parsed.state : null;
}

/** Is the state in tile `id`'s header shown in reverse (unseen)? */
function unseenIn(screenWithEscapes: string, id: number, name: string): boolean {
  const line = screenWithEscapes.split('\n').find((l) => new RegExp(`[╭┏╔] ${id} ${name} `).test(l.replace(/\x1b\[[0-9;]*m/g, '')));
  return line !== undefined && /\x1b\[([0-9;]*;)?7(;[0-9;]*)?m(\x1b\[[0-9;]*m)*(done|failed)/.test(line);
}

describe.skipIf(missing !== null)('restore in a real terminal (tmux)', () => {
  it('kill -9, then belltower again: asked, restored in place, the unseen done kept without a bell; q, then --restore', async () => {
    const dir = keepFolder(mkdtempSync(join(tmpdir(), 'belltower-restore-')));
    const state = join(dir, 'state');
    const file = join(state, 'workspaces', 'restore-test.json');
    const run = (n: number, args: string) => `${q(process.execPath)} ${q(bin)} --session restore-test ${args} 2> ${dir}/stderr${n}; echo "EXIT=$?" > ${dir}/exit${n}`;
    // (A killed belltower cannot give the terminal back; the next ones leave it as they found it.)
    const command = [
      run(1, `bash ${q('printf "built ok\\n"')}`),
      'echo FIRST-ENDED',
      run(2, ''),
      `stty -a > ${dir}/stty-before`,
      run(3, '--restore'),
      `stty -a > ${dir}/stty-after`,
      'echo ALL-DONE',
      'sleep 600',
    ].join('\n');
    const env: Record<string, string | undefined> = { ...process.env, CI: undefined, BELLTOWER_STATE_DIR: state, NO_COLOR: undefined, BELLTOWER_CLAUDE_BIN: '/nonexistent/claude' };
    for (const name of Object.keys(env)) if (name.startsWith('VITEST') || name === 'NODE_OPTIONS') env[name] = undefined;
    const tmux = new Tmux({ cols: 140, rows: 36, command, env, cwd: dir });
    opened.push(tmux);

    // First run: a shell we type into, and a command that finishes while nobody looks (one bell).
    await tmux.waitFor('two tiles', (s) => stateOf(s, 2, 'printf') === 'done' && stateOf(s, 1, 'bash') === 'idle');
    await tmux.until('its bell', () => tmux.bells() === 1);
    tmux.keys('1', 'Enter');
    await tmux.waitFor('focus on the shell', (s) => s.includes('FOCUS 1 bash'));
    tmux.type('echo MARK-$((6*7))');
    tmux.keys('Enter');
    await tmux.waitFor('the shell answered', (s) => s.includes('MARK-42'));
    tmux.keys('C-\\');
    tmux.keys('l');
    await tmux.waitFor('tile 2 selected', (s) => /┏ 2 printf /.test(s));
    // Saved: the shell's screen with MARK-42, the command's unseen done, tile 2 selected.
    await tmux.until('the state on disk', () => {
      const saved = savedState(file);
      return saved !== null && saved.ui.selected === 1 && saved.tiles[1]?.unseen === true && (saved.tiles[0]?.screen?.data.includes('MARK-42') ?? false);
    });
    const before = savedState(file)!;
    expect(before.ended).toBeNull();
    process.kill(before.pid, 'SIGKILL');

    // Second run: asked before the grid owns the terminal (the killed one could not give it back:
    // the question shows on whatever screen it left).
    await tmux.waitFor('the question', (s) => /Restore 2 tiles from \d\d:\d\d \(belltower was killed\)\? \[Y\/n\]/.test(s), 20_000);
    tmux.keys('Enter');
    let screen = await tmux.waitFor('the grid back, with the old screens', (s) => /✓ done · restored/.test(headerOf(s, 2, 'printf') ?? '') && headerOf(s, 1, 'bash') !== undefined && s.includes('built ok') && s.includes('MARK-42'));
    // Same places, same selection; the finished command shows how it finished, marked restored.
    expect(screen).toMatch(/┏ 2 printf /);
    expect(screen).toContain('built ok');
    expect(screen).toContain('MARK-42');
    expect(screen).toMatch(/restored 2 tiles from \d\d:\d\d/);
    expect(unseenIn(tmux.screen(true), 2, 'printf')).toBe(true);
    // Not rung again, and not run again (its "built ok" is the old screen's).
    await sleep(2_000);
    expect(tmux.bells()).toBe(1);
    expect(stateOf(tmux.screen(), 2, 'printf'), `${tmux.screen()}\n${JSON.stringify(savedState(file)?.tiles.map((t) => [t.name, t.state, t.exit]))}`).toBe('done');

    // r runs the finished command again: a new done, a new bell.
    tmux.keys('r');
    await tmux.until('the re-run rings', () => tmux.bells() === 2);
    await tmux.waitFor('done again, no longer marked restored', (s) => stateOf(s, 2, 'printf') === 'done' && !/restored ·/.test(headerOf(s, 2, 'printf') ?? 'restored ·'));

    await tmux.waitFor('the shell started again', (s) => stateOf(s, 1, 'bash') === 'idle');
    tmux.keys('q');
    await tmux.until('the second run to end', () => existsSync(join(dir, 'exit2')));
    expect(readFileSync(join(dir, 'exit2'), 'utf8')).toContain('EXIT=0');
    expect(savedState(file)?.ended).toBe('quit');

    // Third run, --restore: no question, the same workspace.
    // (The shell is let finish starting: a shell ended inside its rc files can leave their locks.)
    screen = await tmux.waitFor('restored without asking', (s) => stateOf(s, 1, 'bash') === 'idle' && headerOf(s, 2, 'printf') !== undefined, 20_000);
    expect(screen).not.toMatch(/Restore 2 tiles/);
    tmux.keys('q');
    await tmux.waitFor('all done', (s) => s.includes('ALL-DONE'));
    expect(readFileSync(join(dir, 'exit3'), 'utf8')).toContain('EXIT=0');
    expect(readFileSync(join(dir, 'stty-after'), 'utf8')).toBe(readFileSync(join(dir, 'stty-before'), 'utf8'));
    for (const n of [2, 3]) expect(readFileSync(join(dir, `stderr${n}`), 'utf8')).toBe('');
  }, 120_000);

  it('a second belltower on the same session is refused before it reads or writes the state (--no-server: one process holds it)', async () => {
    const dir = keepFolder(mkdtempSync(join(tmpdir(), 'belltower-restore-lock-')));
    const state = join(dir, 'state');
    const file = join(state, 'workspaces', 'locked.json');
    const env: Record<string, string | undefined> = { ...process.env, CI: undefined, BELLTOWER_STATE_DIR: state, NO_COLOR: undefined };
    for (const name of Object.keys(env)) if (name.startsWith('VITEST') || name === 'NODE_OPTIONS') env[name] = undefined;
    const window = (n: number) =>
      new Tmux({ cols: 100, rows: 30, command: `${q(process.execPath)} ${q(bin)} --no-server --session locked ${q(`printf "run ${n}\\n"`)} 2> ${dir}/stderr${n}; echo "EXIT=$?" > ${dir}/exit${n}; sleep 600`, env, cwd: dir });
    const first = window(1);
    opened.push(first);
    await first.waitFor('the first grid', (s) => s.includes('run 1'));
    await first.until('its state', () => savedState(file) !== null);
    const owner = savedState(file)!.pid;
    const second = window(2);
    opened.push(second);
    await second.until('the second to give up', () => existsSync(join(dir, 'exit2')));
    expect(readFileSync(join(dir, 'exit2'), 'utf8')).toContain('EXIT=2');
    expect(readFileSync(join(dir, 'stderr2'), 'utf8')).toMatch(/another belltower is already running as .*locked\.sock; pick another --session name/);
    expect(second.screen()).not.toMatch(/Restore/);
    await sleep(500);
    expect(savedState(file)!.pid).toBe(owner);
    expect(savedState(file)!.tiles[0]!.screen?.data).toContain('run 1');
    first.keys('q');
    await first.until('the first to end', () => existsSync(join(dir, 'exit1')));
  }, 60_000);

  it('with --no-server, a terminal that closes (SIGHUP) saves the workspace saying so, and the next start offers it', async () => {
    const dir = keepFolder(mkdtempSync(join(tmpdir(), 'belltower-restore-hup-')));
    const state = join(dir, 'state');
    const file = join(state, 'workspaces', 'hup.json');
    const env: Record<string, string | undefined> = { ...process.env, CI: undefined, BELLTOWER_STATE_DIR: state, NO_COLOR: undefined, BELLTOWER_CLAUDE_BIN: '/nonexistent/claude' };
    for (const name of Object.keys(env)) if (name.startsWith('VITEST') || name === 'NODE_OPTIONS') env[name] = undefined;
    const run = (n: number, args: string) => `${q(process.execPath)} ${q(bin)} --no-server --session hup ${args} 2> ${dir}/stderr${n}; echo "EXIT=$?" > ${dir}/exit${n}`;
    const tmux = new Tmux({ cols: 100, rows: 30, command: [run(1, q('printf "before the hangup\\n"')), run(2, ''), 'sleep 600'].join('\n'), env, cwd: dir });
    opened.push(tmux);
    await tmux.waitFor('the grid', (s) => s.includes('before the hangup'));
    await tmux.until('its state', () => savedState(file) !== null);
    process.kill(savedState(file)!.pid, 'SIGHUP');
    await tmux.until('the first run to end', () => existsSync(join(dir, 'exit1')));
    expect(readFileSync(join(dir, 'exit1'), 'utf8')).toContain('EXIT=129');
    expect(savedState(file)!.ended).toBe('SIGHUP');
    await tmux.waitFor('the question', (s) => /Restore 1 tile from \d\d:\d\d \(its terminal closed\)\? \[Y\/n\]/.test(s));
    tmux.type('n');
    tmux.keys('Enter');
    // No: nothing to open instead (no SPEC, no claude), said in a line.
    await tmux.until('the second run to end', () => existsSync(join(dir, 'exit2')));
    expect(readFileSync(join(dir, 'exit2'), 'utf8')).toContain('EXIT=2');
    expect(readFileSync(join(dir, 'stderr2'), 'utf8')).toMatch(/`claude` is not installed here/);
  }, 60_000);
  it('a shell tile is saved in the folder it was last in (its OSC 7), so a restore starts it there', async () => {
    const dir = keepFolder(mkdtempSync(join(tmpdir(), 'belltower-restore-cwd-')));
    const state = join(dir, 'state');
    const file = join(state, 'workspaces', 'cwd-test.json');
    const sub = join(dir, 'deeper');
    mkdirSync(sub);
    const home = join(dir, 'home');
    mkdirSync(home);
    writeFileSync(join(home, '.bashrc'), "PS1='$ '\n");
    const command = `${q(process.execPath)} ${q(bin)} --session cwd-test bash; sleep 600`;
    const env: Record<string, string | undefined> = { ...process.env, CI: undefined, HOME: home, BELLTOWER_STATE_DIR: state, NO_COLOR: undefined };
    for (const name of Object.keys(env)) if (name.startsWith('VITEST') || name === 'NODE_OPTIONS') env[name] = undefined;
    const tmux = new Tmux({ cols: 120, rows: 30, command, env, cwd: dir });
    opened.push(tmux);
    await tmux.waitFor('the shell tile', (s) => /[╭┏] 1 bash /.test(s));
    await tmux.until('the first save', () => savedState(file)?.tiles[0]?.cwd === dir, 20_000);
    tmux.keys('Enter');
    await tmux.waitFor('focus mode', (s) => s.includes('FOCUS 1 bash'));
    tmux.type(`cd ${sub}`);
    tmux.keys('Enter');
    await tmux.until('the shell saved in its new folder', () => savedState(file)?.tiles[0]?.cwd === sub, 20_000);
  }, 60_000);
});
