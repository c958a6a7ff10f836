/**
 * The background gate: a turn that ends while subagents, background shells, teammates or open
 * OSC 7501 child records still run is not done (DESIGN: "Background gate"). Claude writes its
 * end-of-turn marker and fires Stop even then, so every turn end is gated here.
 */
import type { BackgroundTask } from './signals.js';
import type { GateState } from './state.js';
import type { Timing } from './timing.js';

export interface GateReading {
  /** How many things still run, by kind. */
  subagents: number;
  shells: number;
  teammates: number;
  total: number;
  /** When the next counted item expires by its TTL (null: none will). */
  nextExpiry: number | null;
}

function liveEntries(record: Record<string, number>, ttl: number, now: number): number[] {
  return Object.values(record)
    .map((since) => since + ttl)
    .filter((expires) => expires > now);
}

export function readGate(gate: GateState, timing: Timing, now: number): GateReading {
  const expiries: number[] = [];

  const counted = liveEntries(gate.subagents, timing.subagentTtlMs, now);
  expiries.push(...counted);
  const declaredExpires = gate.declaredSubagents.at + timing.subagentTtlMs;
  const declared = gate.declaredSubagents.count > 0 && declaredExpires > now ? gate.declaredSubagents.count : 0;
  if (declared > 0) expiries.push(declaredExpires);
  // Hooks can miss a SubagentStart (a /compact runs as a subagent with none) and a Stop's list can
  // lag a SubagentStop: neither count alone is the truth, the larger one is the safe one.
  const subagents = Math.max(counted.length, declared);

  // Declared shells and OSC 7501 child records share ids (a task id): count each id once.
  const shellIds = new Map<string, number>();
  for (const [id, since] of [...Object.entries(gate.shells), ...Object.entries(gate.children)]) {
    shellIds.set(id, Math.max(since, shellIds.get(id) ?? -Infinity));
  }
  const shellExpiries = [...shellIds.values()].map((since) => since + timing.hooklessBackgroundTtlMs).filter((e) => e > now);
  expiries.push(...shellExpiries);

  let teammates = 0;
  const tm = gate.teammates;
  const teammateExpires = tm.at + timing.teammateTtlMs;
  if (tm.count > 0 && teammateExpires > now) {
    // Drain by count, but only names we know count when we know names: an idle event from a stale
    // teammate name must never hide a live one.
    const drained = tm.names.length > 0 ? tm.idle.filter((name) => tm.names.includes(name)).length : Math.min(tm.idle.length, tm.count);
    teammates = Math.max(0, tm.count - drained);
    if (teammates > 0) expiries.push(teammateExpires);
  }

  const total = subagents + shellExpiries.length + teammates;
  return { subagents, shells: shellExpiries.length, teammates, total, nextExpiry: expiries.length > 0 ? Math.min(...expiries) : null };
}

export function describeGate(reading: GateReading): string {
  const parts: string[] = [];
  if (reading.subagents > 0) parts.push(`${reading.subagents} subagent${reading.subagents === 1 ? '' : 's'}`);
  if (reading.shells > 0) parts.push(`${reading.shells} background task${reading.shells === 1 ? '' : 's'}`);
  if (reading.teammates > 0) parts.push(`${reading.teammates} teammate${reading.teammates === 1 ? '' : 's'}`);
  return parts.length > 0 ? `${parts.join(', ')} still running` : 'nothing running';
}

/**
 * A record of ids → when, holding at most `max`: adding a new id to a full one drops the oldest
 * (returned, for "why?"). Any program can print OSC 7501 child ids without end; bounded, each
 * record costs the same however many came before.
 */
function putBounded(record: Record<string, number>, id: string, now: number, max: number): { record: Record<string, number>; dropped?: string } {
  let size = 0;
  let dropped: string | undefined;
  let oldest = Infinity;
  for (const [key, since] of Object.entries(record)) {
    if (key === id) continue;
    size++;
    if (since < oldest) {
      oldest = since;
      dropped = key;
    }
  }
  if (size < max) dropped = undefined;
  const next: Record<string, number> = {};
  for (const [key, since] of Object.entries(record)) if (key !== id && key !== dropped) next[key] = since;
  // Re-inserted last: a child re-reported is the newest again.
  next[id] = now;
  return { record: next, ...(dropped !== undefined ? { dropped } : {}) };
}

/** A turn end or SubagentStop declared what still runs: the newest declaration replaces the last.
 * Beyond `max` declared tasks, the rest are not tracked (`untracked` says how many). */
export function declareBackground(gate: GateState, tasks: BackgroundTask[], now: number, max = Infinity): { gate: GateState; untracked: number } {
  const shells: Record<string, number> = {};
  let tracked = 0;
  let untracked = 0;
  for (const task of tasks) {
    if (task.type !== 'shell' && task.type !== 'other') continue;
    if (task.id in shells) continue;
    if (tracked >= max) {
      untracked++;
      continue;
    }
    // Each declaration is fresh news that the task still runs: its TTL counts from the latest one.
    shells[task.id] = now;
    tracked++;
  }
  const subagentCount = tasks.filter((task) => task.type === 'subagent').length;
  const teammateTasks = tasks.filter((task) => task.type === 'teammate');
  const names = teammateTasks.map((task) => task.name ?? task.id);
  const teammates =
    teammateTasks.length > 0
      ? { names, count: teammateTasks.length, idle: gate.teammates.idle.filter((name) => names.includes(name)), at: now }
      : { names: [], count: 0, idle: [], at: now };
  return {
    gate: { ...gate, shells, declaredSubagents: { count: subagentCount, at: now }, teammates },
    untracked,
  };
}

export function declarePendingAgents(gate: GateState, count: number, now: number): GateState {
  return { ...gate, declaredSubagents: { count, at: now } };
}

export function startSubagent(gate: GateState, id: string, now: number, max = Infinity): { gate: GateState; dropped?: string } {
  if (id in gate.subagents) return { gate };
  const put = putBounded(gate.subagents, id, now, max);
  return { gate: { ...gate, subagents: put.record }, ...(put.dropped !== undefined ? { dropped: put.dropped } : {}) };
}

/** A SubagentStop for an id never started (a /compact) changes no count. */
export function stopSubagent(gate: GateState, id: string): GateState {
  if (!(id in gate.subagents)) return gate;
  const { [id]: _stopped, ...subagents } = gate.subagents;
  return { ...gate, subagents };
}

export function openChild(gate: GateState, id: string, now: number, max = Infinity): { gate: GateState; dropped?: string } {
  // A child re-reported as running (progress, a new title) is alive now: its TTL restarts.
  const put = putBounded(gate.children, id, now, max);
  return { gate: { ...gate, children: put.record }, ...(put.dropped !== undefined ? { dropped: put.dropped } : {}) };
}

export function closeChild(gate: GateState, id: string): GateState {
  const { [id]: _child, ...children } = gate.children;
  const { [id]: _shell, ...shells } = gate.shells;
  return { ...gate, children, shells };
}

export function teammateIdle(gate: GateState, name: string, now: number): GateState {
  const tm = gate.teammates;
  if (tm.idle.includes(name)) return { ...gate, teammates: { ...tm, at: now } };
  return { ...gate, teammates: { ...tm, idle: [...tm.idle, name], at: now } };
}
