/**
 * The built CLI's grid inside tmux, for end-to-end tests: start it with arguments in a fresh
 * window (the script records the terminal's modes before and after, and prints markers around the
 * run), wait for it to exit, and check the terminal was given back as it was.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { Tmux } from './tmux.js';
import { endServers } from './session-servers.js';
import { shellQuote as q } from './shell-quote.js';

const repo = join(import.meta.dirname, '..', '..');
const bin = join(repo, 'bin', 'belltower.js');
const sim = join(repo, 'demo', 'sim-agent.mjs');

const opened: Tmux[] = [];
const folders: string[] = [];

/** Close every window and remove every folder the tests opened (call it after each test). */
export function closeAll(): void {
  for (const t of opened.splice(0)) t.close();
  // A session server outlives its window by design: end the ones these tests started.
  endServers(folders.flatMap((f) => [f, join(f, 'state')]));
  // A belltower ended by the window's close may still be ending its tiles and saving its state
  // into the folder for seconds under load: what cannot go now goes once it has finished.
  for (const f of folders.splice(0)) {
    try {
      rmSync(f, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
    } catch {
      setTimeout(() => rmSync(f, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 }), 15_000).unref();
    }
  }
}

/** Remove `folder` with the others after the test. */
export function keepFolder(folder: string): string {
  folders.push(folder);
  return folder;
}


/** Start belltower with `args` in a fresh tmux window; the script records the terminal's modes
 * before and after, and prints markers around the run. */
export function start(args: string[], size = { cols: 160, rows: 45 }, node: string[] = [], options: { cwd?: string; env?: Record<string, string | undefined> } = {}): { tmux: Tmux; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'belltower-grid-'));
  folders.push(dir);
  const command = [
    `stty -a > ${dir}/stty-before`,
    `echo BEFORE-BELLTOWER`,
    `${q(process.execPath)} ${node.map(q).join(' ')} ${q(bin)} ${args.map(q).join(' ')} 2> ${dir}/stderr`,
    `echo "EXIT=$?" > ${dir}/exit`,
    `stty -a > ${dir}/stty-after`,
    `echo AFTER-BELLTOWER`,
    `sleep 600`,
  ].join('\n');
  const env: Record<string, string | undefined> = { ...process.env, CI: undefined, BELLTOWER_STATE_DIR: join(dir, 'state'), NO_COLOR: undefined, ...options.env };
  for (const name of Object.keys(env)) if (name.startsWith('VITEST') || name === 'NODE_OPTIONS') env[name] = undefined;
  const tmux = new Tmux({ ...size, command, env, cwd: options.cwd ?? repo });
  opened.push(tmux);
  return { tmux, dir };
}

/** A simulated agent as a command tile (named `node`, `node-2`, … after its command). */
export function simSpec(name: string, plan: string): string {
  return `${q(process.execPath)} ${q(sim)} ${name} ${plan}`;
}

function exitCode(dir: string): number | null {
  try {
    const m = /EXIT=(\d+)/.exec(readFileSync(join(dir, 'exit'), 'utf8'));
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

export async function exited(tmux: Tmux, dir: string): Promise<number> {
  await tmux.until('belltower to exit', () => exitCode(dir) !== null, 15_000);
  await tmux.waitFor('the script after belltower', (s) => s.includes('AFTER-BELLTOWER'));
  return exitCode(dir)!;
}

/** The terminal is as it was: main screen with what was there before, cursor shown, same modes. */
export function expectRestored(tmux: Tmux, dir: string): void {
  expect(tmux.show('#{alternate_on}')).toBe('0');
  expect(tmux.show('#{cursor_flag}')).toBe('1');
  const screen = tmux.screen();
  expect(screen).toContain('BEFORE-BELLTOWER');
  expect(readFileSync(join(dir, 'stty-after'), 'utf8')).toBe(readFileSync(join(dir, 'stty-before'), 'utf8'));
  // Nothing but frames reached the terminal while belltower ran.
  expect(readFileSync(join(dir, 'stderr'), 'utf8')).toBe('');
}

const TILE = /[╭┏╔] \d+ \S+ /;
export const headers = (screen: string) => screen.split('\n').flatMap((line) => line.match(new RegExp(TILE.source, 'g')) ?? []);


/** Press q (and y when belltower asks, because an agent is busy), then expect a clean exit with 0
 * and the terminal as it was. */
export async function quitCleanly(tmux: Tmux, dir: string): Promise<void> {
  tmux.keys('q');
  const quit = await tmux.waitFor('quit', (s) => s.includes('quit belltower?') || s.includes('AFTER-BELLTOWER'));
  if (quit.includes('quit belltower?')) tmux.keys('y');
  expect(await exited(tmux, dir)).toBe(0);
  expectRestored(tmux, dir);
}
