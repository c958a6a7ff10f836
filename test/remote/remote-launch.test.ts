import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { parseSpec, SpecError } from '../../src/agents/launch-spec.js';
import { sshArgv } from '../../src/remote/remote-launch.js';
import { hostOf, parseSshCommand, remoteProgram, remoteWord, SshCommandError } from '../../src/remote/ssh-command.js';

describe('reading an ssh command line the way ssh does', () => {
  it('tells its options (and their values) from the destination and the remote command', () => {
    expect(parseSshCommand(['-p', '2222', '-i', '~/.ssh/dev', '-A', 'me@devbox', 'claude', '--model', 'opus'])).toEqual({
      options: ['-p', '2222', '-i', '~/.ssh/dev', '-A'],
      destination: 'me@devbox',
      host: 'devbox',
      command: ['claude', '--model', 'opus'],
      tty: 'default',
    });
    // Joined flags, a value stuck to its letter, -o Name=value, -- before the destination.
    expect(parseSshCommand(['-4Cp2222', '-oServerAliveInterval=5', '-J', 'jump', '--', 'devbox'])).toMatchObject({ options: ['-4Cp2222', '-oServerAliveInterval=5', '-J', 'jump', '--'], destination: 'devbox', command: [] });
    // A value that looks like an option is still the value.
    expect(parseSshCommand(['-l', '-weird', 'devbox', 'ls'])).toMatchObject({ destination: 'devbox', command: ['ls'] });
    expect(parseSshCommand(['-t', 'devbox', 'claude']).tty).toBe('forced');
    expect(parseSshCommand(['-T', 'devbox', 'claude']).tty).toBe('off');
    expect(parseSshCommand(['-P', 'work', 'devbox', 'claude'])).toMatchObject({ options: ['-P', 'work'], destination: 'devbox', command: ['claude'] });
    // Options right after the destination are still ssh's, up to the first word that is none.
    expect(parseSshCommand(['devbox', '-A', '-p', '2222', 'claude', '-c'])).toMatchObject({ options: ['-A', '-p', '2222'], destination: 'devbox', command: ['claude', '-c'] });
    expect(parseSshCommand(['devbox', '-t', 'claude']).tty).toBe('forced');
    // After `--`, everything is the command's.
    expect(parseSshCommand(['--', 'devbox', '-A'])).toMatchObject({ destination: 'devbox', command: ['-A'] });
    expect(parseSshCommand(['devbox', '--', '-A'])).toMatchObject({ options: [], destination: 'devbox', command: ['-A'] });
  });

  it('refuses what ssh would refuse, saying what', () => {
    expect(() => parseSshCommand(['-Z', 'devbox'])).toThrow(/no option -Z/);
    expect(() => parseSshCommand(['-p'])).toThrow(/-p needs a value/);
    expect(() => parseSshCommand(['-v'])).toThrow(SshCommandError);
  });

  it('names the host the way a person would', () => {
    expect(hostOf('devbox')).toBe('devbox');
    expect(hostOf('me@devbox.example.com')).toBe('devbox.example.com');
    expect(hostOf('ssh://me@devbox:2222')).toBe('devbox');
    expect(hostOf('ssh://[::1]:2222')).toBe('::1');
    expect(hostOf('a@b@host')).toBe('host');
  });

  it("recognises the remote program on the line ssh sends, after env and assignments", () => {
    expect(remoteProgram(['claude', '--model', 'opus'])).toEqual({ prefix: [], program: 'claude', name: 'claude', args: ['--model', 'opus'] });
    // ssh joins the words: one quoted word is the same line.
    expect(remoteProgram(['claude --model opus'])).toEqual(remoteProgram(['claude', '--model', 'opus']));
    expect(remoteProgram(['env', 'NO_COLOR=1', '~/.local/bin/claude'])).toBeNull(); // ~ is the remote shell's to expand
    expect(remoteProgram(['env', 'NO_COLOR=1', '/opt/bin/claude.exe', '-c'])).toEqual({ prefix: ['env', 'NO_COLOR=1'], program: '/opt/bin/claude.exe', name: 'claude', args: ['-c'] });
    expect(remoteProgram(['cd', 'proj', '&&', 'claude'])).toBeNull();
    // Quoted for the remote shell, a question mark or a bracket is just text in an argument…
    expect(remoteProgram([`claude 'fix the tests?' '(all of them)'`])).toMatchObject({ name: 'claude', args: ['fix the tests?', '(all of them)'] });
    expect(remoteProgram([`claude "why (not)?"`])).toMatchObject({ args: ['why (not)?'] });
    // …but not what the remote shell still expands in double quotes, nor an unfinished quote.
    expect(remoteProgram([`claude "$HOME"`])).toBeNull();
    expect(remoteProgram([`claude 'open`])).toBeNull();
    expect(remoteProgram([])).toBeNull();
  });
});

describe('a SPEC that runs on another machine', () => {
  it('takes the remote agent’s profile, named by its host', () => {
    const spec = parseSpec('ssh -p 2222 me@devbox claude --model opus', {});
    expect(spec).toMatchObject({ agent: 'claude', name: 'claude', file: 'ssh', args: ['-p', '2222', 'me@devbox', 'claude', '--model', 'opus'] });
    expect(spec.remote?.host).toBe('devbox');
    // BELLTOWER_CLAUDE_BIN is this machine's: never used remotely.
    expect(parseSpec('ssh devbox claude', { BELLTOWER_CLAUDE_BIN: '/opt/local-claude' }).remote?.program?.program).toBe('claude');
    expect(parseSpec('ssh devbox', {})).toMatchObject({ agent: 'shell', name: 'devbox' });
    expect(parseSpec('ssh devbox make test', {})).toMatchObject({ agent: 'command', name: 'make' });
    // Quoted remote shell syntax stays ssh's: a remote command, not a local /bin/sh line.
    expect(parseSpec(`ssh devbox 'cd proj && make'`, {})).toMatchObject({ agent: 'command', file: 'ssh', name: 'devbox' });
    // Unquoted, it is the local shell's: ssh piped into something is a local command line.
    expect(parseSpec('ssh devbox make | tee log', {})).toMatchObject({ agent: 'command', file: '/bin/sh' });
    expect(() => parseSpec('ssh -p', {})).toThrow(SpecError);
  });

  it('asks ssh for a terminal for a remote command, and puts the agent’s additions after its program', () => {
    const remote = parseSpec('ssh -p 2222 me@devbox claude --model opus', {}).remote!;
    expect(sshArgv(remote)).toEqual(['-t', '-p', '2222', 'me@devbox', 'claude', '--model', 'opus']);
    expect(sshArgv(remote, { inserted: ['--session-id', 'abc'] })).toEqual(['-t', '-p', '2222', 'me@devbox', 'claude', '--session-id', 'abc', '--model', 'opus']);
    // A resumed conversation replaces the arguments (its first prompt is not sent again).
    expect(sshArgv(remote, { inserted: ['--resume', 'abc'], args: ['--model', 'opus'] })).toEqual(['-t', '-p', '2222', 'me@devbox', 'claude', '--resume', 'abc', '--model', 'opus']);
    // -t or -T given: left alone. No command: the login shell gets its terminal from ssh already.
    expect(sshArgv(parseSpec('ssh -T devbox claude', {}).remote!)).toEqual(['-T', 'devbox', 'claude']);
    expect(sshArgv(parseSpec('ssh devbox', {}).remote!)).toEqual(['devbox']);
    // Shell syntax: passed as given, nothing added.
    expect(sshArgv(parseSpec(`ssh devbox 'cd proj && claude'`, {}).remote!, { inserted: ['--session-id', 'abc'] })).toEqual(['-t', 'devbox', 'cd proj && claude']);
    // Options of belltower's go first (ssh keeps the first value of an option).
    expect(sshArgv(remote, { sshOptions: ['-o', 'ControlMaster=yes'] }).slice(0, 4)).toEqual(['-t', '-o', 'ControlMaster=yes', '-p']);
  });

  it('quotes each word so that the remote shell reads it back unchanged (sh, bash, zsh, fish)', () => {
    const words = ['plain', 'two words', "it's", '$HOME', 'a\\b', 'a\\\\b', "x\\'y", 'ünïcode', '', '=ls', '%self', 'a=b', '50%'];
    for (const shell of ['sh', 'bash', 'zsh', 'fish']) {
      if (spawnSync(shell, ['-c', 'true']).status !== 0) continue;
      const line = `printf '%s\\n' ${words.map(remoteWord).join(' ')}`;
      const out = spawnSync(shell, ['-c', line], { encoding: 'utf8' }).stdout;
      expect(out, shell).toBe(words.map((w) => `${w}\n`).join(''));
    }
    expect(remoteWord('--model')).toBe('--model');
  });
});
