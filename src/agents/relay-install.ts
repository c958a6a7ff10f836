/**
 * Puts a tile's relay into its private folder and says how to invoke it: as a shell command
 * string (settings files) or as argv (Codex's notify array).
 */
import type { HookRegistration } from '../sources/hooks/hook-server.js';
import type { SessionFolder } from './session-folder.js';
import { relayCurlConfig, relayScript } from './relay-script.js';
import { shellQuote } from './shell-quote.js';

export interface InstalledRelay {
  scriptPath: string;
  /** `sh '<script>' [--event NAME]`: for command hooks (payload on stdin). */
  command(event?: string): string;
  /** `['sh', '<script>', '--event', NAME, '--arg']`: the program receives the payload as last argv. */
  argv(event: string): string[];
}

export interface RelayOptions {
  /** A program to run after posting, with the payload appended (the user's own Codex notify). */
  chain?: readonly string[] | undefined;
  /** The script's file name without `.sh`, when a tile needs two relays (default `relay`). */
  name?: string;
}

export function installRelay(folder: SessionFolder, registration: HookRegistration, options: RelayOptions = {}): InstalledRelay {
  const url = new URL(registration.url);
  const name = options.name ?? 'relay';
  const curlConfigPath = folder.write(`${name}.curlrc`, relayCurlConfig(registration.token));
  const scriptPath = folder.write(
    `${name}.sh`,
    relayScript({ port: Number(url.port), path: url.pathname, token: registration.token, curlConfigPath, chain: options.chain }),
  );
  return {
    scriptPath,
    command: (event) => ['sh', shellQuote(scriptPath), ...(event ? ['--event', shellQuote(event)] : [])].join(' '),
    argv: (event) => ['sh', scriptPath, '--event', event, '--arg'],
  };
}
