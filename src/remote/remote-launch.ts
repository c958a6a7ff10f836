/**
 * A tile that runs on another machine over ssh: what the SPEC said, and the ssh command line that
 * runs it, with what belltower adds (a terminal for the agent, its conversation, its hooks). Pure.
 *
 * Nothing is installed remotely for a plain remote tile: OSC 7501, titles and banners travel
 * through ssh's terminal unchanged, so the agent's status arrives in-band.
 */
import { isCodingAgent } from '../agents/profile.js';
import type { AgentName } from '../agents/profile.js';
import { parseSshCommand, remoteProgram, remoteWord } from './ssh-command.js';
import type { RemoteProgram, SshCommand } from './ssh-command.js';

export interface RemoteLaunch {
  /** The host, for the header (`remote · devbox`). */
  host: string;
  ssh: SshCommand;
  /** The remote program and its arguments, when the remote line is plain words (else null: it is
   * passed on as given, and nothing is added to it). */
  program: RemoteProgram | null;
}


/** `ssh …` words (after `ssh`) → the remote launch and the profile it runs under. */
export function readRemote(args: readonly string[]): { remote: RemoteLaunch; agent: AgentName; name: string } {
  const ssh = parseSshCommand(args);
  const program = remoteProgram(ssh.command);
  const remote = { host: ssh.host, ssh, program };
  if (program && isCodingAgent(program.name)) return { remote, agent: program.name, name: program.name };
  // The remote login shell, or any other remote command (its exit status is the command's).
  if (ssh.command.length === 0) return { remote, agent: 'shell', name: ssh.host };
  return { remote, agent: 'command', name: program?.name ?? ssh.host };
}

export interface RemoteAdditions {
  /** ssh options put before the user's own (ssh takes the first value given for an option). */
  sshOptions?: readonly string[];
  /** The agent's arguments instead of the SPEC's (a resumed conversation drops its first prompt). */
  args?: readonly string[];
  /** Arguments added right after the program word (`--session-id …`, `--settings …`). */
  inserted?: readonly string[];
  /** Run the program line through this instead (the remote hooks' bootstrap): gets the words up
   * to the program and those after it (the inserted arguments first), each a line for the remote
   * shell. */
  wrap?: (head: string, tail: string) => string;
}

/** ssh's argv for a remote tile. */
export function sshArgv(remote: RemoteLaunch, add: RemoteAdditions = {}): string[] {
  const { ssh, program } = remote;
  // An agent is an interactive program: ssh gives a command no terminal unless asked.
  const tty = ssh.tty === 'default' && ssh.command.length > 0 ? ['-t'] : [];
  const head = [...tty, ...(add.sshOptions ?? []), ...ssh.options, ssh.destination];
  if (!program) return [...head, ...ssh.command];
  const before = [...program.prefix, program.program].map(remoteWord).join(' ');
  const inserted = (add.inserted ?? []).map(remoteWord);
  const after = (add.args ?? program.args).map(remoteWord);
  if (add.wrap) return [...head, add.wrap(before, [...inserted, ...after].join(' '))];
  return [...head, before, ...inserted, ...after];
}
