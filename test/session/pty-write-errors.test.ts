/**
 * node-pty prints "Unhandled pty write error" with console.error when a program exits with input
 * still queued for it. Made to happen here with node-pty itself (a megabyte typed at a `sleep`
 * that never reads): the error reaches belltower's log, and nothing reaches stderr.
 */
import { spawn } from 'node-pty';
import { describe, expect, it, onTestFinished } from 'vitest';
import { routePtyWriteErrors } from '../../src/session/pty-write-errors.js';

describe("node-pty's write errors", () => {
  it('go to the log, not to stderr; other console.error calls are untouched', async () => {
    const logged: string[] = [];
    // What console.error was before: where node-pty's line would have gone.
    const written: string[] = [];
    const before = console.error;
    console.error = (...args: unknown[]) => void written.push(args.map(String).join(' '));
    onTestFinished(() => void (console.error = before));
    routePtyWriteErrors((_level, message, fields) => logged.push(`${message} ${JSON.stringify(fields)}`));
    // Whether the queued write is retried after the pty closed is a race (about half the runs
    // here): up to twenty programs make it certain.
    for (let attempt = 0; attempt < 20 && logged.length === 0; attempt++) {
      const pty = spawn('sleep', ['0.2'], { cols: 80, rows: 24 });
      for (let i = 0; i < 200; i++) pty.write('x'.repeat(5000));
      const ended = new Promise<void>((resolve) => pty.onExit(() => resolve()));
      await ended;
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    expect(logged[0]).toMatch(/^a write to a program that had exited was dropped \{"error":"EBADF/);
    console.error('some other message');
    expect(written.join('')).not.toContain('Unhandled pty write error');
    expect(written.join('')).toContain('some other message');
  });
});
