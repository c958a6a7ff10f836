/**
 * 3. Idle: tiles whose programs said they are idle (OSC 7501) and then wait for input, for a
 * while, in belltower and in tmux at the same time (idle processes do not disturb each other).
 * Measured over the window: CPU, bytes written to the terminal, wake-ups (voluntary context
 * switches of every thread), and — from inside belltower — every timer callback that ran, by the
 * place that set it.
 */
import { startGrid } from '../lib/grid.mjs';
import { cpuSeconds, wakeups } from '../lib/proc.mjs';
import { sleep } from '../lib/stats.mjs';
import { startTmuxGrid } from '../lib/tmux.mjs';

const IDLE_TILE = `printf '\\033]7501;state=idle\\007'; exec cat`;

/**
 * Agents at work with quiet screens: tile `i` says it is working 60 ms after the one before it
 * (as agents given their prompts one after another do), then prints one short line every 2 s.
 * What belltower adds on top of painting those lines is its headers' ages.
 */
export const QUIET_WORKING_TILE = (i) => `printf '\\033]7501;state=idle\\007'; sleep ${(0.5 + i * 0.06).toFixed(2)}; printf '\\033]7501;state=working\\007'; while :; do echo tick; sleep 2; done`;

/**
 * Starts both, lets them settle, and starts the window; `finish()` ends it and measures. Idle
 * processes need no quiet machine: the window can overlap other benchmarks.
 */
export async function startIdle({ tiles = 16, settle = 20, terminal = { cols: 200, rows: 58 }, spec = () => IDLE_TILE } = {}) {
  const specs = Array.from({ length: tiles }, (_, i) => spec(i));
  const grid = startGrid({ specs, cols: terminal.cols, rows: terminal.rows, probe: { timers: true } });
  const tmux = await startTmuxGrid({ commands: specs, cols: terminal.cols, rows: terminal.rows });
  const stop = async () => {
    await grid.stop();
    await tmux.stop();
  };
  try {
    await grid.firstFrame();
    await sleep(settle * 1000);
    await grid.probe(); // start the timer census
  } catch (error) {
    await stop();
    throw error;
  }
  const tmuxPids = [tmux.pid, tmux.client.pid];
  const read = () => ({
    grid: { cpu: cpuSeconds(grid.pid), wakeups: wakeups(grid.pid), bytes: grid.bytes, frames: grid.frames },
    tmux: { cpu: tmuxPids.reduce((s, p) => s + cpuSeconds(p), 0), wakeups: tmuxPids.reduce((s, p) => s + wakeups(p), 0), bytes: tmux.bytes },
  });
  const before = read();
  const t0 = performance.now();
  return {
    stop,
    /** Ends the window (at least `seconds` after it started) and both programs. */
    async finish(seconds) {
      try {
        await sleep(Math.max(0, seconds * 1000 - (performance.now() - t0)));
        const elapsed = (performance.now() - t0) / 1000;
        const after = read();
        const census = await grid.probe();
        const rate = (who, key) => (after[who][key] - before[who][key]) / elapsed;
        return {
          tiles,
          seconds: elapsed,
          grid: { cpu: rate('grid', 'cpu'), wakeupsPerSecond: rate('grid', 'wakeups'), framesPerSecond: rate('grid', 'frames'), bytes: after.grid.bytes - before.grid.bytes, timers: census.timers, gc: census.gc },
          tmux: { cpu: rate('tmux', 'cpu'), wakeupsPerSecond: rate('tmux', 'wakeups'), bytes: after.tmux.bytes - before.tmux.bytes },
        };
      } finally {
        await stop();
      }
    },
  };
}

export async function idle({ seconds = 60, ...options } = {}) {
  return (await startIdle(options)).finish(seconds);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await idle({ seconds: Number(process.argv[2] ?? 60) }), null, 1));
}
