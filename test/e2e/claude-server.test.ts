/**
 * End to end: a session server with the real Claude Code (against the fake Anthropic API), a
 * shell and a command, driven in real terminals (tmux). The grid is detached with `d` in the
 * middle of Claude's turn; every tile's process runs on with the same pid; the turn ends while
 * nobody is attached and runs `--on-ring` with Claude's own words; a second window of another
 * size attaches and shows the same screens, the unseen done and what rang; with two clients
 * attached, the next turn rings both; closing one client's window leaves the server and tiles
 * running; a client of another protocol version gets its one line.
 *
 * Skips (with the reason) when the pinned CLI cannot be installed or tmux is missing.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import stringWidth from 'string-width';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sessionFromFolder } from '../../src/cli/session-name.js';
import { processRuns } from '../../src/platform/processes.js';
import { encode, WireDecoder } from '../../src/wire/wire-protocol.js';
import type { ServerMessage } from '../../src/wire/wire-protocol.js';
import { createClaudeHome } from '../support/claude-home.js';
import type { InstallResult } from '../support/claude-install.js';
import { BELLTOWER_BIN, claudeInTmux } from '../support/claude-in-tmux.js';
import { startFakeAnthropic, text } from '../support/fake-anthropic.js';
import { sleep } from '../support/fake-server.js';
import { stateOf, Tmux } from '../support/tmux.js';
import { shellQuote as q } from '../support/shell-quote.js';

let install: InstallResult = { ok: false, reason: 'not attempted' };
const cleanups: (() => void | Promise<void>)[] = [];

beforeAll(async () => {
  install = await claudeInTmux();
}, 15 * 60_000);

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Running, not a zombie (an ended process not yet collected still answers kill 0). */
const alive = (pid: number) => processRuns(pid);

/** The direct children of a process (the tiles' programs, for a session server). */
function childrenOf(pid: number): number[] {
  const out = execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' });
  return out
    .split('\n')
    .map((l) => Number(l.trim()))
    .filter((n) => n > 0)
    .sort((a, b) => a - b);
}

/**
 * The text inside tile `id`'s frame on a captured screen: the lines between its header and its
 * bottom border, cut to its columns, trailing blanks trimmed.
 */
function tileBody(screen: string, id: number, name: string): string[] {
  const lines = screen.split('\n');
  const top = lines.findIndex((l) => new RegExp(`[╭┏] ${id} ${name} `).test(l));
  if (top < 0) return [];
  // By terminal columns: a wide character (Claude draws some) takes two.
  const cellsOf = (line: string) => [...line].flatMap((c) => (stringWidth(c) === 2 ? [c, ''] : [c]));
  const chars = cellsOf(lines[top]!);
  const left = chars.findIndex((c, i) => (c === '╭' || c === '┏') && chars.slice(i).join('').startsWith(`${c} ${id} ${name} `));
  const right = chars.findIndex((c, i) => i > left && (c === '╮' || c === '┓'));
  const body: string[] = [];
  for (let row = top + 1; row < lines.length; row++) {
    const cells = cellsOf(lines[row]!);
    const edge = cells[left];
    if (edge === '╰' || edge === '┗' || edge === undefined) break;
    body.push(cells.slice(left + 1, right).join('').trimEnd());
  }
  return body;
}

/** A tile's text without its line breaks and blanks: what stays the same when it is rewrapped. */
const flat = (body: string[]) => body.join('').replace(/\s+/g, '');

describe('a session server with the real Claude Code (tmux)', () => {
  it('detached mid-turn: same pids, --on-ring with Claude\'s words, attach elsewhere shows it all, two clients ring', async (ctx) => {
    if (!install.ok) return ctx.skip(install.reason);
    const api = await startFakeAnthropic({
      script: [text('The first answer, written while you were away.', { firstByteDelayMs: 5_000 }), text('The second answer.', { firstByteDelayMs: 1_000 })],
    });
    cleanups.push(() => api.close());
    const home = createClaudeHome({ baseUrl: api.url });
    cleanups.push(() => home.cleanup());
    const state = mkdtempSync(join(tmpdir(), 'bt-claude-server-'));
    cleanups.push(() => rmSync(state, { recursive: true, force: true }));
    const work = home.cwd;
    const session = sessionFromFolder(work);
    writeFileSync(join(work, 'job.sh'), 'echo JOB-RUNNING\nexec sleep 600\n');
    const env: Record<string, string | undefined> = { ...home.env, BELLTOWER_CLAUDE_BIN: install.bin, BELLTOWER_STATE_DIR: state, CI: undefined, SHELL: '/bin/sh', NO_COLOR: undefined };
    for (const name of Object.keys(env)) if (name.startsWith('VITEST') || name === 'NODE_OPTIONS') env[name] = undefined;
    const cli = (...args: string[]) => spawnSync(process.execPath, [BELLTOWER_BIN, ...args], { cwd: work, env: env as NodeJS.ProcessEnv, encoding: 'utf8', timeout: 30_000 });
    const windows: Tmux[] = [];
    const window = (n: number, args: string[], size: { cols: number; rows: number }) => {
      const command = [`${q(process.execPath)} ${q(BELLTOWER_BIN)} ${args.map(q).join(' ')} 2> ${q(join(state, `stderr-${n}`))}`, `echo "EXIT=$?" > ${q(join(state, `exit-${n}`))}`, 'sleep 600'].join('\n');
      const tmux = new Tmux({ ...size, command, env, cwd: work });
      windows.push(tmux);
      return tmux;
    };
    const exitOf = (n: number) => {
      const file = join(state, `exit-${n}`);
      return existsSync(file) ? Number(/EXIT=(\d+)/.exec(readFileSync(file, 'utf8'))?.[1]) : null;
    };
    cleanups.push(async () => {
      for (const t of windows) t.close();
      cli('kill-session');
      const dir = join(state, 'run', 'attach');
      for (const f of existsSync(dir) ? readdirSync(dir).filter((x) => x.endsWith('.json')) : []) {
        const pid = (JSON.parse(readFileSync(join(dir, f), 'utf8')) as { pid: number }).pid;
        if (alive(pid)) process.kill(pid, 'SIGKILL');
      }
    });

    const onRing = 'printf "%s|%s|%s|%s\\n" "$BELLTOWER_TILE" "$BELLTOWER_NAME" "$BELLTOWER_STATE" "$BELLTOWER_MESSAGE" >> rang.txt';
    const first = window(1, ['--on-ring', onRing, 'claude', 'bash', 'sh job.sh'], { cols: 150, rows: 40 });
    await first.waitFor('three tiles at rest', (s) => stateOf(s, 1, 'claude') === 'idle' && stateOf(s, 2, 'bash') === 'idle' && s.includes('JOB-RUNNING'), 60_000);
    const serverPid = (JSON.parse(readFileSync(join(state, 'run', 'attach', `${session}.json`), 'utf8')) as { pid: number }).pid;
    const tilePids = childrenOf(serverPid);
    expect(tilePids.length).toBeGreaterThanOrEqual(3);

    // Something in the shell to find again later.
    first.keys('2', 'Enter');
    await first.waitFor('focus on the shell', (s) => s.includes('FOCUS 2 bash'));
    first.type('echo MARK-$((6*7))');
    first.keys('Enter');
    await first.waitFor('the shell answered', (s) => s.includes('MARK-42'));
    first.keys('C-\\');
    await first.waitFor('back in the grid', (s) => !s.includes('FOCUS 2 bash'));

    // A turn, then d while Claude still works on it.
    first.keys('1', 'Enter');
    await first.waitFor('focus on claude', (s) => s.includes('FOCUS 1 claude'));
    await sleep(600); // belltower's first idle comes a moment before Claude's input box takes an Enter
    first.type('Say something while I am away');
    await sleep(150); // Claude reads text and Enter in one write as a paste
    first.keys('Enter');
    await first.waitFor('working', (s) => stateOf(s, 1, 'claude') === 'working', 20_000);
    const before = { shell: flat(tileBody(first.screen(), 2, 'bash')) };
    expect(before.shell).toContain('MARK-42');
    first.keys('C-\\');
    await first.waitFor('back in the grid', (s) => !s.includes('FOCUS 1 claude'));
    first.keys('d');
    await first.until('the client to detach', () => exitOf(1) !== null);
    expect(exitOf(1)).toBe(0);
    expect(first.show('#{alternate_on}')).toBe('0');

    // Nobody is attached when the turn ends: --on-ring runs, with Claude's own words.
    const rang = join(work, 'rang.txt');
    await first.until('the on-ring command', () => existsSync(rang) && readFileSync(rang, 'utf8').includes('\n'), 60_000);
    const [tile, name, verdict, message] = readFileSync(rang, 'utf8').trim().split('|');
    expect([tile, name, verdict]).toEqual(['1', 'claude', 'done']);
    expect(message).toContain('The first answer, written while you were away.');
    // Every tile's process ran on through it, with the same pid.
    expect(childrenOf(serverPid)).toEqual(tilePids);
    for (const pid of tilePids) expect(alive(pid)).toBe(true);

    // Another window, another size: the same screens, the unseen done, and what rang.
    const second = window(2, ['attach'], { cols: 110, rows: 34 });
    const seen = await second.waitFor('attached', (s) => stateOf(s, 1, 'claude') === 'done' && s.includes('while away: 1 claude done'), 20_000);
    // The shell's pty now has this client's tile width, and its lines were rewrapped to it (as a
    // terminal reflows on a resize): the same text, cut at other columns.
    expect(flat(tileBody(seen, 2, 'bash'))).toBe(before.shell);
    expect(seen).toContain('JOB-RUNNING');
    // Claude redraws its screen for the new tile size when it gets to it: wait for that.
    await second.waitFor("Claude's answer, redrawn at this size", (s) => tileBody(s, 1, 'claude').join('\n').includes('The first answer'), 20_000);
    expect(second.bells()).toBe(0);

    // Two clients: the next turn rings both.
    const third = window(3, ['attach'], { cols: 150, rows: 40 });
    await third.waitFor('the third client', (s) => stateOf(s, 1, 'claude') === 'done', 20_000);
    third.keys('1', 'Enter');
    await third.waitFor('focus on claude', (s) => s.includes('FOCUS 1 claude'));
    third.type('And once more');
    await sleep(150);
    third.keys('Enter');
    await second.waitFor('the second client sees it work', (s) => stateOf(s, 1, 'claude') === 'working', 20_000);
    third.keys('C-\\');
    await second.until('a bell in the second window', () => second.bells() === 1, 60_000);
    await third.until('a bell in the third window', () => third.bells() === 1, 20_000);
    expect(readFileSync(rang, 'utf8').trim().split('\n')).toHaveLength(1); // someone was attached

    // Closing a client's window (tmux kill-pane) leaves the server and every tile running.
    second.tmux('kill-pane', '-t', 'main');
    await third.until('one client left', () => /3 tiles .*1 attached/.test(cli('sessions').stdout), 20_000);
    expect(childrenOf(serverPid)).toEqual(tilePids);

    // A client of another protocol version gets one line saying so.
    const refused = await new Promise<ServerMessage[]>((resolve, reject) => {
      const socket = createConnection(join(state, 'run', 'attach', `${session}.sock`));
      const decoder = new WireDecoder('server');
      const got: ServerMessage[] = [];
      socket.on('connect', () => socket.write(encode({ type: 'hello', wire: 99, version: '99.0.0', cols: 80, rows: 24, env: {}, options: {} })));
      socket.on('data', (chunk: Buffer) => got.push(...(decoder.push(chunk) as ServerMessage[])));
      socket.on('close', () => resolve(got));
      socket.on('error', reject);
    });
    expect(refused).toHaveLength(1);
    expect(refused[0]?.type).toBe('refused');
    expect(refused[0]?.type === 'refused' ? refused[0].message : '').toMatch(/^this belltower \(99\.0\.0\) cannot attach to the server of session .* run the same belltower as the server, or end the session with `belltower kill-session /);

    // q in the last client ends the session.
    third.keys('q');
    const asked = await third.waitFor('quit', (s) => s.includes('quit belltower?') || exitOf(3) !== null);
    if (asked.includes('quit belltower?')) third.keys('y');
    await third.until('the client to exit', () => exitOf(3) !== null, 20_000);
    expect(exitOf(3)).toBe(0);
    await third.until('the server to end', () => !alive(serverPid), 20_000);
    for (const pid of tilePids) await third.until(`tile process ${pid} to end`, () => !alive(pid), 20_000);
  }, 240_000);
});
