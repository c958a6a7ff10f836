/**
 * SPEC → what to run: `claude`, `codex`, `gemini` (optionally with arguments, e.g.
 * "claude --model opus"), `shell` (the user's $SHELL), a shell named alone (`bash`, `zsh`, `fish`:
 * an interactive shell with prompt marks), or any other command line — a plain command, run
 * directly, or by /bin/sh -c when it has shell syntax — or any of these on another machine:
 * `ssh [options] HOST claude …`.
 */
import { readRemote } from '../remote/remote-launch.js';
import type { RemoteLaunch } from '../remote/remote-launch.js';
import { SshCommandError } from '../remote/ssh-command.js';
import { isCodingAgent } from './profile.js';
import type { AgentName } from './profile.js';
import { shellKind } from './shell-integration.js';
import { SpecError, splitWords } from './spec-words.js';

export { SpecError, specWord, splitWords } from './spec-words.js';

export interface LaunchSpec {
  agent: AgentName;
  /** The tile's default name. */
  name: string;
  file: string;
  args: string[];
  /** The command line as the user gave it. */
  spec: string;
  /** `ssh [options] HOST [agent …]`: the tile runs on HOST (file and args are ssh's). */
  remote?: RemoteLaunch;
}

export interface LaunchEnv {
  SHELL?: string;
  BELLTOWER_CLAUDE_BIN?: string;
  BELLTOWER_CODEX_BIN?: string;
  BELLTOWER_GEMINI_BIN?: string;
}

export function parseSpec(spec: string, env: LaunchEnv = process.env): LaunchSpec {
  const words = splitWords(spec.trim());
  const first = words[0];
  if (first === undefined) throw new SpecError('an empty SPEC: give claude, codex, gemini, shell, or a command line');
  if (isCodingAgent(first)) {
    const agent = first;
    const override = agent === 'claude' ? env.BELLTOWER_CLAUDE_BIN : agent === 'codex' ? env.BELLTOWER_CODEX_BIN : env.BELLTOWER_GEMINI_BIN;
    return { agent, name: agent, file: override || agent, args: words.slice(1), spec };
  }
  if (first === 'shell' && words.length === 1) {
    return { agent: 'shell', name: 'shell', file: env.SHELL || '/bin/sh', args: [], spec };
  }
  const name = first.split('/').at(-1) ?? first;
  // ssh to another machine, where the agent runs: the tile takes the remote agent's profile.
  if (name === 'ssh' && !LOCAL_SYNTAX.test(unquoted(spec))) {
    try {
      const remote = readRemote(words.slice(1));
      return { agent: remote.agent, name: remote.name, file: first, args: words.slice(1), spec, remote: remote.remote };
    } catch (error) {
      if (error instanceof SshCommandError) throw new SpecError(`${error.message} (in "${spec}")`);
      throw error;
    }
  }
  // `bash` alone is someone asking for a shell, not for a command that ends.
  if (words.length === 1 && shellKind(first)) return { agent: 'shell', name, file: first, args: [], spec };
  // A plain command runs directly, so a missing binary is reported by name before anything starts;
  // only shell syntax (pipes, variables, globs, redirections) needs /bin/sh.
  if (!SHELL_SYNTAX.test(spec)) return { agent: 'command', name, file: first, args: words.slice(1), spec };
  return { agent: 'command', name, file: '/bin/sh', args: ['-c', spec], spec };
}

const SHELL_SYNTAX = /[|&;<>()$`\\*?[\]#~=%!{}]|^\s*\w+=/;

/** What only a local shell could run (ssh's `-o Name=value` and `-i ~/key` need none). */
const LOCAL_SYNTAX = /[|&;<>()$`\\*?]/;

/** The text outside quotes (what the local shell would interpret), quoted parts as blanks. */
function unquoted(text: string): string {
  let out = '';
  let quote: string | null = null;
  for (const ch of text) {
    if (quote) {
      if (ch === quote) quote = null;
      out += ' ';
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      out += ' ';
    } else out += ch;
  }
  return out;
}
