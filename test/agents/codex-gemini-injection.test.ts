import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readCodexNotify, tomlStringArray } from '../../src/agents/codex-config.js';
import { prepareCodexSession } from '../../src/agents/codex-injection.js';
import { prepareGeminiSession } from '../../src/agents/gemini-injection.js';
import { GEMINI_EVENTS, GeminiSettingsError, geminiSystemDefaultsPath } from '../../src/agents/gemini-settings.js';
import { parseJsonc } from '../../src/agents/jsonc.js';
import { HookServer } from '../../src/sources/hooks/hook-server.js';
import { waitFor } from '../transcript/wait-for.js';
import { runArgv, runHookCommand } from './run-command.js';

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

describe('prepareGeminiSession', () => {
  it('points GEMINI_CLI_SYSTEM_DEFAULTS_PATH at a 0600 file whose relay hooks reach the server', async () => {
    const env = { GEMINI_CLI_SYSTEM_SETTINGS_PATH: path.join(root, 'etc', 'settings.json') };
    const s = prepareGeminiSession({ ...base(), env, platform: 'linux' });
    disposers.push(s.dispose);
    expect(s.env.GEMINI_CLI_SYSTEM_DEFAULTS_PATH).toBe(s.settingsPath);
    expect(fs.statSync(s.settingsPath).mode & 0o777).toBe(0o600);
    const settings = JSON.parse(fs.readFileSync(s.settingsPath, 'utf8')) as { hooks: Record<string, { hooks: { command: string; timeout: number }[] }[]> };
    expect(Object.keys(settings.hooks).sort()).toEqual([...GEMINI_EVENTS].sort());
    const hook = settings.hooks.AfterAgent?.[0]?.hooks[0];
    expect(hook).toMatchObject({ name: 'belltower', type: 'command', timeout: 5000 });
    const afterAgent = { session_id: 'g', hook_event_name: 'AfterAgent', prompt_response: 'ok' };
    expect(await runHookCommand(hook?.command as string, JSON.stringify(afterAgent))).toBe(0);
    await waitFor(() => got.length === 1);
    expect(got[0]).toEqual({ event: 'AfterAgent', payload: afterAgent });
  });

  it('keeps what the original system-defaults file held (comments allowed), appending our hooks', () => {
    const original = path.join(root, 'etc', 'system-defaults.json');
    fs.mkdirSync(path.dirname(original));
    fs.writeFileSync(original, '{\n  // admin defaults\n  "ui": { "theme": "x" },\n  "hooks": { "AfterAgent": [ { "hooks": [ { "type": "command", "command": "audit" } ] }, ] },\n}\n');
    const env = { GEMINI_CLI_SYSTEM_SETTINGS_PATH: path.join(root, 'etc', 'settings.json') };
    expect(geminiSystemDefaultsPath(env, 'linux')).toBe(original);
    const s = prepareGeminiSession({ ...base(), env, platform: 'linux' });
    disposers.push(s.dispose);
    const settings = JSON.parse(fs.readFileSync(s.settingsPath, 'utf8')) as { ui: unknown; hooks: Record<string, { hooks: { command: string }[] }[]> };
    expect(settings.ui).toEqual({ theme: 'x' });
    expect(settings.hooks.AfterAgent?.map((g) => g.hooks[0]?.command)).toEqual(['audit', expect.stringContaining('relay.sh')]);
  });

  it('refuses a system-defaults file it cannot keep, leaving nothing registered', () => {
    const original = path.join(root, 'defaults.json');
    fs.writeFileSync(original, '{ broken');
    expect(() => prepareGeminiSession({ ...base(), env: { GEMINI_CLI_SYSTEM_DEFAULTS_PATH: original } })).toThrow(GeminiSettingsError);
    const s = prepareGeminiSession({ ...base(), env: {} , platform: 'linux' });
    disposers.push(s.dispose);
  });

  it('finds the system files where Gemini does on each platform', () => {
    expect(geminiSystemDefaultsPath({}, 'linux')).toBe('/etc/gemini-cli/system-defaults.json');
    expect(geminiSystemDefaultsPath({}, 'darwin')).toBe('/Library/Application Support/GeminiCli/system-defaults.json');
    expect(geminiSystemDefaultsPath({}, 'win32')).toBe('C:\\ProgramData\\gemini-cli\\system-defaults.json');
  });

  it('parses JSONC without touching strings', () => {
    expect(parseJsonc('{"a": "// not a comment, }", /* c */ "b": [1, 2,], }')).toEqual({ a: '// not a comment, }', b: [1, 2] });
    expect(parseJsonc('{"q": "say \\"hi\\" // x"}')).toEqual({ q: 'say "hi" // x' });
  });
});
