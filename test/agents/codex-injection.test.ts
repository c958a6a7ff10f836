import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readCodexNotify, tomlStringArray } from '../../src/agents/codex-config.js';
import { CODEX_HOOK_TIMEOUT_S, prepareCodexSession } from '../../src/agents/codex-injection.js';
import { codexHookHash, codexHookKey, codexHookReview } from '../../src/agents/codex-hook-trust.js';
import { codexTranscriptTarget, findCodexRollout, rolloutAmong } from '../../src/agents/codex-rollout-path.js';
import { compareVersions, parseVersion } from '../../src/agents/agent-version.js';
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

/** The value of the `-c` argument that sets `key`. */
const override = (args: string[], key: string): string | undefined => args.find((a, i) => args[i - 1] === '-c' && a.startsWith(`${key}=`))?.slice(key.length + 1);

describe('the SessionStart hook for the rollout path', () => {
  it('on a Codex version whose review record is known: a command hook through the relay, marked reviewed for this launch', async () => {
    const s = prepareCodexSession({ ...base(), codexHome: path.join(root, 'codex-home'), version: '0.171.0' });
    disposers.push(s.dispose);
    expect(s.sessionStartHook).toBe(true);
    const hooks = override(s.args, 'hooks.SessionStart');
    const command = JSON.parse(/command=("(?:[^"\\]|\\.)*")/.exec(hooks ?? '')?.[1] ?? '""') as string;
    expect(hooks).toBe(`[{hooks=[{type="command",command=${JSON.stringify(command)},timeout=${CODEX_HOOK_TIMEOUT_S}}]}]`);
    expect(override(s.args, 'hooks.state')).toBe(`{"/<session-flags>/config.toml:session_start:0:0"={trusted_hash="${codexHookHash('session_start', [{ command, timeout: CODEX_HOOK_TIMEOUT_S }])}"}}`);
    // The hook's relay posts the payload as SessionStart, and never runs the user's notify.
    const payload = { session_id: 't', transcript_path: '/x/rollout.jsonl', hook_event_name: 'SessionStart', source: 'startup' };
    expect(await runHookCommand(command, JSON.stringify(payload))).toBe(0);
    await waitFor(() => got.length === 1);
    expect(got[0]).toEqual({ event: 'SessionStart', payload });
  });

  it('on any other version (or unknown): no hook, only notify', () => {
    for (const version of [undefined, '0.172.0', '0.170.9']) {
      const s = prepareCodexSession({ ...base(), codexHome: path.join(root, 'codex-home'), version });
      expect(s.sessionStartHook).toBe(false);
      expect(s.args.filter((a) => a.startsWith('hooks.'))).toEqual([]);
      s.dispose();
    }
  });

  it('hashes a hook group the way Codex 0.171.0 does: the value it wrote itself for this hook', () => {
    // Written by the real Codex 0.171.0 into config.toml when its review dialog was answered
    // "Trust all" for exactly this hook (quotes, spaces and non-ASCII in the command).
    expect(codexHookHash('session_start', [{ command: 'printf "%s" "héllo wörld" >/dev/null', timeout: 7 }])).toBe(
      'sha256:1a30b73739afbbd8f5405829f03e202ade13044312ccd8ed3df1c40c30674db3',
    );
    expect(codexHookKey('session_start')).toBe('/<session-flags>/config.toml:session_start:0:0');
  });

  it("notices Codex's review dialog on the screen", () => {
    const dialog = ['', '  Hooks need review', '  1 hook is new or changed.', '› 1. Review hooks', '  2. Trust all and continue', '  3. Continue without trusting (hooks won\'t run)'];
    expect(codexHookReview(dialog)).toMatch(/Codex asks to review hooks/);
    expect(codexHookReview(['› Hooks need review of the code, please'])).toBeUndefined();
  });
});

describe('the rollout file', () => {
  const thread = '01a22fa5-91e9-7d42-bec2-77ebc9d2f2b2';
  const other = '01a22fa5-956a-70d0-b3eb-7fe263daa3c1';

  it("is found from notify's thread id among files of the same second, and never for the title thread", () => {
    const home = path.join(root, 'codex-home');
    const day = path.join(home, 'sessions', '2026', '12', '01');
    fs.mkdirSync(day, { recursive: true });
    for (const id of [thread, '01a22fa5-91ea-7000-8000-000000000000']) fs.writeFileSync(path.join(day, `rollout-2026-12-01T03-28-29-${id}.jsonl`), '');
    expect(findCodexRollout(home, thread)).toBe(path.join(day, `rollout-2026-12-01T03-28-29-${thread}.jsonl`));
    expect(findCodexRollout(home, other)).toBeUndefined();
    expect(findCodexRollout(home, '../../etc/passwd')).toBeUndefined();
    expect(codexTranscriptTarget(home, 'notify', { 'thread-id': thread }, false)).toEqual({ path: findCodexRollout(home, thread), fromStart: false });
    expect(codexTranscriptTarget(home, 'notify', { 'thread-id': thread }, true)).toBeUndefined();
  });

  it('is found among the files Codex holds open (before 0.171): a rollout in a day folder of its own sessions, the newest', () => {
    const home = path.join(root, '.codex');
    const day = (d: string) => path.join(home, 'sessions', '2026', '12', d);
    const open = [
      path.join(home, 'state_5.sqlite'),
      path.join(home, 'thread-writer-locks', '01a248ab-5d24.lock'),
      path.join(day('05'), 'rollout-2026-12-05T23-59-59-aaaa.jsonl'),
      path.join(day('06'), 'rollout-2026-12-06T00-05-19-bbbb.jsonl'),
      '/dev/pts/3',
    ];
    expect(rolloutAmong(home, open)).toBe(path.join(day('06'), 'rollout-2026-12-06T00-05-19-bbbb.jsonl'));
    // Not Codex's sessions folder, not a day folder, not a rollout: never followed.
    expect(rolloutAmong(home, [path.join(root, 'other', 'sessions', '2026', '12', '06', 'rollout-x.jsonl')])).toBeUndefined();
    expect(rolloutAmong(home, [path.join(home, 'sessions', 'rollout-x.jsonl'), path.join(day('06'), 'history.jsonl'), path.join(home, 'sessions', '2026', '12', 'xx', 'rollout-x.jsonl')])).toBeUndefined();
    expect(rolloutAmong(home, [])).toBeUndefined();
  });

  it('is named by SessionStart; a resumed thread is read from now on', () => {
    expect(codexTranscriptTarget(root, 'SessionStart', { transcript_path: '/r/a.jsonl', source: 'startup' }, false)).toEqual({ path: '/r/a.jsonl', fromStart: true });
    expect(codexTranscriptTarget(root, 'SessionStart', { transcript_path: '/r/b.jsonl', source: 'resume' }, true)).toEqual({ path: '/r/b.jsonl', fromStart: false });
    expect(codexTranscriptTarget(root, 'Stop', { transcript_path: '/r/c.jsonl' }, false)).toBeUndefined();
  });
});

describe('agent versions', () => {
  it('reads the version out of --version and compares', () => {
    expect(parseVersion('codex-cli 0.171.0\n')).toBe('0.171.0');
    expect(parseVersion('2.1.332 (Claude Code)')).toBe('2.1.332');
    expect(parseVersion('no version here')).toBeUndefined();
    expect(compareVersions('2.1.332', '2.1.40')).toBe(1);
    expect(compareVersions('0.171.0', '0.171.0')).toBe(0);
    expect(compareVersions('1.9.9', '2.0.0')).toBe(-1);
  });
});
