/**
 * SPEC → what to run: `claude`, `codex`, `gemini` (optionally with arguments, e.g.
 * "claude --model opus"), `shell` (the user's $SHELL), a shell named alone (`bash`, `zsh`, `fish`:
 * an interactive shell with prompt marks), or any other command line — a plain command, run
 * directly, or by /bin/sh -c when it has shell syntax.
 */
import type { AgentName } from './profile.js';
import { shellKind } from './shell-integration.js';

export interface LaunchSpec {
  agent: AgentName;
  /** The tile's default name. */
  name: string;
  file: string;
  args: string[];
  /** The command line as the user gave it. */
  spec: string;
}

const AGENTS: readonly AgentName[] = ['claude', 'codex', 'gemini'];

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
  if ((AGENTS as readonly string[]).includes(first)) {
    const agent = first as AgentName;
    const override = agent === 'claude' ? env.BELLTOWER_CLAUDE_BIN : agent === 'codex' ? env.BELLTOWER_CODEX_BIN : env.BELLTOWER_GEMINI_BIN;
    return { agent, name: agent, file: override || agent, args: words.slice(1), spec };
  }
  if (first === 'shell' && words.length === 1) {
    return { agent: 'shell', name: 'shell', file: env.SHELL || '/bin/sh', args: [], spec };
  }
  const name = first.split('/').at(-1) ?? first;
  // `bash` alone is someone asking for a shell, not for a command that ends.
  if (words.length === 1 && shellKind(first)) return { agent: 'shell', name, file: first, args: [], spec };
  // A plain command runs directly, so a missing binary is reported by name before anything starts;
  // only shell syntax (pipes, variables, globs, redirections) needs /bin/sh.
  if (!SHELL_SYNTAX.test(spec)) return { agent: 'command', name, file: first, args: words.slice(1), spec };
  return { agent: 'command', name, file: '/bin/sh', args: ['-c', spec], spec };
}

const SHELL_SYNTAX = /[|&;<>()$`\\*?[\]#~=%!{}]|^\s*\w+=/;

export class SpecError extends Error {
  override name = 'SpecError';
}

/** Split on blanks, honouring single and double quotes (no expansions: that is the shell's job). */
export function splitWords(text: string): string[] {
  const words: string[] = [];
  let current = '';
  let quote: '"' | "'" | null = null;
  let inWord = false;
  for (const ch of text) {
    if (quote) {
      if (ch === quote) quote = null;
      else current += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      inWord = true;
    } else if (/\s/.test(ch)) {
      if (inWord) words.push(current);
      current = '';
      inWord = false;
    } else {
      current += ch;
      inWord = true;
    }
  }
  if (quote) throw new SpecError(`unbalanced ${quote} in "${text}"`);
  if (inWord) words.push(current);
  return words;
}
