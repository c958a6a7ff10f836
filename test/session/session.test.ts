import { afterEach, describe, expect, it } from 'vitest';
import { Owned, collectOutput, exitOf, waitFor } from './helpers.js';

const owned = new Owned();
afterEach(() => owned.disposeAll());

// A child that probes the terminal the way Claude Code does — XTVERSION, kitty keyboard, the
// OSC 7501 query, then DA1 as the sentinel — reads its stdin raw, and prints what came back, in
// order, once the DA1 reply is in.
const PROBE = String.raw`
const terminator = process.argv[1] === 'st' ? '\x1b\\' : '\x07';
process.stdin.setRawMode(true);
let got = '';
process.stdin.on('data', (chunk) => {
  got += chunk.toString('latin1');
  if (/\x1b\[\?[\d;]*c/.test(got)) {
    process.stdout.write('RESULT ' + JSON.stringify(got) + '\n');
    process.exit(0);
  }
});
process.stdout.write('\x1b[>0q\x1b[?u\x1b]7501;?' + terminator + '\x1b[c');
`;

async function probe(terminator: 'bel' | 'st', answerPspQuery: boolean): Promise<string> {
  const session = owned.session({ file: process.execPath, args: ['-e', PROBE, terminator], cols: 80, rows: 24, answerPspQuery });
  const out = collectOutput(session);
  await waitFor(() => /RESULT ".*"\r?\n/.test(out.text), 'the probe result', 15_000);
  return JSON.parse(/RESULT (".*")\r?\n/.exec(out.text)?.[1] ?? '""') as string;
}

describe('Session', () => {
  it('answers the OSC 7501 query so the child receives the echo before the DA1 reply (BEL)', async () => {
    const received = await probe('bel', true);
    const echo = received.indexOf('\x1b]7501;?\x07');
    const da1 = received.search(/\x1b\[\?[\d;]*c/);
    expect(echo).toBeGreaterThanOrEqual(0);
    expect(echo).toBeLessThan(da1);
  });

  it('echoes an ST-terminated query with ST, before the DA1 reply', async () => {
    const received = await probe('st', true);
    const echo = received.indexOf('\x1b]7501;?\x1b\\');
    expect(echo).toBeGreaterThanOrEqual(0);
    expect(echo).toBeLessThan(received.search(/\x1b\[\?[\d;]*c/));
  });

  it('sends only the DA1 reply when the answer is off', async () => {
    const received = await probe('bel', false);
    expect(received).not.toContain('7501');
    expect(received).toMatch(/\x1b\[\?[\d;]*c$/);
  });

  it('resizes the pty and the screen together; the child sees the new size', async () => {
    const session = owned.session({
      file: 'sh',
      // The trap is set before the first size is printed: a resize right after it must not be lost.
      args: ['-c', 'trap "stty size" WINCH; stty size; while :; do sleep 0.05; done'],
      cols: 80,
      rows: 24,
    });
    const out = collectOutput(session);
    await waitFor(() => out.text.includes('24 80'), 'the first size');
    session.resize(100, 30);
    expect([session.screen.cols, session.screen.rows]).toEqual([100, 30]);
    await waitFor(() => out.text.includes('30 100'), 'the size after SIGWINCH');
    expect(() => session.resize(0, 10)).toThrow(/a terminal is 2–1000 columns by 1–1000 rows/);
    expect(() => session.resize(100_000, 10)).toThrow(RangeError);
  });

  it('reports a command that cannot start as an exit with the reason', async () => {
    const session = owned.session({ file: 'no-such-binary', cols: 80, rows: 24 });
    expect(await exitOf(session)).toEqual({ code: null, signal: null, error: 'command not found: no-such-binary' });
    expect(session.screen.rowTexts()).toHaveLength(24);
  });

  it('reports the exit after the screen parsed the output that arrived', async () => {
    const session = owned.session({
      file: 'sh',
      args: ['-c', 'i=0; while [ $i -lt 3000 ]; do echo "line $i of some output"; i=$((i+1)); done; echo END; sleep 0.3; exit 2'],
      cols: 80,
      rows: 24,
    });
    const seenAtExit: string[] = [];
    session.onExit(() => seenAtExit.push(...session.screen.rowTexts()));
    expect(await exitOf(session)).toEqual({ code: 2, signal: null });
    expect(seenAtExit).toContain('END');
  });

  it('reports each chunk as parsed after its OSCs, while the rows show it', async () => {
    const session = owned.session({ file: 'sh', args: ['-c', String.raw`printf '\033]2;T\007hello'; sleep 5`], cols: 40, rows: 5 });
    const events: string[] = [];
    session.onOsc((code, payload) => events.push(`osc ${code} ${payload}`));
    session.onChunkParsed((data) => events.push(`parsed ${JSON.stringify(data)} row0=${session.screen.rowText(0)}`));
    await waitFor(() => events.length >= 2, 'the OSC and the parsed chunk');
    expect(events).toEqual(['osc 2 T', `parsed ${JSON.stringify('\x1b]2;T\x07hello')} row0=hello`]);
  });

  it('reports OSCs from the child through onOsc', async () => {
    const session = owned.session({
      file: 'sh',
      args: ['-c', String.raw`printf '\033]0;✳ Claude Code\007\033]7501;state=idle:app=claude-code\033\\'; sleep 5`],
      cols: 80,
      rows: 24,
    });
    const seen: string[] = [];
    session.onOsc((code, payload) => seen.push(`${code} ${payload}`));
    await waitFor(() => seen.length === 2, 'two OSCs');
    expect(seen).toEqual(['0 ✳ Claude Code', '7501 state=idle:app=claude-code']);
  });
});
