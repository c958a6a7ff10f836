/**
 * Claude Code under `belltower run --headless claude`, on top of the general driver
 * (test/support/headless-agent.ts): the four configurations, when Claude takes input, /exit, a
 * `wait` whose timeout is an answer rather than a failure, and the fixture form of a recording.
 *
 *   const run = startClaude({ claudeBin, home, config: CONFIGS[0], session: 'plain', dir });
 *   await readyForInput(run);
 *   await run.submit('hello');
 *   const waited = await waitFor(run, 'done', '30s');   // { code: 0 | 124, endedAt }
 *   expect(await exitClaude(run)).toBe(0);
 */
import type { ClaudeHome } from '../support/claude-home.js';
import { sleep } from '../support/fake-server.js';
import { startHeadlessAgent } from '../support/headless-agent.js';
import type { CliResult, HeadlessAgent, WaitState } from '../support/headless-agent.js';

/** The four ways to hear from Claude: each drops one or both first-party channels. */
export interface Config {
  /** Folder name for fixtures. */
  name: string;
  flags: string[];
  hooks: boolean;
  psp: boolean;
}

export const CONFIGS: readonly Config[] = [
  { name: 'hooks-psp', flags: [], hooks: true, psp: true },
  { name: 'hooks-nopsp', flags: ['--no-psp'], hooks: true, psp: false },
  { name: 'nohooks-psp', flags: ['--no-hooks'], hooks: false, psp: true },
  { name: 'nohooks-nopsp', flags: ['--no-hooks', '--no-psp'], hooks: false, psp: false },
];

export interface ClaudeRunOptions {
  claudeBin: string;
  home: ClaudeHome;
  config: Config;
  /** Control-socket name: unique per run. */
  session: string;
  /** A private folder for belltower's state and the recording. */
  dir: string;
}

export function startClaude(options: ClaudeRunOptions): HeadlessAgent {
  return startHeadlessAgent({
    spec: 'claude',
    env: { ...options.home.env, BELLTOWER_CLAUDE_BIN: options.claudeBin },
    cwd: options.home.cwd,
    dir: options.dir,
    session: options.session,
    flags: options.config.flags,
  });
}

/**
 * Claude is at its prompt and takes keys. belltower's first idle is not quite that moment (the
 * title or SessionStart says rest ~0.2 s before the input box is live): text typed early is kept,
 * but an Enter in it is lost (claude-probe.test.ts). So: the first idle, then a little longer.
 */
export async function readyForInput(run: HeadlessAgent, settleMs = 600): Promise<void> {
  await run.until('the first idle verdict', () => run.verdicts.some((v) => v.to === 'idle'), 30_000);
  await sleep(settleMs);
}

/** `belltower wait 1 --for STATE --timeout T`, its exit code (0, or 124 on timeout) and when it returned. */
export async function waitFor(run: HeadlessAgent, state: WaitState, timeout: string): Promise<CliResult & { endedAt: number }> {
  const result = await run.cli('wait', '1', '--for', state, '--timeout', timeout);
  return { ...result, endedAt: Date.now() };
}

/** Submits "/exit" and waits for belltower to end (it ends with its only tile): its exit code. */
export async function exitClaude(run: HeadlessAgent, timeoutMs = 15_000): Promise<number | null> {
  await run.submit('/exit');
  const code = await run.ended(timeoutMs);
  if (code === 'timeout') throw new Error(`belltower did not end within ${timeoutMs} ms of /exit\nverdicts:\n${run.describe()}`);
  return code;
}

/**
 * A recording made fit to commit as a fixture. Two changes, neither seen by replay:
 * - the header gets `agentVersion` (the tile does not know the agent's version);
 * - transcript records the Claude transcript reader ignores (attachments, `api-request-*`,
 *   metadata: every type but user, assistant, system and queue-operation) keep only their type. They are ~90% of
 *   a hooked recording (~170 KB a session): Claude Code's whole system prompt, tool and skill
 *   listings, the machine's OS version, the hook URL. The reader reads only `type` of them.
 * The caller replays the result with --check before keeping it.
 */
export function fixtureText(recording: string, agentVersion: string): string {
  const lines = recording.split('\n').filter((line) => line !== '');
  return `${lines
    .map((line, i) => {
      const value = JSON.parse(line) as Record<string, unknown>;
      if (i === 0) return JSON.stringify(insertAfter(value, 'agent', 'agentVersion', agentVersion));
      if (value.type !== 'transcript') return line;
      const record = value.record as Record<string, unknown> | null;
      if (record === null || typeof record !== 'object' || READ_TRANSCRIPT_TYPES.includes(String(record.type))) return line;
      const attachment = record.attachment as { type?: unknown } | undefined;
      const kept = { type: record.type, ...(typeof attachment?.type === 'string' ? { attachment: { type: attachment.type } } : {}) };
      return JSON.stringify({ ...value, record: kept });
    })
    .join('\n')}\n`;
}

/** Transcript record types src/sources/transcript/claude-transcript.ts reads beyond their type. */
const READ_TRANSCRIPT_TYPES = ['user', 'assistant', 'system', 'queue-operation'];

function insertAfter(object: Record<string, unknown>, after: string, key: string, value: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(object)) {
    if (k === key) continue;
    out[k] = v;
    if (k === after) out[key] = value;
  }
  return out;
}
