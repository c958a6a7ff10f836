/**
 * A user's own `--settings` in a Claude SPEC is merged into belltower's, never passed after it
 * (Claude keeps only the last `--settings`: belltower's hooks were silently dropped, issue 24 item 8).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isInlineSettings, takeSettingsArg } from '../../src/agents/claude-settings-arg.js';
import { CLAUDE_WIRING } from '../../src/agents/first-party/claude.js';
import { InjectionUnavailable, type Injection } from '../../src/agents/first-party/wiring.js';
import { HookServer } from '../../src/sources/hooks/hook-server.js';

describe('takeSettingsArg', () => {
  it('takes --settings VALUE and --settings=VALUE out, keeping the last (as Claude does)', () => {
    expect(takeSettingsArg(['--model', 'opus', '--settings', 'a.json', 'fix it'])).toEqual({ value: 'a.json', rest: ['--model', 'opus', 'fix it'] });
    expect(takeSettingsArg(['--settings=a.json', '--settings', '{"x":1}'])).toEqual({ value: '{"x":1}', rest: [] });
    expect(takeSettingsArg(['--model', 'opus'])).toEqual({ value: null, rest: ['--model', 'opus'] });
  });

  it('leaves what follows -- alone (the prompt may say --settings), and a --settings without its value', () => {
    expect(takeSettingsArg(['--', '--settings', 'x'])).toEqual({ value: null, rest: ['--', '--settings', 'x'] });
    expect(takeSettingsArg(['--settings'])).toEqual({ value: null, rest: ['--settings'] });
  });

  it('tells JSON text from a path', () => {
    expect(isInlineSettings(' {"model":"opus"}')).toBe(true);
    expect(isInlineSettings('team/settings.json')).toBe(false);
  });
});

describe("Claude's wiring with the user's own --settings", () => {
  let server: HookServer;
  let dir: string;
  const made: Injection[] = [];
  beforeEach(async () => {
    server = await HookServer.start();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'belltower-settings-arg-'));
  });
  afterEach(async () => {
    for (const injection of made.splice(0)) injection.dispose();
    await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const inject = (args: string[]) => {
    const injection = CLAUDE_WIRING.inject({ server, runtimeDir: path.join(dir, 'run'), tileKey: `tile-${made.length}`, cwd: dir, env: { HOME: dir }, onHook: () => {}, version: '2.1.332', args });
    made.push(injection);
    return injection;
  };
  const written = (injection: Injection) => JSON.parse(fs.readFileSync(injection.args[injection.args.indexOf('--settings') + 1]!, 'utf8')) as { model?: string; hooks: Record<string, { hooks: { type: string; command?: string }[] }[]> };

  it('merges a settings file (relative to the tile\'s folder) into the one belltower passes, and drops it from the arguments', () => {
    const theirs = { model: 'opus', hooks: { Stop: [{ hooks: [{ type: 'command', command: 'echo theirs' }] }] } };
    fs.writeFileSync(path.join(dir, 'team.json'), JSON.stringify(theirs));
    const injection = inject(['--settings', 'team.json', '--verbose']);
    expect(injection.userArgs).toEqual(['--verbose']);
    expect(injection.args.filter((a) => a === '--settings')).toHaveLength(1);
    const settings = written(injection);
    expect(settings.model).toBe('opus');
    // Their Stop hook first, then belltower's own.
    expect(settings.hooks.Stop?.[0]).toEqual(theirs.hooks.Stop[0]);
    expect(settings.hooks.Stop!.length).toBeGreaterThan(1);
    expect(settings.hooks.UserPromptSubmit?.length).toBeGreaterThan(0);
  });

  it('merges JSON text given to --settings the same way', () => {
    const injection = inject(['--settings={"model":"haiku"}']);
    expect(injection.userArgs).toEqual([]);
    expect(written(injection).model).toBe('haiku');
  });

  it('without a --settings of the user, passes the arguments as given', () => {
    expect(inject(['--verbose']).userArgs).toBeUndefined();
  });

  it('a file that cannot be read or merged: no injection, and the tile says why (Claude then gets the user\'s file as given)', () => {
    expect(() => inject(['--settings', 'missing.json'])).toThrow(InjectionUnavailable);
    expect(() => inject(['--settings', 'missing.json'])).toThrow(/your --settings cannot be merged with belltower's hooks \(cannot read the settings file .*missing\.json/);
    fs.writeFileSync(path.join(dir, 'broken.json'), '{ not json');
    expect(() => inject(['--settings', 'broken.json'])).toThrow(/is not valid JSON/);
    // Each try used the same tile key: a registration left behind would have refused the next.
  });
});
