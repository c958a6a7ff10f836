/**
 * `belltower demo`: simulated agents that work, finish, and ask for permission on their own, so
 * belltower can be seen deciding on a machine with no agent installed. Until the full-screen UI
 * lands, the demo prints each verdict as a line.
 */
import { fileURLToPath } from 'node:url';
import { printable } from '../platform/printable.js';
import type { VerdictChange } from '../tile/tile.js';
import { durationProblem, MAX_DURATION_MS } from '../verdict/duration.js';
import type { Output } from './output.js';
import { runHeadless } from './run-command.js';

const SIM = fileURLToPath(new URL('../../demo/sim-agent.mjs', import.meta.url));

/** Three agents with different habits: quick turns, a permission prompt, a long turn. */
export const DEMO_AGENTS = [
  { name: 'api', plan: 'rest:1,work:3,done,rest:6' },
  { name: 'web', plan: 'rest:2,work:2,ask:3,work:2,done,rest:8' },
  { name: 'docs', plan: 'rest:1,work:9,done,rest:5' },
];

export function demoSpecs(node = process.execPath): string[] {
  return DEMO_AGENTS.map(({ name, plan }) => `"${node}" "${SIM}" ${name} ${plan}`);
}

const GLYPH: Record<string, string> = { working: '●', done: '✓', blocked: '◆', idle: '○', exited: '■', failed: '✗', unknown: '?', starting: '…' };

export function formatDemoLine({ tile, from, verdict }: VerdictChange): string {
  const time = `${(verdict.since / 1000).toFixed(1)}s`.padStart(6);
  const rings = verdict.state === 'done' || verdict.state === 'blocked' || verdict.state === 'failed';
  const state = verdict.kind ? `${verdict.state}: ${verdict.kind}` : verdict.state;
  // The name and the reason can be the agent's own words: printable() keeps them off the terminal's controls.
  return `${time}  ${tile.id} ${printable(tile.name).padEnd(5)} ${GLYPH[verdict.state] ?? ' '} ${printable(state).padEnd(20)} from ${from.padEnd(8)} · ${verdict.source.padEnd(7)} ${rings ? '🔔 ' : ''}${printable(verdict.reason)}`;
}

export async function demoCommand(flags: { seconds?: string }, out: Output): Promise<number> {
  const seconds = Number(flags.seconds ?? 30);
  if (!(seconds > 0) || durationProblem(seconds * 1000)) {
    out.error(`belltower demo: --seconds takes a positive number of seconds, at most ${Math.floor(MAX_DURATION_MS / 1000)}`);
    return 2;
  }
  out.line(`belltower demo: three simulated agents for ${seconds}s (Ctrl-C ends it sooner). 🔔 marks where belltower rings.`);
  return runHeadless(demoSpecs(), { headless: true, session: `demo-${process.pid}` }, out, {
    format: formatDemoLine,
    stopAfterMs: seconds * 1000,
    names: DEMO_AGENTS.map((agent) => agent.name),
  });
}
