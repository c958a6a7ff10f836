import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { prepareClaudeSession, type ClaudeSession } from '../../src/agents/claude-injection.js';
import { claudeConfigDir, claudeProjectDirName } from '../../src/agents/claude-paths.js';
import { CLAUDE_EVENT_SINCE, claudeEventsFor } from '../../src/agents/claude-hook-events.js';
import { CLAUDE_COMMAND_ONLY_EVENTS, CLAUDE_HTTP_EVENTS } from '../../src/agents/claude-settings.js';
import { ClaudeSettingsError } from '../../src/agents/claude-settings.js';
import { HookServer } from '../../src/sources/hooks/hook-server.js';
import { bearer, post } from '../hooks/http-client.js';
import { waitFor } from '../transcript/wait-for.js';
import { runHookCommand } from './run-command.js';

interface Settings {
  hooks: Record<string, { matcher?: string; hooks: { type: string; url?: string; headers?: Record<string, string>; command?: string; timeout: number }[] }[]>;
  [key: string]: unknown;
}

describe('prepareClaudeSession', () => {
  let root: string;
  let server: HookServer;
  let got: { tile: string; event: string; payload: Record<string, unknown> }[];
  let sessions: ClaudeSession[];

  const prepare = (extra: Partial<Parameters<typeof prepareClaudeSession>[0]> = {}) => {
    const session = prepareClaudeSession({
      stateDir: path.join(root, 'state'),
      server,
      tileKey: 'tile-c',
      onHook: (tile, event, payload) => got.push({ tile, event, payload }),
      cwd: path.join(root, 'work app'),
      configDir: path.join(root, '.claude'),
      version: '2.1.332',
      ...extra,
    });
    sessions.push(session);
    return session;
  };
  const settingsOf = (s: ClaudeSession) => JSON.parse(fs.readFileSync(s.settingsPath, 'utf8')) as Settings;

  beforeEach(async () => {
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'bt-claude-')));
    fs.mkdirSync(path.join(root, 'work app'));
    server = await HookServer.start();
    got = [];
    sessions = [];
  });
  afterEach(async () => {
    for (const s of sessions) s.dispose();
    await server.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('passes --settings and --session-id, and knows the transcript path before the first hook', () => {
    const s = prepare({ sessionId: '11111111-2222-4333-8444-555555555555' });
    expect(s.args).toEqual(['--settings', s.settingsPath, '--session-id', '11111111-2222-4333-8444-555555555555']);
    const dashed = path.join(root, 'work app').replace(/[^a-zA-Z0-9]/g, '-');
    expect(s.transcriptPath).toBe(path.join(root, '.claude', 'projects', dashed, '11111111-2222-4333-8444-555555555555.jsonl'));
    expect(prepare({ tileKey: 'tile-d' }).sessionId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('writes a 0600 settings file in a 0700 folder, token nowhere but there and the relay', () => {
    const s = prepare();
    const dir = path.dirname(s.settingsPath);
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
    for (const name of fs.readdirSync(dir)) expect(fs.statSync(path.join(dir, name)).mode & 0o777, name).toBe(0o600);
    expect(s.args.join(' ')).not.toMatch(/[0-9a-f]{64}/);
    expect(JSON.stringify(s.env)).not.toMatch(/[0-9a-f]{64}/);
  });

  it('adds an HTTP hook for every HTTP-capable event and a command relay for SessionStart', () => {
    const settings = settingsOf(prepare());
    expect(Object.keys(settings)).toEqual(['hooks']); // we only add hooks
    for (const event of CLAUDE_HTTP_EVENTS) {
      const [group] = settings.hooks[event] ?? [];
      expect(group?.hooks).toEqual([
        { type: 'http', url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/hook\/tile-c$/), headers: { Authorization: expect.stringMatching(/^Bearer [0-9a-f]{64}$/) }, timeout: 5 },
      ]);
    }
    expect(settings.hooks.SessionStart?.[0]?.hooks).toEqual([{ type: 'command', command: expect.stringMatching(/^sh '.*relay\.sh'$/), timeout: 5 }]);
  });

  it('registers only the events the Claude version accepts (an unknown one makes Claude reject the whole file)', () => {
    // Observed: 2.1.62 and 2.1.70 show "Settings Error … PostCompact: Invalid key in record,
    // StopFailure: Invalid key in record" for belltower's full set; 2.1.332 takes every event.
    const all = [...CLAUDE_HTTP_EVENTS, 'SessionStart'].sort();
    expect(Object.keys(settingsOf(prepare()).hooks).sort()).toEqual(all);
    sessions.pop()?.dispose();
    const old = Object.keys(settingsOf(prepare({ version: '2.1.70' })).hooks).sort();
    expect(old).toEqual(all.filter((e) => e !== 'PostCompact' && e !== 'StopFailure'));
    sessions.pop()?.dispose();
    // Unknown version: what every 2.x takes.
    const unknown = Object.keys(settingsOf(prepare({ version: undefined })).hooks);
    expect(unknown).not.toContain('StopFailure');
    expect(unknown).toEqual(expect.arrayContaining(['UserPromptSubmit', 'Stop', 'PreToolUse', 'PostToolUse', 'SessionStart', 'SessionEnd', 'PreCompact', 'SubagentStop']));
  });

  it('sends every event through the relay where Claude runs no HTTP hooks (before 2.1.63, or unknown)', () => {
    for (const version of ['2.1.62', undefined]) {
      const hooks = settingsOf(prepare({ version })).hooks;
      expect(hooks.Stop?.[0]?.hooks[0]).toMatchObject({ type: 'command', command: expect.stringMatching(/relay\.sh/) });
      sessions.pop()?.dispose();
    }
    expect(settingsOf(prepare({ version: '2.1.63' })).hooks.Stop?.[0]?.hooks[0]).toMatchObject({ type: 'http' });
  });

  it('knows since when Claude accepts every event it registers', () => {
    for (const event of [...CLAUDE_HTTP_EVENTS, ...CLAUDE_COMMAND_ONLY_EVENTS]) expect(CLAUDE_EVENT_SINCE[event], event).toBeDefined();
    expect(claudeEventsFor('2.1.78', ['StopFailure', 'PostCompact'])).toEqual(['StopFailure', 'PostCompact']);
    expect(claudeEventsFor('2.1.77', ['StopFailure', 'PostCompact'])).toEqual(['PostCompact']);
    // Notification came with the first hooks (1.0.128 fires it at a permission dialog, its only
    // word for one); PermissionRequest only with 2.0.45.
    expect(claudeEventsFor('1.0.128', ['Notification', 'PermissionRequest', 'Stop'])).toEqual(['Notification', 'Stop']);
  });

  it('its hooks reach the server: an HTTP hook as Claude sends it, and SessionStart through the relay', async () => {
    const s = prepare();
    const settings = settingsOf(s);
    const stopHook = settings.hooks.Stop?.[0]?.hooks[0];
    const stop = { session_id: s.sessionId, transcript_path: s.transcriptPath, cwd: root, hook_event_name: 'Stop', background_tasks: [] };
    const reply = await post(stopHook?.url as string, JSON.stringify(stop), stopHook?.headers);
    expect(reply).toMatchObject({ status: 200, body: '{}' });
    const start = { session_id: s.sessionId, transcript_path: s.transcriptPath, cwd: root, hook_event_name: 'SessionStart', source: 'startup' };
    expect(await runHookCommand(settings.hooks.SessionStart?.[0]?.hooks[0]?.command as string, JSON.stringify(start))).toBe(0);
    await waitFor(() => got.length === 2);
    expect(got).toEqual([
      { tile: 'tile-c', event: 'Stop', payload: stop },
      { tile: 'tile-c', event: 'SessionStart', payload: start },
    ]);
  });

  it('transport "relay" sends every event through the command relay', async () => {
    const s = prepare({ transport: 'relay' });
    const settings = settingsOf(s);
    const command = settings.hooks.UserPromptSubmit?.[0]?.hooks[0];
    expect(command?.type).toBe('command');
    const prompt = { session_id: s.sessionId, hook_event_name: 'UserPromptSubmit', prompt: 'hi' };
    expect(await runHookCommand(command?.command as string, JSON.stringify(prompt))).toBe(0);
    await waitFor(() => got.length === 1);
    expect(got[0]?.event).toBe('UserPromptSubmit');
  });

  it("merges the user's own --settings file: their keys and hooks kept, ours appended", () => {
    const user = path.join(root, 'mine.json');
    const theirs = { command: 'notify-send done' };
    fs.writeFileSync(user, JSON.stringify({ model: 'opus', permissions: { allow: ['Bash'] }, hooks: { Stop: [{ hooks: [{ type: 'command', ...theirs }] }], Custom: [] } }));
    const settings = settingsOf(prepare({ userSettingsPath: user }));
    expect(settings.model).toBe('opus');
    expect(settings.permissions).toEqual({ allow: ['Bash'] });
    expect(settings.hooks.Custom).toEqual([]);
    expect(settings.hooks.Stop?.[0]?.hooks[0]).toEqual({ type: 'command', ...theirs });
    expect(settings.hooks.Stop?.[1]?.hooks[0]?.type).toBe('http');
  });

  it('refuses an unreadable user settings file with an actionable error, leaving nothing behind', async () => {
    const bad = path.join(root, 'bad.json');
    fs.writeFileSync(bad, '{ nope');
    expect(() => prepare({ userSettingsPath: bad })).toThrow(ClaudeSettingsError);
    expect(() => prepare({ userSettingsPath: path.join(root, 'missing.json') })).toThrow(/cannot read/);
    // The tile key is free again, and no folder was left.
    const s = prepare();
    expect(fs.readdirSync(path.join(root, 'state', 'sessions'))).toEqual([path.basename(path.dirname(s.settingsPath))]);
  });

  it('dispose() removes the folder and closes the hook session', async () => {
    const s = prepare();
    const settings = settingsOf(s);
    const hook = settings.hooks.Stop?.[0]?.hooks[0];
    s.dispose();
    s.dispose();
    expect(fs.existsSync(path.dirname(s.settingsPath))).toBe(false);
    const token = (hook?.headers?.Authorization ?? '').replace('Bearer ', '');
    expect((await post(hook?.url as string, '{"hook_event_name":"Stop","session_id":"s"}', bearer(token))).status).toBe(401);
  });

  it('claude paths: config dir and project folder naming', () => {
    expect(claudeConfigDir({}, '/home/u')).toBe('/home/u/.claude');
    expect(claudeConfigDir({ CLAUDE_CONFIG_DIR: '/cfg' }, '/home/u')).toBe('/cfg');
    expect(claudeProjectDirName('/home/u/my_app.v2')).toBe('-home-u-my-app-v2');
    expect(claudeProjectDirName('C:\\Users\\me\\app')).toBe('C--Users-me-app');
  });
});
