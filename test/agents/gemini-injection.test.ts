import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GeminiHooksOff, geminiChatTarget, geminiUserHome, prepareGeminiSession } from '../../src/agents/gemini-injection.js';
import { GEMINI_EVENTS, GeminiSettingsError } from '../../src/agents/gemini-settings.js';
import { geminiTrust } from '../../src/agents/gemini-trust.js';
import { parseJsonc } from '../../src/agents/jsonc.js';
import { HookServer } from '../../src/sources/hooks/hook-server.js';
import { waitFor } from '../transcript/wait-for.js';
import { runHookCommand } from './run-command.js';

let root: string;
let home: string;
let real: string;
let project: string;
let server: HookServer;
let got: { event: string; payload: Record<string, unknown> }[];
const disposers: (() => void)[] = [];

beforeEach(async () => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'bt-gemini-')));
  home = path.join(root, 'home');
  real = path.join(home, '.gemini');
  project = path.join(root, 'project');
  fs.mkdirSync(real, { recursive: true });
  fs.mkdirSync(project);
  server = await HookServer.start();
  got = [];
});
afterEach(async () => {
  for (const d of disposers.splice(0)) d();
  await server.close();
  fs.rmSync(root, { recursive: true, force: true });
});

function prepare(env: NodeJS.ProcessEnv = { HOME: home }, cwd = project) {
  const session = prepareGeminiSession({
    stateDir: path.join(root, 'state'),
    server,
    tileKey: 'tile-g',
    onHook: (_tile, event, payload) => got.push({ event, payload }),
    cwd,
    env,
    platform: 'linux',
  });
  disposers.push(session.dispose);
  return session;
}

type Settings = { ui?: unknown; hooks: Record<string, { hooks: { command: string; timeout?: number; name?: string; type?: string }[] }[]> };
const read = (file: string) => JSON.parse(fs.readFileSync(file, 'utf8')) as Settings;
const sha = (file: string) => createHash('sha256').update(fs.readFileSync(file)).digest('hex');

describe('prepareGeminiSession: a Gemini home of the tile', () => {
  it('points GEMINI_CLI_HOME at a private home whose 0600 settings carry relay hooks that reach the server', async () => {
    const s = prepare();
    expect(s.env.GEMINI_CLI_HOME).toBe(s.home);
    expect(s.settingsPath).toBe(path.join(s.home, '.gemini', 'settings.json'));
    expect(fs.statSync(s.settingsPath).mode & 0o777).toBe(0o600);
    expect(fs.statSync(s.home).mode & 0o777).toBe(0o700);
    const settings = read(s.settingsPath);
    expect(Object.keys(settings.hooks).sort()).toEqual([...GEMINI_EVENTS].sort());
    const hook = settings.hooks.AfterAgent?.[0]?.hooks[0];
    expect(hook).toMatchObject({ name: 'belltower', type: 'command', timeout: 5000 });
    const afterAgent = { session_id: 'g', hook_event_name: 'AfterAgent', prompt_response: 'ok' };
    expect(await runHookCommand(hook?.command as string, JSON.stringify(afterAgent))).toBe(0);
    await waitFor(() => got.length === 1);
    expect(got[0]).toEqual({ event: 'AfterAgent', payload: afterAgent });
  });

  it("keeps the user's settings (comments allowed) and hooks, appends ours, and never writes the user's file", () => {
    const user = path.join(real, 'settings.json');
    fs.writeFileSync(user, '{\n  // mine\n  "ui": { "theme": "x" },\n  "hooks": { "AfterAgent": [ { "hooks": [ { "type": "command", "command": "audit" } ] }, ] },\n}\n');
    const before = sha(user);
    const s = prepare();
    const settings = read(s.settingsPath);
    expect(settings.ui).toEqual({ theme: 'x' });
    expect(settings.hooks.AfterAgent?.map((g) => g.hooks[0]?.command)).toEqual(['audit', expect.stringContaining('relay.sh')]);
    s.dispose();
    expect(sha(user)).toBe(before);
    expect(fs.lstatSync(user).isFile()).toBe(true);
  });

  it("links every other entry back to the user's .gemini, and files Gemini makes later too", () => {
    fs.writeFileSync(path.join(real, 'oauth_creds.json'), '{}');
    fs.mkdirSync(path.join(real, 'extensions'));
    fs.writeFileSync(path.join(real, 'GEMINI.md'), '# memory');
    fs.writeFileSync(path.join(home, '.env'), 'A=1');
    const s = prepare();
    const own = path.join(s.home, '.gemini');
    for (const name of ['oauth_creds.json', 'extensions', 'GEMINI.md', 'tmp', 'history', 'state.json', 'installation_id']) {
      expect(fs.lstatSync(path.join(own, name)).isSymbolicLink(), name).toBe(true);
      expect(fs.readlinkSync(path.join(own, name))).toBe(path.join(real, name));
    }
    expect(fs.readlinkSync(path.join(s.home, '.env'))).toBe(path.join(home, '.env'));
    expect(fs.existsSync(path.join(s.home, '.agents'))).toBe(false); // never a link to a missing folder
    // The folders Gemini creates on first use exist for real: a dangling folder link crashes it.
    expect(fs.statSync(path.join(real, 'tmp')).isDirectory()).toBe(true);
    // A file created through a link lands in the real folder.
    fs.writeFileSync(path.join(own, 'state.json'), '{"x":1}');
    expect(fs.readFileSync(path.join(real, 'state.json'), 'utf8')).toBe('{"x":1}');
  });

  it('removing the tile removes the links, never what they point at', () => {
    fs.mkdirSync(path.join(real, 'extensions'));
    fs.writeFileSync(path.join(real, 'extensions', 'keep.json'), '{}');
    fs.writeFileSync(path.join(real, 'oauth_creds.json'), '{}');
    const s = prepare();
    s.dispose();
    expect(fs.existsSync(s.home)).toBe(false);
    expect(fs.readFileSync(path.join(real, 'extensions', 'keep.json'), 'utf8')).toBe('{}');
    expect(fs.existsSync(path.join(real, 'oauth_creds.json'))).toBe(true);
  });

  it("keeps trust answers in the user's trust file (or the one the user set)", () => {
    const first = prepare();
    expect(first.env.GEMINI_CLI_TRUSTED_FOLDERS_PATH).toBe(path.join(real, 'trustedFolders.json'));
    first.dispose();
    const own = path.join(root, 'trust.json');
    expect(prepare({ HOME: home, GEMINI_CLI_TRUSTED_FOLDERS_PATH: own }).env.GEMINI_CLI_TRUSTED_FOLDERS_PATH).toBe(own);
  });

  it("uses the user's GEMINI_CLI_HOME as the real one when set", () => {
    const other = path.join(root, 'other-home');
    fs.mkdirSync(path.join(other, '.gemini'), { recursive: true });
    fs.writeFileSync(path.join(other, '.gemini', 'settings.json'), '{"ui":{"theme":"other"}}');
    expect(geminiUserHome({ HOME: home, GEMINI_CLI_HOME: other }, 'linux')).toBe(other);
    const s = prepare({ HOME: home, GEMINI_CLI_HOME: other });
    expect(read(s.settingsPath).ui).toEqual({ theme: 'other' });
    expect(fs.readlinkSync(path.join(s.home, '.gemini', 'tmp'))).toBe(path.join(other, '.gemini', 'tmp'));
  });
});

describe('prepareGeminiSession: where there are no hooks to claim', () => {
  it('a tile in the home folder itself: Gemini would read the real settings as the workspace', () => {
    expect(() => prepare({ HOME: home }, home)).toThrow(GeminiHooksOff);
    expect(fs.existsSync(path.join(root, 'state', 'sessions')) ? fs.readdirSync(path.join(root, 'state', 'sessions')) : []).toEqual([]);
  });

  it('a folder the user chose not to trust: Gemini runs no settings hook there', () => {
    fs.writeFileSync(path.join(real, 'trustedFolders.json'), JSON.stringify({ [project]: 'DO_NOT_TRUST' }));
    expect(() => prepare()).toThrow(/chose not to trust/);
  });

  it('settings Gemini itself could not read: refused with the file named, nothing left registered', () => {
    fs.writeFileSync(path.join(real, 'settings.json'), '{ broken');
    expect(() => prepare()).toThrow(GeminiSettingsError);
    fs.writeFileSync(path.join(real, 'settings.json'), '{"hooks": {"AfterAgent": "no"}}');
    expect(() => prepare()).toThrow(/hooks.AfterAgent/);
    fs.rmSync(path.join(real, 'settings.json'));
    prepare(); // the tile key is free again
  });
});

describe("Gemini's folder trust", () => {
  const base = { cwd: '/w/app/src', folderTrustEnabled: true, env: {}, canonical: (p: string) => p };
  it('the longest matching rule decides; TRUST_PARENT covers the parent of its folder', () => {
    expect(geminiTrust({ ...base, rules: { '/w': 'DO_NOT_TRUST', '/w/app': 'TRUST_FOLDER' } })).toBe('trusted');
    expect(geminiTrust({ ...base, rules: { '/w': 'TRUST_FOLDER', '/w/app': 'DO_NOT_TRUST' } })).toBe('untrusted');
    expect(geminiTrust({ ...base, rules: { '/w/app/x': 'TRUST_PARENT' } })).toBe('trusted');
    expect(geminiTrust({ ...base, rules: { '/w/ap': 'TRUST_FOLDER' } })).toBe('unknown');
  });
  it('folder trust off, or the environment, overrides the file', () => {
    expect(geminiTrust({ ...base, rules: { '/w': 'DO_NOT_TRUST' }, folderTrustEnabled: false })).toBe('trusted');
    expect(geminiTrust({ ...base, rules: { '/w': 'TRUST_FOLDER' }, env: { GEMINI_CLI_TRUST_WORKSPACE: 'false' } })).toBe('untrusted');
    expect(geminiTrust({ ...base, rules: {}, env: { GEMINI_CLI_TRUST_WORKSPACE: 'true' } })).toBe('trusted');
  });
});

describe("Gemini's chat file", () => {
  it('is named by SessionStart (a new one after /clear); a resumed session is read from now on', () => {
    expect(geminiChatTarget('SessionStart', { transcript_path: '/h/.gemini/tmp/p/chats/session-a.jsonl', source: 'startup' })).toEqual({ path: '/h/.gemini/tmp/p/chats/session-a.jsonl', fromStart: true });
    expect(geminiChatTarget('SessionStart', { transcript_path: '/h/chats/b.jsonl', source: 'resume' })).toEqual({ path: '/h/chats/b.jsonl', fromStart: false });
    expect(geminiChatTarget('AfterAgent', { transcript_path: '/h/chats/c.jsonl' })).toBeUndefined();
  });
});

describe('JSONC', () => {
  it('parses comments and trailing commas without touching strings', () => {
    expect(parseJsonc('{"a": "// not a comment, }", /* c */ "b": [1, 2,], }')).toEqual({ a: '// not a comment, }', b: [1, 2] });
    expect(parseJsonc('{"q": "say \\"hi\\" // x"}')).toEqual({ q: 'say "hi" // x' });
  });
});
