/**
 * `belltower demo`: simulated agents that work, finish, ask for permission, leave background work
 * running and get a /clear, on their own — and take prompts typed into them — so belltower can be
 * seen (and heard) deciding on a machine with no agent installed. On a terminal it is the grid;
 * piped, or with `CI` set, it prints each verdict as a line.
 */
import { fileURLToPath } from 'node:url';
import { printable } from '../platform/printable.js';
import type { VerdictChange } from '../tile/tile.js';
import { durationProblem, MAX_DURATION_MS } from '../verdict/duration.js';
import type { Output } from './output.js';
import { runHeadless } from './run-command.js';
import { runUi } from './ui-command.js';
import type { UiFlags } from './ui-command.js';
import { readGridFlags } from './grid-options.js';
import type { GridDisplayFlags } from './grid-options.js';
import type { CommonRunFlags } from './run-setup.js';

const SIM = fileURLToPath(new URL('../../demo/sim-agent.mjs', import.meta.url));

/** Agents with different habits: quick turns, a permission prompt, a long turn, background work
 * that outlives its turn, and a /clear that must not look like a finished turn. */
export const DEMO_AGENTS = [
  { name: 'api', plan: 'rest:1,work:3,done,rest:6' },
  { name: 'web', plan: 'rest:2,work:2,ask:4,work:2,done,rest:8' },
  { name: 'docs', plan: 'rest:1,work:9,done,rest:5' },
  { name: 'tests', plan: 'rest:2,work:3,background:8,rest:14' },
  { name: 'notes', plan: 'rest:3,work:2,done,rest:3,clear,rest:6' },
];

export function demoSpecs(node = process.execPath): string[] {
  return DEMO_AGENTS.map((agent) => simSpec(agent, node));
}

function simSpec({ name, plan }: { name: string; plan: string }, node = process.execPath): string {
  return `"${node}" "${SIM}" ${name} ${plan}`;
}

const GLYPH: Record<string, string> = { working: '●', done: '✓', blocked: '◆', idle: '○', exited: '■', failed: '✗', unknown: '?', starting: '…' };

export function formatDemoLine({ tile, from, verdict }: VerdictChange): string {
  const time = `${(verdict.since / 1000).toFixed(1)}s`.padStart(6);
  const rings = verdict.state === 'done' || verdict.state === 'blocked' || verdict.state === 'failed';
  const state = verdict.kind ? `${verdict.state}: ${verdict.kind}` : verdict.state;
  // The name and the reason can be the agent's own words: printable() keeps them off the terminal's controls.
  return `${time}  ${tile.id} ${printable(tile.name).padEnd(5)} ${GLYPH[verdict.state] ?? ' '} ${printable(state).padEnd(20)} from ${from.padEnd(8)} · ${verdict.source.padEnd(7)} ${rings ? '🔔 ' : ''}${printable(verdict.reason)}`;
}

/** `count` simulated agents: the demo's five habits, repeated (api, web, …, api-2, web-2, …). */
export function demoAgents(count = DEMO_AGENTS.length): { name: string; plan: string }[] {
  return Array.from({ length: count }, (_, i) => {
    const agent = DEMO_AGENTS[i % DEMO_AGENTS.length]!;
    const round = Math.floor(i / DEMO_AGENTS.length);
    return { name: round === 0 ? agent.name : `${agent.name}-${round + 1}`, plan: agent.plan };
  });
}

/** `belltower demo`'s own options, and the grid's that it takes (grid-options.ts). */
export interface DemoFlags extends CommonRunFlags, GridDisplayFlags {
  seconds?: string;
  lines?: boolean;
  tiles?: string;
}

export async function demoCommand(flags: DemoFlags, out: Output, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const seconds = flags.seconds === undefined ? undefined : Number(flags.seconds);
  if (seconds !== undefined && (!(seconds > 0) || durationProblem(seconds * 1000))) {
    out.error(`belltower demo: --seconds takes a positive number of seconds, at most ${Math.floor(MAX_DURATION_MS / 1000)}`);
    return 2;
  }
  const count = flags.tiles === undefined ? DEMO_AGENTS.length : Number(flags.tiles);
  if (!Number.isInteger(count) || count < 1 || count > 64) {
    out.error('belltower demo: --tiles takes a whole number from 1 to 64');
    return 2;
  }
  // The grid's options are refused as the grid refuses them, whether or not the grid opens.
  const wrong = readGridFlags(flags);
  if ('error' in wrong) {
    out.error(`belltower demo: ${wrong.error}`);
    return 2;
  }
  const onTerminal = process.stdin.isTTY && process.stdout.isTTY && !inCi(env) && !flags.lines;
  if (onTerminal) {
    return runUi(demoAgents(count).map((agent) => ({ spec: simSpec(agent), name: agent.name, cwd: process.cwd() })), demoUiFlags(flags), out, {
      defaultSession: `demo-${process.pid}`,
      // Simulated agents: nothing to come back to.
      persist: false,
      ...(seconds === undefined ? {} : { stopAfterMs: seconds * 1000 }),
    });
  }
  // Said back as the user wrote it (`--seconds 0.50` is "0.50s").
  return demoLines(seconds ?? 30, flags.seconds?.trim() ?? '30', demoRunFlags(flags), out);
}

/** What the demo's grid is given: the grid's options as they came, without the demo's own. */
export function demoUiFlags(flags: DemoFlags): UiFlags {
  const { seconds: _seconds, lines: _lines, tiles: _tiles, ...grid } = flags;
  return grid;
}

/** What the printed lines take of the grid's options: the session, recordings, OSC 7501, timing
 * (the rest is about the grid on a terminal). */
export function demoRunFlags(flags: DemoFlags): CommonRunFlags {
  return {
    ...(flags.session !== undefined ? { session: flags.session } : {}),
    ...(flags.record !== undefined ? { record: flags.record } : {}),
    ...(flags.captureOutput ? { captureOutput: true } : {}),
    ...(flags.recordText ? { recordText: true } : {}),
    ...(flags.psp === false ? { psp: false } : {}),
    ...(flags.timing !== undefined ? { timing: flags.timing } : {}),
  };
}

/** CI services set `CI` (to anything but "false" or "0"). */
export function inCi(env: NodeJS.ProcessEnv): boolean {
  return env.CI !== undefined && env.CI !== '' && env.CI !== 'false' && env.CI !== '0';
}

async function demoLines(seconds: number, given: string, flags: CommonRunFlags, out: Output): Promise<number> {
  out.line(`belltower demo: ${DEMO_AGENTS.length} simulated agents for ${given}s (Ctrl-C ends it sooner). 🔔 marks where belltower rings.`);
  return runHeadless(demoSpecs(), { ...flags, headless: true, session: flags.session ?? `demo-${process.pid}` }, out, {
    format: formatDemoLine,
    stopAfterMs: seconds * 1000,
    names: DEMO_AGENTS.map((agent) => agent.name),
  });
}
