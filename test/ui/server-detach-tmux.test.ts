/**
 * Sessions that outlive the terminal, in real terminals (tmux): `belltower --server` starts the
 * session's server detached from the terminal and attaches to it; `d` detaches and ends nothing;
 * what finishes while nobody is attached is shown (unseen, on the status line) to the client that
 * attaches next, from another window of another size, and ran `--on-ring`; two clients both ring
 * and a third with `--bell off` does not (and `--on-ring` stays still); a SPEC given to a running session joins it; `belltower detach`
 * lets the latest client go; closing a client's window leaves the server; `kill-session` ends it; a server killed with `kill -9` is found stale
 * and the next start offers restore.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sessionFromFolder } from '../../src/cli/session-name.js';
import { processRuns } from '../../src/platform/processes.js';
import { closeAll, keepFolder } from '../support/grid-session.js';
import { stateOf, Tmux, tmuxMissing } from '../support/tmux.js';
import { awaitEnded, endServers, serverPids } from '../support/session-servers.js';
import { shellQuote as q } from '../support/shell-quote.js';

const repo = join(import.meta.dirname, '..', '..');
const bin = join(repo, 'bin', 'belltower.js');
const missing = tmuxMissing();

const opened: Tmux[] = [];
const stateDirs: string[] = [];

/** Running, not a zombie (an ended process not yet collected still answers kill 0). */
const alive = (pid: number) => processRuns(pid);

afterEach(async () => {
  for (const t of opened.splice(0)) t.close();
  // A detached server outlives its windows by design: end it, and wait so its folder can go.
  await awaitEnded(endServers(stateDirs.splice(0)));
  closeAll();
});

interface Session {
  work: string;
  state: string;
  session: string;
  env: Record<string, string | undefined>;
  /** A window running `belltower ARGS` in the session's folder; its exit status lands in `exit-N`. */
  window(n: number, args: string[], size: { cols: number; rows: number }): Tmux;
  exitOf(n: number): number | null;
  cli(...args: string[]): { status: number | null; stdout: string; stderr: string };
}

function session(): Session {
  const work = keepFolder(mkdtempSync(join(tmpdir(), 'bt-detach-')));
  const state = keepFolder(mkdtempSync(join(tmpdir(), 'bt-detach-state-')));
  stateDirs.push(state);
  const env: Record<string, string | undefined> = { ...process.env, CI: undefined, BELLTOWER_STATE_DIR: state, NO_COLOR: undefined, SHELL: '/bin/sh', BELLTOWER_CLAUDE_BIN: '/nonexistent/claude' };
  for (const name of Object.keys(env)) if (name.startsWith('VITEST') || name === 'NODE_OPTIONS') env[name] = undefined;
  const exitOf = (n: number) => {
    const file = join(work, `exit-${n}`);
    if (!existsSync(file)) return null;
    const m = /EXIT=(\d+)/.exec(readFileSync(file, 'utf8'));
    return m ? Number(m[1]) : null;
  };
  return {
    work,
    state,
    session: sessionFromFolder(work),
    env,
    window(n, args, size) {
      const command = [
        `echo BEFORE-${n}`,
        `${q(process.execPath)} ${q(bin)} ${args.map(q).join(' ')} 2> ${q(join(work, `stderr-${n}`))}`,
        `echo "EXIT=$?" > ${q(join(work, `exit-${n}`))}`,
        `echo AFTER-${n}`,
        'sleep 600',
      ].join('\n');
      const tmux = new Tmux({ ...size, command, env, cwd: work });
      opened.push(tmux);
      return tmux;
    },
    exitOf,
    cli(...args) {
      const run = spawnSync(process.execPath, [bin, ...args], { cwd: work, env: env as NodeJS.ProcessEnv, encoding: 'utf8', timeout: 30_000 });
      return { status: run.status, stdout: run.stdout, stderr: run.stderr };
    },
  };
}

/** /proc/PID/stat: the session id and the controlling terminal (0: none). */
function sessionAndTty(pid: number): { sid: number; tty: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { sid: Number(fields[3]), tty: Number(fields[4]) };
}

/** The tile states the control socket reports, by name. */
function states(s: Session): Record<string, string> {
  const ls = s.cli('ls', '--json');
  if (ls.status !== 0) return {};
  return Object.fromEntries((JSON.parse(ls.stdout) as { name: string; state: string }[]).map((t) => [t.name, t.state]));
}

/** Is the state in tile `id`'s header shown in reverse (unseen)? */
function unseenIn(screenWithEscapes: string, id: number, name: string): boolean {
  const line = screenWithEscapes.split('\n').find((l) => new RegExp(`[╭┏╔] ${id} ${name} `).test(l.replace(/\x1b\[[0-9;]*m/g, '')));
  return line !== undefined && /\x1b\[([0-9;]*;)?7(;[0-9;]*)?m(\x1b\[[0-9;]*m)*(done|failed)/.test(line);
}

describe.skipIf(missing !== null || process.platform !== 'linux')('detach and attach in real terminals (tmux)', () => {
  it('d detaches with every tile running; what finished meanwhile greets the next client, in another window of another size', async () => {
    const s = session();
    writeFileSync(join(s.work, 'job.sh'), 'echo $$ > job.pid\nwhile [ ! -f go ]; do sleep 0.1; done\necho JOB-FINISHED\n');
    const onRing = 'echo "$BELLTOWER_TILE $BELLTOWER_NAME $BELLTOWER_STATE $BELLTOWER_SESSION" >> rang.txt';
    const first = s.window(1, ['--on-ring', onRing, 'sh job.sh', 'bash'], { cols: 140, rows: 36 });
    await first.waitFor('both tiles', (screen) => stateOf(screen, 1, 'sh') === 'working' && stateOf(screen, 2, 'bash') === 'idle', 30_000);
    await first.until('the job to write its pid', () => existsSync(join(s.work, 'job.pid')));
    const jobPid = Number(readFileSync(join(s.work, 'job.pid'), 'utf8'));
    const [serverPid] = serverPids(s.state);
    expect(serverPid).toBeDefined();
    // The server is on its own: a session of its own, no controlling terminal.
    expect(sessionAndTty(serverPid!)).toEqual({ sid: serverPid, tty: 0 });

    // Type into the shell, then leave with d.
    first.keys('2', 'Enter');
    await first.waitFor('focus on the shell', (screen) => screen.includes('FOCUS 2 bash'));
    first.type('echo MARK-$((6*7))');
    first.keys('Enter');
    await first.waitFor('the shell answered', (screen) => screen.includes('MARK-42'));
    first.keys('C-\\');
    await first.waitFor('back in the grid', (screen) => !screen.includes('FOCUS 2 bash'));
    first.keys('d');
    await first.until('the client to exit', () => s.exitOf(1) !== null);
    expect(s.exitOf(1)).toBe(0);
    await first.waitFor('the terminal back', (screen) => screen.includes('AFTER-1'));
    expect(first.show('#{alternate_on}')).toBe('0');
    expect(first.show('#{cursor_flag}')).toBe('1');
    expect(first.screen()).toContain(`[detached from session ${s.session}`);
    expect(readFileSync(join(s.work, 'stderr-1'), 'utf8')).toBe('');

    // Nothing ended: the same processes run on.
    expect(alive(serverPid!)).toBe(true);
    expect(alive(jobPid)).toBe(true);
    const listed = s.cli('sessions');
    expect(listed.status).toBe(0);
    expect(listed.stdout).toContain(s.session);
    expect(listed.stdout).toMatch(/2 tiles \(.*working.*\)\s+detached/);

    // The job finishes while nobody is attached.
    writeFileSync(join(s.work, 'go'), '');
    await first.until('the job to be done', () => states(s).sh === 'done', 20_000);
    expect(alive(jobPid)).toBe(false);
    // Nobody is attached: the ring runs --on-ring, with what rang in its environment.
    const rang = join(s.work, 'rang.txt');
    await first.until('the on-ring command', () => existsSync(rang) && readFileSync(rang, 'utf8').includes('\n'), 20_000);
    expect(readFileSync(rang, 'utf8')).toBe(`1 sh done ${s.session}\n`);

    // Another window, another size: the same screens, the job's done unseen, and what rang said.
    const second = s.window(2, ['attach'], { cols: 100, rows: 30 });
    const seen = await second.waitFor('the grid, attached', (screen) => stateOf(screen, 1, 'sh') === 'done' && stateOf(screen, 2, 'bash') === 'idle', 20_000);
    expect(seen).toContain('MARK-42');
    expect(seen).toContain('JOB-FINISHED');
    expect(seen).toContain('while away: 1 sh done');
    expect(unseenIn(second.screen(true), 1, 'sh')).toBe(true);
    expect(second.bells()).toBe(0); // old news is shown, not rung

    // q ends the session: its tiles, the server, every client.
    second.keys('q');
    const asked = await second.waitFor('quit or its question', (screen) => screen.includes('quit belltower?') || screen.includes('AFTER-2'));
    if (asked.includes('quit belltower?')) {
      expect(asked).toMatch(/\bd\b.*detach/);
      second.keys('y');
    }
    await second.until('the client to exit', () => s.exitOf(2) !== null);
    expect(s.exitOf(2)).toBe(0);
    await second.until('the server to end', () => !alive(serverPid!), 15_000);
    expect(s.cli('sessions').stdout).toContain('no session is running');
  }, 120_000);

  it('two clients both ring; closing a client window leaves the server; kill-session ends it', async () => {
    const s = session();
    writeFileSync(join(s.work, 'job.sh'), 'while [ ! -f go ]; do sleep 0.1; done\necho JOB-FINISHED\n');
    const first = s.window(1, ['--on-ring', 'touch rang.txt', 'sh job.sh'], { cols: 120, rows: 30 });
    await first.waitFor('the tile', (screen) => stateOf(screen, 1, 'sh') === 'working', 30_000);
    // `belltower` in the folder of a running session attaches to it; a SPEC given joins it.
    const second = s.window(2, ['bash'], { cols: 80, rows: 24 });
    await second.waitFor('the second client, with the new tile', (screen) => stateOf(screen, 1, 'sh') === 'working' && stateOf(screen, 2, 'bash') === 'idle', 20_000);
    await first.waitFor('the new tile in the first client too', (screen) => stateOf(screen, 2, 'bash') === 'idle');
    expect(readFileSync(join(s.work, 'stderr-2'), 'utf8')).toContain(`session "${s.session}" is running: added tile 2 bash ("bash")`);
    // A third client with a bell of its own: off.
    const third = s.window(3, ['attach', '--bell', 'off'], { cols: 90, rows: 26 });
    await third.waitFor('the third client', (screen) => stateOf(screen, 2, 'bash') === 'idle');
    await first.until('three clients', () => /2 tiles .*3 attached/.test(s.cli('sessions').stdout));

    writeFileSync(join(s.work, 'go'), '');
    await first.until('a bell in the first window', () => first.bells() === 1, 20_000);
    await second.until('a bell in the second window', () => second.bells() === 1, 20_000);
    await third.waitFor('the done in the third window', (screen) => stateOf(screen, 1, 'sh') === 'done');
    await new Promise((resolve) => setTimeout(resolve, 1000)); // a bell would have come with the others'
    expect(third.bells()).toBe(0);
    expect(existsSync(join(s.work, 'rang.txt'))).toBe(false); // someone was attached: no --on-ring

    // `belltower detach` lets go of the client the user is at: the one that typed last.
    second.keys('2');
    await second.waitFor('the second client typed', (screen) => /┏ 2 bash /.test(screen));
    const detached = s.cli('detach');
    expect(detached.stdout).toBe(`detached 1 client from session ${s.session}\n`);
    await second.until('the second client to exit', () => s.exitOf(2) !== null);
    expect(s.exitOf(2)).toBe(0);
    expect(s.exitOf(1)).toBeNull();
    expect(s.exitOf(3)).toBeNull();

    // A client window closed (the terminal gone): the server and its tiles stay.
    const [serverPid] = serverPids(s.state);
    third.close();
    await first.until('one client left', () => /2 tiles .*1 attached/.test(s.cli('sessions').stdout));
    expect(alive(serverPid!)).toBe(true);
    expect(stateOf(first.screen(), 1, 'sh')).toBe('done');

    const killed = s.cli('kill-session');
    expect(killed.stderr).toBe('');
    expect(killed.status).toBe(0);
    await first.until('the client to exit', () => s.exitOf(1) !== null);
    expect(s.exitOf(1)).toBe(143);
    await first.waitFor('the terminal back', (screen) => screen.includes('AFTER-1'));
    expect(first.screen()).toContain(`[session ${s.session} was ended]`);
    expect(first.show('#{alternate_on}')).toBe('0');
    expect(alive(serverPid!)).toBe(false);
  }, 120_000);

  it('a phone over ssh (45×20, then 60×30): one tile large and the others as rows, driven with plain keys', async () => {
    const s = session();
    const first = s.window(1, ['bash', 'sh -c "echo LONG-JOB; exec sleep 600"', 'printf FINISHED-JOB'], { cols: 140, rows: 36 });
    await first.waitFor('three tiles', (screen) => stateOf(screen, 3, 'printf') === 'done' && stateOf(screen, 1, 'bash') === 'idle', 30_000);
    first.keys('d');
    await first.until('detached', () => s.exitOf(1) !== null);

    const phone = s.window(2, ['attach'], { cols: 45, rows: 20 });
    for (const size of [{ cols: 45, rows: 20 }, { cols: 60, rows: 30 }]) {
      phone.resize(size.cols, size.rows);
      const screen = await phone.waitFor(`the rows layout at ${size.cols}×${size.rows}`, (text) => {
        const framed = text.split('\n').filter((l) => /^[╭┏] \d /.test(l));
        return framed.length === 1 && /^\s*[▸ ] 2 sh\b/m.test(text) && text.includes('3 tiles');
      });
      const lines = screen.split('\n');
      // The tile that needs you is the large one; the others are a line each, with their state.
      expect(lines.find((l) => /^[╭┏] \d /.test(l))).toMatch(/^[╭┏] 3 printf .*done/);
      expect(screen).toContain('FINISHED-JOB');
      expect(lines.find((l) => / 1 bash /.test(l))).toMatch(/idle/);
      expect(lines.find((l) => / 2 sh /.test(l))).toMatch(/working/);
      // Nothing is cut to a sliver: a row is its label, and its live last line only where it fits.
      for (const line of lines.filter((l) => / [12] (bash|sh) /.test(l))) expect(line).not.toMatch(/│\S{1,11}\s*$/);
    }
    // Plain keys a phone keyboard has: a digit selects, ⏎ focuses, typing reaches the tile.
    phone.keys('1');
    await phone.waitFor('tile 1 selected', (text) => /▸ 1 bash|[┏] 1 bash/.test(text));
    phone.keys('Enter');
    await phone.waitFor('focus on the shell', (text) => text.includes('FOCUS 1 bash'));
    phone.type('echo PHONE-$((40+2))');
    phone.keys('Enter');
    await phone.waitFor('the shell answered', (text) => text.includes('PHONE-42'));
  }, 120_000);

  it("a tile's pty takes the size that the grid of the client last typed in gives it", async () => {
    const s = session();
    const wide = s.window(1, ['bash'], { cols: 150, rows: 40 });
    await wide.waitFor('the tile', (screen) => stateOf(screen, 1, 'bash') === 'idle', 30_000);
    const narrow = s.window(2, ['attach'], { cols: 70, rows: 22 });
    await narrow.waitFor('the second client', (screen) => stateOf(screen, 1, 'bash') === 'idle');
    const sizeSaid = async (client: Tmux, n: number) => {
      client.keys('Enter');
      await client.waitFor('focus', (screen) => screen.includes('FOCUS 1 bash'));
      client.type(`echo SIZE-${n} $(stty size)`);
      client.keys('Enter');
      const screen = await client.waitFor(`the size, ${n}`, (text) => new RegExp(`^SIZE-${n} \\d+ \\d+`, 'm').test(text.replace(/^[│┃║] ?/gm, '')));
      client.keys('C-\\');
      const m = new RegExp(`SIZE-${n} (\\d+) (\\d+)`).exec(screen)!;
      return { rows: Number(m[1]), cols: Number(m[2]) };
    };
    const inNarrow = await sizeSaid(narrow, 1);
    const inWide = await sizeSaid(wide, 2);
    const again = await sizeSaid(narrow, 3);
    // Each time, the size of the tile in the grid typed in: the wide one's is larger.
    expect(inWide.cols).toBeGreaterThan(inNarrow.cols);
    expect(inWide.rows).toBeGreaterThan(inNarrow.rows);
    expect(again).toEqual(inNarrow);
    expect(inNarrow.cols).toBeLessThan(70);
  }, 120_000);

  it('two belltower started at once in one folder (one saying --server, the default) end on one server, both attached', async () => {
    const s = session();
    const one = s.window(1, ['bash'], { cols: 100, rows: 30 });
    const two = s.window(2, ['--server', 'bash'], { cols: 100, rows: 30 });
    await one.waitFor('the first client', (screen) => stateOf(screen, 1, 'bash') === 'idle', 30_000);
    await two.waitFor('the second client', (screen) => stateOf(screen, 1, 'bash') === 'idle', 30_000);
    await one.until('one server, two clients', () => /^\S+\s+\S+\s+1 tile \(1 idle\)\s+2 attached/m.test(s.cli('sessions').stdout), 20_000);
    expect(serverPids(s.state)).toHaveLength(1);
    // Neither started a second tile: the loser's server ended before starting anything.
    expect(Object.keys(states(s))).toEqual(['bash']);
    // And the one that lost said nothing about it: it simply attached.
    expect(readFileSync(join(s.work, 'stderr-1'), 'utf8') + readFileSync(join(s.work, 'stderr-2'), 'utf8')).toBe('');
  }, 120_000);

  it('a server that crashes tells its client why in one line, and where the details are', async () => {
    const s = session();
    // Only the server crashes (the launcher, which becomes its client, reads the same NODE_OPTIONS).
    const crash = join(s.work, 'crash.mjs');
    writeFileSync(crash, `if (process.argv.includes('--as-server')) setTimeout(() => { throw new Error('deliberate crash for the test'); }, 4000);\n`);
    s.env.NODE_OPTIONS = `--import ${crash}`;
    const first = s.window(1, ['sleep 600'], { cols: 100, rows: 30 });
    await first.until('the client to exit', () => s.exitOf(1) !== null, 60_000);
    expect(s.exitOf(1)).toBe(1);
    expect(readFileSync(join(s.work, 'stderr-1'), 'utf8')).toMatch(/crashed \(deliberate crash for the test\); the details are in .*belltower\.log/);
    expect(first.show('#{alternate_on}')).toBe('0');
  }, 120_000);

  it('a server killed with kill -9 is found stale, and the next start offers restore', async () => {
    const s = session();
    const first = s.window(1, ['bash'], { cols: 120, rows: 30 });
    await first.waitFor('the tile', (screen) => stateOf(screen, 1, 'bash') === 'idle', 30_000);
    // A restore needs what the server saved: killed before its first save, there is nothing to offer.
    const saved = join(s.state, 'workspaces', `${s.session}.json`);
    await first.until('the workspace saved', () => existsSync(saved) && readFileSync(saved, 'utf8').includes('"bash"'), 20_000);
    const [serverPid] = serverPids(s.state);
    process.kill(serverPid!, 'SIGKILL');
    await first.until('the client to exit', () => s.exitOf(1) !== null);
    expect(s.exitOf(1)).toBe(1);
    expect(readFileSync(join(s.work, 'stderr-1'), 'utf8')).toContain('went away');
    expect(first.show('#{alternate_on}')).toBe('0');

    const again = s.window(2, [], { cols: 120, rows: 30 });
    await again.waitFor('the restore question', (screen) => /Restore 1 tile/.test(screen), 20_000);
    again.keys('y', 'Enter');
    await again.waitFor('the restored tile', (screen) => {
      if (s.exitOf(2) !== null) {
        const log = join(s.state, 'log', 'belltower.log');
        const tail = existsSync(log) ? readFileSync(log, 'utf8').split('\n').slice(-15).join('\n') : '(no log)';
        throw new Error(`belltower --server exited with ${s.exitOf(2)}, saying: ${readFileSync(join(s.work, 'stderr-2'), 'utf8')}\nthe log's end:\n${tail}`);
      }
      return stateOf(screen, 1, 'bash') === 'idle';
    }, 30_000);
    expect(serverPids(s.state)).toHaveLength(1);
    expect(serverPids(s.state)[0]).not.toBe(serverPid);
    const all = s.cli('detach', '--all');
    expect(all.stdout).toBe(`detached 1 client from session ${s.session}\n`);
    await again.until('the client to exit', () => s.exitOf(2) !== null);
    expect(s.exitOf(2)).toBe(0);
    expect(s.cli('detach').stderr).toBe(`belltower: no client is attached to session "${s.session}"\n`);
  }, 120_000);
});
