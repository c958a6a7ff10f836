/**
 * node-pty prints "Unhandled pty write error" with console.error when a program exits with input
 * still queued for it. Made certain here with node-pty itself (a megabyte typed at a `sleep` that
 * never reads): the error reaches belltower's log, and nothing reaches stderr.
 */
import { spawn } from 'node-pty';
import { describe, expect, it, onTestFinished } from 'vitest';
import { routePtyWriteErrors } from '../../src/session/pty-write-errors.js';
import { until } from '../tile/helpers.js';

describe("node-pty's write errors", () => {
  it('go to the log, not to stderr; other console.error calls are untouched', async () => {
    const logged: string[] = [];
    // What console.error was before: where node-pty's line would have gone.
    const written: string[] = [];
    const before = console.error;
    console.error = (...args: unknown[]) => void written.push(args.map(String).join(' '));
    onTestFinished(() => void (console.error = before));
    routePtyWriteErrors((_level, message, fields) => logged.push(`${message} ${JSON.stringify(fields)}`));
    const pty = spawn('sleep', ['0.3'], { cols: 80, rows: 24 });
    for (let i = 0; i < 200; i++) pty.write('x'.repeat(5000));
    await until('the write error', () => logged.length > 0, 10_000);
    expect(logged[0]).toMatch(/^a write to a program that had exited was dropped \{"error":"EBADF/);
    console.error('some other message');
    expect(written.join('')).not.toContain('Unhandled pty write error');
    expect(written.join('')).toContain('some other message');
  });
});
