import { describe, expect, it } from 'vitest';
import { parseFolder, parsePromptMark, shellSignals, unquoteShell } from '../../src/sources/shell.js';

describe('OSC 133 prompt marks', () => {
  it('A is the prompt (at rest), C a command with its line, D its end with the status', () => {
    expect(shellSignals('A')).toEqual({ signals: [{ type: 'at-rest', source: 'shell', detail: 'at the prompt' }] });
    expect(shellSignals('A;click_events=1')).toEqual({ signals: [{ type: 'at-rest', source: 'shell', detail: 'at the prompt' }] });
    expect(shellSignals('C')).toEqual({ signals: [{ type: 'command-start', source: 'shell' }] });
    expect(shellSignals('C;cmdline=npm\\ test')).toEqual({ signals: [{ type: 'command-start', source: 'shell', command: 'npm test' }] });
    expect(shellSignals('D;0')).toEqual({ signals: [{ type: 'command-end', source: 'shell', code: 0 }] });
    expect(shellSignals('D;127;aid=4')).toEqual({ signals: [{ type: 'command-end', source: 'shell', code: 127 }] });
  });

  it('an end without a status, and kitty/WezTerm options in its place, have no code', () => {
    expect(parsePromptMark('D')).toEqual({ ok: true, mark: { mark: 'end', code: null } });
    expect(parsePromptMark('D;')).toEqual({ ok: true, mark: { mark: 'end', code: null } });
    expect(parsePromptMark('D;aid=12')).toEqual({ ok: true, mark: { mark: 'end', code: null } });
  });

  it('B, a secondary prompt and marks it does not know say nothing', () => {
    expect(shellSignals('B').signals).toEqual([]);
    expect(shellSignals('A;k=s').signals).toEqual([]);
    expect(shellSignals('P;k=i').signals).toEqual([]);
  });

  it('a malformed mark is no signal and a reason', () => {
    expect(shellSignals('')).toEqual({ signals: [], error: 'OSC 133: empty mark' });
    expect(shellSignals('D;zero').error).toMatch(/exit status "zero" is not a number/);
    expect(shellSignals('D;99999999999').error).toMatch(/not a number/);
  });

  it('reads the command line as kitty (%q), fish (URL) and belltower send it; a quoted ; is part of it', () => {
    const command = (payload: string) => (parsePromptMark(payload) as { ok: true; mark: { command?: string } }).mark.command;
    expect(command(`C;cmdline=echo\\ \\"a\\;b\\ c\\"\\ \\|\\ cat`)).toBe('echo "a;b c" | cat');
    expect(command('C;cmdline_url=echo%20%22a%3Bb%20c%22%20%7C%20cat')).toBe('echo "a;b c" | cat');
    expect(command("C;cmdline=$'printf \\e[31m; echo \\303\\251t\\xc3\\xa9'")).toBe('printf \\x1b[31m; echo été');
    expect(command('C;cmdline_url=%E0%A4%A')).toBeUndefined(); // broken escapes: no command line, still a command
    expect(command(`C;cmdline=${'x'.repeat(5000)}`)).toBeUndefined();
  });

  it('shows one printable line: the first of a multi-line command, control characters visible, long ones cut', () => {
    const command = (payload: string) => (parsePromptMark(payload) as { ok: true; mark: { command?: string } }).mark.command;
    expect(command("C;cmdline=$'for f in *\\ndo echo $f\\ndone'")).toBe('for f in * …');
    expect(command(`C;cmdline_url=${'a'.repeat(300)}`)).toHaveLength(200);
    expect(command('C;cmdline_url=%1B%5D0%3Bpwned%07')).toBe('\\x1b]0;pwned\\x07');
  });

  it('undoes shell quoting: backslashes, single, double and $-quotes', () => {
    expect(unquoteShell(`a\\ b 'c d' "e \\"f\\" \\$g" $'\\t\\x41\\u00e9'`)).toBe('a b c d e "f" $g \tAé');
  });
});

describe('OSC 7: the folder', () => {
  it('reads file:// URLs (percent-encoded) and kitty\'s own form', () => {
    expect(parseFolder('file://host/home/me/my%20project')).toBe('/home/me/my project');
    expect(parseFolder('file:///tmp')).toBe('/tmp');
    expect(parseFolder('kitty-shell-cwd://host/home/me/100%')).toBe('/home/me/100%');
  });

  it('names no folder for anything else', () => {
    expect(parseFolder('http://host/x')).toBeNull();
    expect(parseFolder('file://host')).toBeNull();
    expect(parseFolder('file://host/bad%')).toBeNull();
    expect(parseFolder('file://host/nul%00')).toBeNull();
    expect(parseFolder(`file://host/${'a'.repeat(5000)}`)).toBeNull();
  });
});
