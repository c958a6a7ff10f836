/**
 * A tile that runs over ssh: ssh's own exit status 255 means the connection failed or dropped,
 * whatever the remote program was doing. It is never a done and never a failed.
 */
import { describe, expect, it } from 'vitest';
import { Scenario, prompt, stop } from './scenario.js';

const lost = { type: 'exit', code: 255, signal: null } as const;

describe('a remote tile whose connection drops', () => {
  it('mid-turn: exited · connection lost, no bell', () => {
    const s = new Scenario({ remote: true }).at(1_000, 'hook', prompt).at(9_000, 'process', lost).until(60_000);
    expect(s.states).toEqual(['working', 'exited']);
    expect(s.state.verdict.reason).toBe('connection lost (ssh exited 255)');
    expect(s.state.verdict.exit).toEqual({ code: 255, signal: null });
    expect(s.rings).toEqual([]);
  });

  it('right after a Stop: the held done is dropped with the connection', () => {
    const s = new Scenario({ remote: true }).at(1_000, 'hook', prompt).at(5_000, 'hook', stop()).at(5_100, 'process', lost).until(60_000);
    expect(s.count('done')).toBe(0);
    expect(s.now).toBe('exited');
    expect(s.rings).toEqual([]);
  });

  it('a remote command is judged by its exit, except 255', () => {
    const remote = new Scenario({ remote: true, exitIsOutcome: true }).at(0, 'process', { type: 'spawned' });
    expect(remote.at(900, 'process', lost).now).toBe('exited');
    expect(remote.state.verdict.reason).toBe('connection lost (ssh exited 255)');
    const fine = new Scenario({ remote: true, exitIsOutcome: true }).at(0, 'process', { type: 'spawned' }).at(900, 'process', { type: 'exit', code: 0, signal: null });
    expect(fine.now).toBe('done');
    const broke = new Scenario({ remote: true, exitIsOutcome: true }).at(0, 'process', { type: 'spawned' }).at(900, 'process', { type: 'exit', code: 2, signal: null });
    expect(broke.now).toBe('failed');
  });

  it('255 from a local command is that command’s own failure', () => {
    const local = new Scenario({ exitIsOutcome: true }).at(0, 'process', { type: 'spawned' }).at(900, 'process', lost);
    expect(local.now).toBe('failed');
    expect(local.state.verdict.reason).not.toMatch(/connection/);
  });

  it('ssh killed by a signal is the connection lost too, whatever killed it (issue 28)', () => {
    const s = new Scenario({ remote: true }).at(1_000, 'hook', prompt).at(9_000, 'process', { type: 'exit', code: null, signal: 'SIGKILL' });
    expect(s.states).toEqual(['working', 'exited']);
    expect(s.state.verdict.reason).toBe('connection lost (ssh killed by SIGKILL)');
    expect(s.rings).toEqual([]);
    // A remote command killed so is no failed command either; closed by the user, it says closed.
    const command = new Scenario({ remote: true, exitIsOutcome: true }).at(0, 'process', { type: 'spawned' }).at(900, 'process', { type: 'exit', code: null, signal: 'SIGTERM' });
    expect(command.now).toBe('exited');
    expect(command.state.verdict.reason).toBe('connection lost (ssh killed by SIGTERM)');
    const closed = new Scenario({ remote: true }).at(0, 'process', { type: 'spawned' }).at(900, 'process', { type: 'exit', code: null, signal: 'SIGHUP', closed: true });
    expect(closed.state.verdict.reason).toMatch(/^closed \(/);
  });

  it('an agent the remote shell did not find (127) says it is not on the remote PATH', () => {
    const s = new Scenario({ remote: true }).at(0, 'process', { type: 'spawned' }).at(300, 'process', { type: 'exit', code: 127, signal: null });
    expect(s.now).toBe('exited');
    expect(s.state.verdict.reason).toBe('not on the remote PATH (exit 127): see the README\'s "Remote agents"');
    // A remote command's 127 is its own status, judged as such; a local agent's is plain.
    expect(new Scenario({ remote: true, exitIsOutcome: true }).at(0, 'process', { type: 'spawned' }).at(300, 'process', { type: 'exit', code: 127, signal: null }).now).toBe('failed');
    expect(new Scenario().at(0, 'process', { type: 'spawned' }).at(300, 'process', { type: 'exit', code: 127, signal: null }).state.verdict.reason).toBe('exited with code 127');
  });

  it('a remote tile the user closed says closed, not connection lost', () => {
    const s = new Scenario({ remote: true }).at(1_000, 'hook', prompt).at(2_000, 'process', { ...lost, closed: true });
    expect(s.now).toBe('exited');
    expect(s.state.verdict.reason).toMatch(/^closed \(/);
  });

  it('a remote login shell is idle once it starts (no prompt marks reach it), then follows any it prints', () => {
    const s = new Scenario({ idleAtSpawn: true }).at(0, 'process', { type: 'spawned' });
    expect(s.now).toBe('idle');
    expect(s.state.verdict.reason).toMatch(/remote shell.*OSC 133/);
    s.at(1_000, 'shell', { type: 'command-start', command: 'make' }).at(20_000, 'shell', { type: 'command-end', code: 0 });
    expect(s.states).toEqual(['idle', 'working', 'done']);
    expect(new Scenario().at(0, 'process', { type: 'spawned' }).now).toBe('starting');
  });

  it('ssh that never started says why, not connection lost', () => {
    const s = new Scenario({ remote: true }).at(0, 'process', { ...lost, error: 'command not found: ssh' });
    expect(s.state.verdict.reason).toMatch(/command not found: ssh/);
  });
});

describe('ssh asking a login question', () => {
  const asks = (prompt: 'host-key' | 'password' | 'passphrase' | 'code' | null) => ({ type: 'login', prompt }) as const;

  it('a remote tile still logging in is blocked on you, and rings; answered, it is starting again', () => {
    const s = new Scenario({ remote: true }).at(0, 'process', { type: 'spawned' }).at(300, 'ssh', asks('password'));
    expect(s.now).toBe('blocked');
    expect(s.state.verdict).toMatchObject({ kind: 'auth', reason: 'ssh asks for a password', source: 'ssh' });
    expect(s.rings).toEqual(['blocked']);
    s.at(5_000, 'ssh', asks(null));
    expect(s.now).toBe('starting');
    // A wrong password: asked again, blocked again.
    s.at(6_000, 'ssh', asks('password')).at(9_000, 'ssh', asks(null)).at(9_500, 'title', { type: 'at-rest', detail: 'title "✳ Claude Code"' });
    expect(s.states).toEqual(['blocked', 'starting', 'blocked', 'starting', 'idle']);
  });

  it('a remote login shell goes back to idle once answered', () => {
    const s = new Scenario({ remote: true, idleAtSpawn: true }).at(0, 'process', { type: 'spawned' }).at(200, 'ssh', asks('host-key'));
    expect(s.state.verdict.reason).toBe('ssh asks whether to trust the host key');
    // The Enter that answers is no work begun: the tile waits for ssh to stop asking.
    s.at(3_990, 'user', { type: 'prompt' });
    expect(s.now).toBe('blocked');
    s.at(4_000, 'ssh', asks(null));
    expect(s.states).toEqual(['idle', 'blocked', 'idle']);
  });

  it('a remote command waits on you while ssh asks, and runs again once answered', () => {
    const s = new Scenario({ remote: true, exitIsOutcome: true }).at(0, 'process', { type: 'spawned' }).at(200, 'ssh', asks('passphrase'));
    expect(s.state.verdict).toMatchObject({ state: 'blocked', kind: 'auth', reason: 'ssh asks for a key passphrase' });
    s.at(3_000, 'ssh', asks(null));
    expect(s.states).toEqual(['working', 'blocked', 'working']);
    expect(s.rings).toEqual(['blocked']);
  });

  it('is not heard once the remote program has spoken, nor for a local tile', () => {
    const running = new Scenario({ remote: true }).at(0, 'process', { type: 'spawned' }).at(500, 'psp', { type: 'at-rest' }).at(900, 'ssh', asks('password'));
    expect(running.now).toBe('idle');
    expect(running.rings).toEqual([]);
    const local = new Scenario().at(0, 'process', { type: 'spawned' }).at(300, 'ssh', asks('password'));
    expect(local.now).toBe('starting');
  });
});
