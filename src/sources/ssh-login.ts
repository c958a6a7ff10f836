/**
 * ssh's own questions while it logs in — a host key to accept, a password, a key's passphrase, a
 * one-time code — read from the row the cursor waits on. belltower never answers them; it only
 * says the tile waits for you, so that a remote tile stuck at a password is not `starting` forever.
 *
 * The shapes are ssh's own prompts (OpenSSH's `sshconnect.c`, `sshconnect2.c`, `readpass.c`), not
 * any line that ends in "password:": a remote `sudo` asking is the remote program's business.
 */

import type { LoginPrompt } from '../verdict/signals.js';

const PROMPTS: readonly (readonly [LoginPrompt, RegExp])[] = [
  ['host-key', /Are you sure you want to continue connecting \(yes\/no(?:\/\[fingerprint\])?\)\?$/],
  ['host-key', /^Please type 'yes', 'no' or the fingerprint:$/],
  ['passphrase', /^Enter passphrase for (?:key )?'[^']{1,4096}':$/],
  ['password', /^[^\s@']{1,64}@[^\s']{1,255}'s password:$/],
  // Keyboard-interactive (PAM) prompts come as "(user@host) Password:", "(user@host) Verification code:".
  ['password', /^\([^\s@()]{1,64}@[^\s()]{1,255}\) Password:$/i],
  ['code', /^\([^\s@()]{1,64}@[^\s()]{1,255}\) [^:]{1,80}:$/],
];

/**
 * The question ssh waits on, when the cursor sits right after one (nothing typed after it yet:
 * a password's characters are not echoed, so the cursor stays put until Enter).
 */
export function loginPromptAt(rowText: string, cursorX: number): LoginPrompt | null {
  const before = rowText.slice(0, cursorX).trimEnd();
  if (before.length === 0 || rowText.slice(cursorX).trim() !== '') return null;
  for (const [prompt, shape] of PROMPTS) if (shape.test(before)) return prompt;
  return null;
}
