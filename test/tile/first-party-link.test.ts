import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { InjectionUnavailable } from '../../src/agents/first-party/wiring.js';
import type { FirstPartyWiring, InjectionInput } from '../../src/agents/first-party/wiring.js';
import type { Evidence } from '../../src/record/format.js';
import { readRemote } from '../../src/remote/remote-launch.js';
import type { HookServer } from '../../src/sources/hooks/hook-server.js';
import { FirstPartyLink } from '../../src/tile/first-party-link.js';
import type { LinkOptions } from '../../src/tile/first-party-link.js';
import { until } from './helpers.js';

// Never called: the fake wirings below register nothing with it.
const server = {} as HookServer;
const links: FirstPartyLink[] = [];
const dirs: string[] = [];

afterEach(() => {
  for (const link of links.splice(0)) link.dispose();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function link(wiring: FirstPartyWiring | null, more: Partial<LinkOptions> = {}): { link: FirstPartyLink; evidence: Evidence[]; log: string[] } {
  const evidence: Evidence[] = [];
  const log: string[] = [];
  const made = new FirstPartyLink({
    wiring,
    agent: 'claude',
    remote: undefined,
    sshFile: 'ssh',
    args: [],
    hooks: true,
    remoteHooks: false,
    hookServer: server,
    runtimeDir: '/nonexistent',
    tileKey: 'tile-1',
    cwd: '/',
    env: {},
    baseEnv: {},
    version: undefined,
    conversation: null,
    logger: (level, message) => log.push(`${level}: ${message}`),
    label: 'tile 1',
    onEvidence: (e) => evidence.push(e),
    ...more,
  });
  links.push(made);
  return { link: made, evidence, log };
}

/** A wiring whose hook listener the test holds, with a transcript the hooks may point at. */
function fakeWiring(transcriptFor?: (event: string) => string | undefined): { wiring: FirstPartyWiring; call(event: string, payload?: Record<string, unknown>): void; disposed: () => boolean } {
  let input: InjectionInput | undefined;
  let disposed = false;
  const wiring: FirstPartyWiring = {
    versionMatters: false,
    inject(given) {
      input = given;
      return {
        args: ['--fake'],
        env: { FAKE: '1' },
        ...(transcriptFor ? { transcriptFor: (event: string) => (transcriptFor(event) ? { path: transcriptFor(event)! } : undefined) } : {}),
        startsConversation: false,
        dispose: () => void (disposed = true),
      };
    },
    evidence: (event, payload) => ({ type: 'hook', event, payload }),
  };
  return { wiring, call: (event, payload = {}) => input?.onHook('tile-1', event, payload), disposed: () => disposed };
}

describe('FirstPartyLink', () => {
  it('injects where the agent has wiring and hooks are on, and hands each hook call on as evidence once', () => {
    const fake = fakeWiring();
    const { link: made, evidence } = link(fake.wiring);
    expect(made.injection?.args).toEqual(['--fake']);
    fake.call('Stop', { last_assistant_message: 'done' });
    expect(evidence).toEqual([{ type: 'hook', event: 'Stop', payload: { last_assistant_message: 'done' } }]);
    made.dispose();
    expect(fake.disposed()).toBe(true);
  });

  it('injects nothing with hooks off, without a hook server, or without wiring', () => {
    expect(link(fakeWiring().wiring, { hooks: false }).link.injection).toBeNull();
    expect(link(fakeWiring().wiring, { hookServer: undefined }).link.injection).toBeNull();
    expect(link(null).link.injection).toBeNull();
  });

  it('makes an injection the agent cannot take the tile’s notice', () => {
    const wiring: FirstPartyWiring = { ...fakeWiring().wiring, inject: () => { throw new InjectionUnavailable('no hooks for you'); } };
    const { link: made, log } = link(wiring);
    expect(made.injection).toBeNull();
    expect(made.notice).toBe('no hooks for you');
    expect(log).toEqual(['warn: tile 1: no hooks for you']);
  });

  it('follows the transcript a hook points at, and hands its records on as evidence', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'belltower-link-'));
    dirs.push(dir);
    const path = join(dir, 'session.jsonl');
    writeFileSync(path, `${JSON.stringify({ type: 'user' })}\n`);
    const fake = fakeWiring((event) => (event === 'SessionStart' ? path : undefined));
    const { evidence } = link(fake.wiring);
    fake.call('SessionStart');
    appendFileSync(path, `${JSON.stringify({ type: 'assistant' })}\n`);
    await until('both records', () => evidence.filter((e) => e.type === 'transcript').length === 2);
    expect(evidence.map((e) => (e.type === 'transcript' ? e.record : e.type))).toEqual(['hook', { type: 'user' }, { type: 'assistant' }]);
  });

  it("says why a remote tile has no hooks over its connection, and that they are off", () => {
    const { remote } = readRemote(['devbox', 'codex']);
    const { link: made, log } = link(fakeWiring().wiring, { remote, remoteHooks: true, agent: 'codex' });
    expect(made.remote).toBeNull();
    expect(made.injection).toBeNull();
    expect(made.notice).toBe('no remote hooks: belltower has them for Claude Code only, not codex; status comes in-band (OSC 7501, the title)');
    expect(log).toHaveLength(1);
    expect(made.remoteHooksState(false)).toBe('off');
    expect(link(fakeWiring().wiring, { remote, remoteHooks: false }).link.notice).toBeUndefined();
  });
});
