import { describe, expect, it } from 'vitest';
import { CLAUDE_TITLE, CODEX_TITLE, GEMINI_TITLE, SHELL_TITLE, type TitleGlyphs } from '../../src/agents/title-glyphs.js';
import { classifyTitle } from '../../src/sources/title.js';

/** The signal type a title yields, or 'none'. */
const read = (glyphs: TitleGlyphs, title: string): string => classifyTitle(glyphs, title)[0]?.type ?? 'none';

describe('classifyTitle: Claude Code', () => {
  it('reads ✳ as at rest and ◐◑◒◓ as working', () => {
    expect(read(CLAUDE_TITLE, '✳ Claude Code')).toBe('at-rest');
    for (const glyph of ['◐', '◑', '◒', '◓']) expect(read(CLAUDE_TITLE, `${glyph} Claude Code`)).toBe('working');
  });

  it('reads the Braille spinner of versions ≤ 2.1.227 as working', () => {
    for (const glyph of ['⠂', '⠐', '⠋', '\u2800', '\u28ff']) expect(read(CLAUDE_TITLE, `${glyph} Claude Code`)).toBe('working');
  });

  it('reads any other glyph as unknown, with the title in the detail', () => {
    expect(classifyTitle(CLAUDE_TITLE, '✻ Claude Code')).toEqual([{ type: 'unknown', source: 'title', detail: 'title "✻ Claude Code"' }]);
    expect(read(CLAUDE_TITLE, '◔ Claude Code')).toBe('unknown'); // U+25D4, just past the spinner range
  });

  it('takes the fixed glyph-less title (OSC 7501 on) and an empty title as no evidence', () => {
    expect(classifyTitle(CLAUDE_TITLE, 'Claude Code')).toEqual([]);
    expect(classifyTitle(CLAUDE_TITLE, '')).toEqual([]);
    expect(classifyTitle(CLAUDE_TITLE, '   ')).toEqual([]);
  });

  it('never says blocked', () => {
    for (const title of ['✳ Claude Code', '◐ x', '✋ Action Required', '[ ! ] Action Required']) {
      expect(read(CLAUDE_TITLE, title)).not.toBe('blocked');
    }
  });

  it('carries the source and a bounded detail', () => {
    const [signal] = classifyTitle(CLAUDE_TITLE, `◐ ${'x'.repeat(200)}`);
    expect(signal).toMatchObject({ type: 'working', source: 'title' });
    expect(signal && 'detail' in signal ? signal.detail?.length : 0).toBeLessThanOrEqual(90);
  });
});

describe('classifyTitle: Codex', () => {
  it('reads a Braille spinner prefix as working', () => {
    expect(read(CODEX_TITLE, '⠋ fix the tests | belltower')).toBe('working');
  });

  it('reads a glyph-less title (folder, or prompt | folder) as at rest', () => {
    expect(read(CODEX_TITLE, 'belltower')).toBe('at-rest');
    expect(read(CODEX_TITLE, 'fix the tests | belltower')).toBe('at-rest');
  });

  it('reads "Action Required" as blocked: Codex sets it only while a view that waits on the user is open (0.150.1 says nothing else)', () => {
    for (const title of ['[ . ] Action Required | belltower', '[ ! ] Action Required | Create the file | belltower']) {
      expect(classifyTitle(CODEX_TITLE, title)).toEqual([{ type: 'blocked', kind: 'other', source: 'title', detail: 'codex title "Action Required"' }]);
    }
    // Only as Codex writes it, at the start: a prompt or folder that quotes it is a title like any other.
    expect(read(CODEX_TITLE, 'why does it say [ ! ] Action Required | belltower')).toBe('at-rest');
    expect(read(CODEX_TITLE, '⠋ [ ! ] Action Required | belltower')).toBe('working');
  });

  it('reads an empty title (at exit) as no evidence, and other glyphs as unknown', () => {
    expect(read(CODEX_TITLE, '')).toBe('none');
    expect(read(CODEX_TITLE, '◐ something')).toBe('unknown');
  });
});

describe('classifyTitle: Gemini CLI', () => {
  // Gemini pads its titles with spaces to 80 columns and puts two spaces after the glyph.
  const pad = (title: string) => title.padEnd(80, ' ');

  it('reads ◇ as at rest and ✦ / ⏲ as working, padded or not', () => {
    expect(read(GEMINI_TITLE, pad('◇  Ready (belltower)'))).toBe('at-rest');
    expect(read(GEMINI_TITLE, pad('✦  Working… (belltower)'))).toBe('working');
    expect(read(GEMINI_TITLE, pad('⏲  Working… (belltower)'))).toBe('working');
    expect(read(GEMINI_TITLE, pad('⏲\ufe0f  Working… (belltower)'))).toBe('working');
  });

  it('reads ✋ Action Required as unknown: it also shows for a shell that went quiet', () => {
    const [signal] = classifyTitle(GEMINI_TITLE, pad('✋  Action Required (belltower)'));
    expect(signal?.type).toBe('unknown');
    expect(signal && 'detail' in signal ? signal.detail : '').toMatch(/quiet shell/);
  });

  it('reads no glyph as no evidence and other glyphs as unknown', () => {
    expect(read(GEMINI_TITLE, pad('Gemini CLI'))).toBe('none');
    expect(read(GEMINI_TITLE, pad('✳  Something'))).toBe('unknown');
  });
});

describe('classifyTitle: any other command', () => {
  it('reads only a Braille spinner, as working', () => {
    expect(read(SHELL_TITLE, '⠙ npm install')).toBe('working');
  });

  it('reads everything else as no evidence: a title is free text', () => {
    for (const title of ['user@host: ~/src', 'make', '~/src', '✳ Claude Code', '📁 src', '[ ! ] Action Required']) {
      expect(read(SHELL_TITLE, title)).toBe('none');
    }
  });
});
