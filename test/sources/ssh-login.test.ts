/**
 * ssh's login questions, as OpenSSH prints them, with the cursor where ssh leaves it; and the
 * lines that only look like them.
 */
import { describe, expect, it } from 'vitest';
import { loginPromptAt } from '../../src/sources/ssh-login.js';

/** The row as the screen holds it (padded), the cursor right after the text plus `gap` blanks. */
const at = (text: string, gap = 0) => loginPromptAt(text.padEnd(100), text.length + gap);

describe("ssh's login questions", () => {
  it('reads each kind where the cursor waits after it', () => {
    expect(at('Are you sure you want to continue connecting (yes/no/[fingerprint])? ')).toBe('host-key');
    expect(at('Are you sure you want to continue connecting (yes/no)? ')).toBe('host-key');
    expect(at("Please type 'yes', 'no' or the fingerprint: ")).toBe('host-key');
    expect(at("me@devbox.example.com's password: ")).toBe('password');
    expect(at('(me@devbox) Password: ')).toBe('password');
    expect(at('(me@devbox) Verification code: ')).toBe('code');
    expect(at("Enter passphrase for key '/home/me/.ssh/id_ed25519': ")).toBe('passphrase');
  });

  it('is no question once something is typed after it, or the cursor is elsewhere', () => {
    expect(at('Are you sure you want to continue connecting (yes/no/[fingerprint])? ye')).toBeNull();
    const row = "me@devbox's password: ".padEnd(100);
    expect(loginPromptAt(row, 3)).toBeNull();
    expect(at('')).toBeNull();
  });

  it('leaves alone what only looks like one: the remote program’s prompts and prose', () => {
    expect(at('[sudo] password for me: ')).toBeNull();
    expect(at('Password: ')).toBeNull();
    expect(at('Enter your password: ')).toBeNull();
    expect(at("The docs say: type me@devbox's password: ")).toBeNull();
    expect(at('> Are you sure? ')).toBeNull();
  });
});
