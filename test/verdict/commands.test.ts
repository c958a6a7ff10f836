/**
 * Shell commands (OSC 133 prompt marks) and plain command tiles (the process's exit is the
 * outcome): what the tile shows and when it rings.
 */
import { describe, expect, it } from 'vitest';
import { Scenario } from './scenario.js';

const promptShown = { type: 'at-rest', detail: 'at the prompt' } as const;
const run = (command?: string) => ({ type: 'command-start', ...(command === undefined ? {} : { command }) }) as const;
const ended = (code: number | null) => ({ type: 'command-end', code }) as const;

describe('a shell tile: commands at the prompt', () => {
  it('idle at the prompt, working while a command runs (its command line is the reason), done after a long one', () => {
    const s = new Scenario().at(100, 'shell', promptShown).at(1_000, 'shell', run('sleep 12'));
    expect(s.now).toBe('working');
    expect(s.state.verdict.reason).toBe('sleep 12');
    s.at(13_000, 'shell', ended(0)).at(13_005, 'shell', promptShown);
    expect(s.states).toEqual(['idle', 'working', 'done']);
    expect(s.rings).toEqual(['done']);
    expect(s.state.verdict).toMatchObject({ source: 'shell', confidence: 'first-party', since: 13_000 });
    expect(s.state.verdict.reason).toBe('"sleep 12" finished after 12 s');
  });

  it('a long command that fails is failed with its exit code, and rings', () => {
    const s = new Scenario().at(100, 'shell', promptShown).at(1_000, 'shell', run('false')).at(13_000, 'shell', ended(1));
    expect(s.now).toBe('failed');
    expect(s.rings).toEqual(['failed']);
    expect(s.state.verdict.reason).toBe('"false" failed with exit code 1 after 12 s');
  });

  it('a short command never rings, whatever its status, and says why', () => {
    const s = new Scenario()
      .at(100, 'shell', promptShown)
      .at(1_000, 'shell', run('ls'))
      .at(1_004, 'shell', ended(0))
      .at(2_000, 'shell', run('false'))
      .at(2_003, 'shell', ended(1));
    expect(s.states).toEqual(['idle', 'working', 'idle', 'working', 'idle']);
    expect(s.rings).toEqual([]);
    expect(s.state.verdict.reason).toBe('"false" failed with exit code 1 in 0.0 s: shorter than 10 s, no bell');
  });

  it('the threshold is inclusive at longCommandMs, and overridable', () => {
    const at = (took: number, longCommandMs?: number) =>
      new Scenario(longCommandMs === undefined ? {} : { timing: { longCommandMs } }).at(0, 'shell', run('make')).at(took, 'shell', ended(0)).now;
    expect(at(10_000)).toBe('done');
    expect(at(9_999)).toBe('idle');
    expect(at(1_500, 1_500)).toBe('done');
    expect(at(1_499, 1_500)).toBe('idle');
  });

  it('Ctrl-C and Ctrl-Z end a long command without a bell: the user is right there', () => {
    const interrupted = new Scenario().at(0, 'shell', run('npm test')).at(60_000, 'shell', ended(130));
    expect(interrupted.now).toBe('idle');
    expect(interrupted.rings).toEqual([]);
    expect(interrupted.state.verdict.reason).toMatch(/interrupted \(Ctrl-C\)/);
    const suspended = new Scenario().at(0, 'shell', run('vim')).at(60_000, 'shell', ended(148));
    expect(suspended.now).toBe('idle');
    expect(suspended.rings).toEqual([]);
  });

  it('an end mark without a running command (an empty Enter, a first prompt) is no news', () => {
    const s = new Scenario().at(100, 'shell', promptShown).at(30_000, 'shell', ended(0));
    expect(s.states).toEqual(['idle']);
    expect(s.state.why.at(-1)?.note).toMatch(/no command was running/);
  });

  it('a prompt without an end mark closes the command: a late end mark decides nothing', () => {
    const s = new Scenario().at(0, 'shell', run('sleep 20')).at(20_000, 'shell', promptShown).at(20_001, 'shell', ended(0));
    expect(s.now).toBe('idle');
    expect(s.rings).toEqual([]);
  });

  it('a command with no command line and no exit status still works and finishes', () => {
    const s = new Scenario().at(0, 'shell', run()).at(11_000, 'shell', ended(null));
    expect(s.states).toEqual(['working', 'done']);
    expect(s.state.verdict.reason).toBe('the command finished (no exit status) after 11 s');
  });

  it('a done that was seen is idle; the next command works again', () => {
    const s = new Scenario().at(0, 'shell', run('make')).at(12_000, 'shell', ended(0)).at(13_000, 'user', { type: 'seen' });
    expect(s.now).toBe('idle');
    s.at(14_000, 'shell', run('make test'));
    expect(s.now).toBe('working');
  });

  it('a new command cancels a done an OSC 7501 program inside the shell left held', () => {
    const s = new Scenario()
      .at(0, 'shell', run('claude'))
      .at(5_000, 'psp', { type: 'turn-end' })
      .at(5_100, 'shell', ended(0))
      .at(5_200, 'shell', run('ls'))
      .until(60_000);
    expect(s.count('done')).toBe(0);
    expect(s.now).toBe('working');
  });

  it('prompt marks are first-party: the title decides nothing once they speak', () => {
    const s = new Scenario().at(0, 'shell', promptShown).at(100, 'title', { type: 'working' });
    expect(s.now).toBe('idle');
  });
});

describe('a shell tile: what runs in the foreground (interactive programs)', () => {
  const reads = { type: 'foreground', reading: true, fullScreen: false } as const;
  const runs = { type: 'foreground', reading: false, fullScreen: false } as const;
  const fullScreen = { type: 'foreground', reading: false, fullScreen: true } as const;
  const typed = { type: 'prompt' } as const;

  it('a command asleep reading the terminal is blocked: waiting for input; its answer makes it work again', () => {
    const s = new Scenario().at(0, 'shell', promptShown).at(1_000, 'shell', run('./install.sh')).at(31_000, 'process', reads);
    expect(s.state.verdict).toMatchObject({ state: 'blocked', kind: 'input', source: 'process' });
    expect(s.state.verdict.reason).toBe('"./install.sh" waits for input');
    // It ran alone for 30 s before it asked: the user may have gone, so it rings, once.
    expect(s.rings).toEqual(['blocked']);
    s.at(31_500, 'process', reads);
    expect(s.rings).toEqual(['blocked']);
    s.at(40_000, 'user', typed);
    expect(s.now).toBe('working');
    // 10 s of work after the answer: a long command's end, which rings.
    s.at(50_000, 'process', runs).at(60_000, 'shell', ended(0));
    expect(s.now).toBe('done');
    expect(s.rings).toEqual(['blocked', 'done']);
  });

  it('asking right after the user started it is blocked without a bell: the user is at it', () => {
    const s = new Scenario().at(0, 'shell', run('read x')).at(900, 'process', reads);
    expect(s.state.verdict).toMatchObject({ state: 'blocked', kind: 'input' });
    expect(s.rings).toEqual([]);
    // The threshold is longCommandMs, inclusive, as for a command's end.
    expect(new Scenario().at(0, 'shell', run('x')).at(10_000, 'process', reads).rings).toEqual(['blocked']);
    expect(new Scenario().at(0, 'shell', run('x')).at(9_999, 'process', reads).rings).toEqual([]);
  });

  it('a command that ends while it waits on the user, however long it ran, ends idle without a bell', () => {
    const s = new Scenario().at(0, 'shell', run('read x')).at(1_000, 'process', reads).at(60_000, 'shell', ended(0));
    expect(s.now).toBe('idle');
    expect(s.rings).toEqual([]);
    expect(s.state.verdict.reason).toMatch(/ended by you/);
  });

  it('only the time it ran alone since the user last dealt with it makes a command long (a REPL session is no long command)', () => {
    const s = new Scenario().at(0, 'shell', run('python3')).at(5_000, 'user', typed).at(50_000, 'user', typed).at(52_000, 'shell', ended(0));
    expect(s.now).toBe('idle');
    expect(s.rings).toEqual([]);
    expect(s.state.verdict.reason).toBe('"python3" finished after 52 s, 2.0 s after you last dealt with it: no bell');
    // An answered question early on does not make a long build's end quiet.
    const build = new Scenario().at(0, 'shell', run('make')).at(500, 'process', reads).at(2_000, 'process', runs).at(600_000, 'shell', ended(0));
    expect(build.now).toBe('done');
  });

  it('a full-screen program is working, never blocked, and its end is no news', () => {
    const s = new Scenario().at(0, 'shell', run('vim notes')).at(1_000, 'process', fullScreen).at(500_000, 'process', fullScreen);
    expect(s.states).toEqual(['working']);
    s.at(600_000, 'shell', ended(0));
    expect(s.now).toBe('idle');
    expect(s.rings).toEqual([]);
    // A pager reading its keys in a full screen is still not a question.
    const pager = new Scenario().at(0, 'shell', run('less log')).at(1_000, 'process', { type: 'foreground', reading: true, fullScreen: true });
    expect(pager.now).toBe('working');
  });

  it('without a running command the foreground says nothing (the shell reads its own prompt)', () => {
    const s = new Scenario().at(0, 'shell', promptShown).at(1_000, 'process', reads);
    expect(s.now).toBe('idle');
    expect(s.rings).toEqual([]);
  });
});

describe('a plain command tile: its exit is the outcome', () => {
  const command = () => new Scenario({ exitIsOutcome: true });

  it('works from the start, then is done with status 0 and rings', () => {
    const s = command().at(0, 'process', { type: 'spawned' });
    expect(s.now).toBe('working');
    s.at(420_000, 'process', { type: 'exit', code: 0, signal: null });
    expect(s.states).toEqual(['working', 'done']);
    expect(s.rings).toEqual(['done']);
    expect(s.state.verdict).toMatchObject({ reason: 'exited with code 0', exit: { code: 0, signal: null } });
  });

  it('a non-zero status or a signal is failed, with the code in the reason', () => {
    const failed = command().at(0, 'process', { type: 'spawned' }).at(900, 'process', { type: 'exit', code: 2, signal: null });
    expect(failed.now).toBe('failed');
    expect(failed.rings).toEqual(['failed']);
    expect(failed.state.verdict.reason).toBe('exited with code 2');
    const killed = command().at(0, 'process', { type: 'spawned' }).at(900, 'process', { type: 'exit', code: null, signal: 'SIGSEGV' });
    expect(killed.now).toBe('failed');
    expect(killed.state.verdict.reason).toBe('killed by SIGSEGV');
  });

  it('closed by belltower (the user closed it, or quit) is exited, never failed, and never rings', () => {
    const s = command().at(0, 'process', { type: 'spawned' }).at(5_000, 'process', { type: 'exit', code: null, signal: 'SIGHUP', closed: true });
    expect(s.now).toBe('exited');
    expect(s.rings).toEqual([]);
    expect(s.state.verdict.reason).toBe('closed (killed by SIGHUP)');
  });

  it('a command that never started is exited with the reason, without a bell', () => {
    const s = command().at(0, 'process', { type: 'exit', code: null, signal: null, error: 'command not found: nmp' });
    expect(s.states).toEqual(['exited']);
    expect(s.rings).toEqual([]);
    expect(s.state.verdict.reason).toBe('command not found: nmp');
  });

  it('processes still running after the leader exits are said, never hidden', () => {
    const s = command().at(0, 'process', { type: 'spawned' }).at(100, 'process', { type: 'exit', code: 0, signal: null, remaining: 2 });
    expect(s.state.verdict.reason).toBe('exited with code 0 · 2 processes still running');
    const one = new Scenario().at(100, 'process', { type: 'exit', code: null, signal: 'SIGHUP', closed: true, detached: 1 });
    expect(one.state.verdict.reason).toBe('closed (killed by SIGHUP) · 1 process left the tile and runs on');
  });

  it('OSC 7501 from the command still counts while it runs; the exit decides at the end', () => {
    const s = command()
      .at(0, 'process', { type: 'spawned' })
      .at(50, 'psp', { type: 'at-rest' })
      .at(1_000, 'psp', { type: 'working' })
      .at(9_000, 'process', { type: 'exit', code: 3, signal: null });
    expect(s.states).toEqual(['working', 'idle', 'working', 'failed']);
  });

  it('once it has exited, nothing it said late is news; the user seeing its done leaves it exited', () => {
    const s = command()
      .at(0, 'process', { type: 'spawned' })
      .at(9_000, 'process', { type: 'exit', code: 0, signal: null })
      .at(9_010, 'psp', { type: 'working' });
    expect(s.now).toBe('done');
    s.at(10_000, 'user', { type: 'seen' });
    expect(s.now).toBe('exited');
    expect(s.state.verdict).toMatchObject({ source: 'user', reason: 'exited with code 0; seen', exit: { code: 0 } });
    expect(s.rings).toEqual(['done']);
  });

  it('without exitIsOutcome (an agent, a shell) an exit is exited, whatever the code', () => {
    const s = new Scenario().at(0, 'process', { type: 'spawned' }).at(100, 'process', { type: 'exit', code: 1, signal: null });
    expect(s.states).toEqual(['exited']);
    expect(s.rings).toEqual([]);
  });
});
