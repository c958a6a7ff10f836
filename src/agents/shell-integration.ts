/**
 * Shell integration: how belltower starts bash, zsh and fish so that they mark their prompts and
 * commands (OSC 133) and report their folder (OSC 7) — the way terminal emulators do it, without
 * touching the user's rc files. The scripts live in `shell-integration/` (shipped with the
 * package); each loads the user's own startup files first:
 *
 *   bash   bash --rcfile …/bash/belltower.bash          (it sources ~/.bashrc)
 *   zsh    ZDOTDIR=…/zsh, the user's in BELLTOWER_ZDOTDIR (its .zshenv restores it)
 *   fish   fish --init-command 'source …/fish/belltower.fish'   (runs after config.fish)
 */
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';

export type ShellKind = 'bash' | 'zsh' | 'fish';

export const INTEGRATED_SHELLS: readonly ShellKind[] = ['bash', 'zsh', 'fish'];

/** The folder of the shipped scripts (a sibling of dist/ and src/). */
export const SHELL_INTEGRATION_DIR = fileURLToPath(new URL('../../shell-integration/', import.meta.url));

/** Which integrated shell `file` is, by its name (`/usr/bin/zsh`, `bash`, `fish`), or null. */
export function shellKind(file: string): ShellKind | null {
  const name = basename(file);
  return (INTEGRATED_SHELLS as readonly string[]).includes(name) ? (name as ShellKind) : null;
}

export interface ShellLaunch {
  /** Put these before the user's own arguments. */
  args: string[];
  env: Record<string, string>;
}

/** How to start `kind` with belltower's prompt marks. `env` is the environment the shell would get. */
export function shellLaunch(kind: ShellKind, env: Readonly<Record<string, string | undefined>>, dir = SHELL_INTEGRATION_DIR): ShellLaunch {
  switch (kind) {
    case 'bash':
      return { args: ['--rcfile', `${dir}bash/belltower.bash`], env: {} };
    case 'zsh':
      // zsh reads $ZDOTDIR/.zshenv first; ours puts the user's ZDOTDIR back (or unsets it) and
      // sources their .zshenv, so every later startup file is theirs.
      return { args: [], env: { ZDOTDIR: `${dir}zsh`, ...(env.ZDOTDIR === undefined ? {} : { BELLTOWER_ZDOTDIR: env.ZDOTDIR }) } };
    case 'fish':
      return { args: ['--init-command', `source ${fishQuote(`${dir}fish/belltower.fish`)}`], env: {} };
  }
}

/** A fish single-quoted word: only `\` and `'` are special inside. */
function fishQuote(text: string): string {
  return `'${text.replace(/[\\']/g, (ch) => `\\${ch}`)}'`;
}
