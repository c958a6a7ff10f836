import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readCodexNotify, tomlStringArray } from '../../src/agents/codex-config.js';
import { prepareCodexSession } from '../../src/agents/codex-injection.js';
import { HookServer } from '../../src/sources/hooks/hook-server.js';
import { waitFor } from '../transcript/wait-for.js';
import { runArgv } from './run-command.js';

let root: string;
let server: HookServer;
let got: { event: string; payload: Record<string, unknown> }[];
const disposers: (() => void)[] = [];
const base = () => ({
  stateDir: path.join(root, 'state'),
  server,
  tileKey: 'tile-x',
  onHook: (_tile: string, event: string, payload: Record<string, unknown>) => got.push({ event, payload }),
});

beforeEach(async () => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'bt-inject-')));
  server = await HookServer.start();
  got = [];
});
afterEach(async () => {
  for (const d of disposers.splice(0)) d();
  await server.close();
  fs.rmSync(root, { recursive: true, force: true });
});

/** The program and arguments of `-c notify=[…]` (the value is a TOML array of basic strings, JSON-compatible). */
const notifyArgv = (args: string[]) => JSON.parse((args[1] ?? '').replace(/^notify=/, '')) as string[];

describe('prepareCodexSession', () => {
  const turn = { type: 'agent-turn-complete', 'thread-id': 't1', 'input-messages': ['hi'], 'last-assistant-message': 'done' };

  it('points notify at the relay, whose argv payload reaches the server as event "notify"', async () => {
    const s = prepareCodexSession({ ...base(), codexHome: path.join(root, 'codex-home') });
    disposers.push(s.dispose);
    expect(s.args[0]).toBe('-c');
    const argv = notifyArgv(s.args);
    expect(argv.slice(0, 1)).toEqual(['sh']);
    expect(argv.slice(2)).toEqual(['--event', 'notify', '--arg']);
    expect(s.chained).toBeUndefined();
    expect(await runArgv([...argv, JSON.stringify(turn)])).toBe(0);
    await waitFor(() => got.length === 1);
    expect(got[0]).toEqual({ event: 'notify', payload: turn });
  });

  it("chains to the user's own notify from config.toml, with the same JSON argument", async () => {
    const home = path.join(root, 'codex-home');
    const out = path.join(root, 'user-notify.out');
    fs.mkdirSync(home);
    fs.writeFileSync(home + '/config.toml', `model = "x"\nnotify = [\n  "sh", # the shell\n  "-c", 'printf %s "$1" > ${out}', "user-notify"\n]\n[profiles.a]\nnotify = ["no"]\n`);
    const s = prepareCodexSession({ ...base(), codexHome: home });
    disposers.push(s.dispose);
    expect(s.chained).toEqual(['sh', '-c', `printf %s "$1" > ${out}`, 'user-notify']);
    expect(await runArgv([...notifyArgv(s.args), JSON.stringify(turn)])).toBe(0);
    await waitFor(() => got.length === 1 && fs.existsSync(out) && fs.readFileSync(out, 'utf8').length > 0);
    expect(JSON.parse(fs.readFileSync(out, 'utf8'))).toEqual(turn);
  });

  it('reads only a top-level notify array of strings', () => {
    expect(readCodexNotify('notify = ["a", "b\\"q\\u00e9"]')).toEqual(['a', 'b"qé']);
    expect(readCodexNotify("notify=['lit\\eral']")).toEqual(['lit\\eral']);
    expect(readCodexNotify('[tui]\nnotify = ["a"]')).toBeUndefined();
    expect(readCodexNotify('notify = "a"')).toBeUndefined();
    expect(readCodexNotify('notify = [1]')).toBeUndefined();
    expect(readCodexNotify('model = "x"')).toBeUndefined();
    expect(tomlStringArray(['sh', 'C:\\a "b"'])).toBe('["sh", "C:\\\\a \\"b\\""]');
  });
});
