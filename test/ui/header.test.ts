import { describe, expect, it } from 'vitest';
import stringWidth from 'string-width';
import { displayWidth } from '../../src/ui/display-width.js';
import { changesLabel, cutToWidth, ellipsized, headerSegments, segmentsWidth } from '../../src/ui/header.js';
import type { HeaderTile } from '../../src/ui/header.js';

const tile: HeaderTile = { id: 3, name: 'tests', state: 'blocked', kind: 'permission', source: 'psp', sinceMs: 4000 };
const text = (width: number, t: HeaderTile = tile) => headerSegments(t, { width, frame: 'round', selected: false, color: true }).map((s) => s.text).join('');

describe('headerSegments', () => {
  it('shows number, name, glyph, state, source and age in the top border', () => {
    expect(text(60)).toMatch(/^╭ 3 tests ─+ ◆ blocked: permission · OSC 7501 · 4s ╮$/);
  });

  it('is exactly as wide as the tile at every width, dropping age, then source, then words', () => {
    for (let width = 10; width <= 90; width++) expect(segmentsWidth(headerSegments(tile, { width, frame: 'bold', selected: true, color: false }))).toBe(width);
    expect(text(49)).toMatch(/^╭ 3 tests ─+ ◆ blocked: permission · OSC 7501 ╮$/);
    expect(text(37)).toMatch(/^╭ 3 tests ─+ ◆ blocked: permission ╮$/);
    expect(text(22)).toMatch(/^╭ 3 tests ─+ ◆ ╮$/);
  });

  it('a blocked tile says what it asks, in the agent\'s words, cut to fit before its state words', () => {
    const asking: HeaderTile = { ...tile, source: 'hook', asks: 'approve Bash `npm test`' };
    expect(text(80, asking)).toMatch(/^╭ 3 tests ─+ ◆ approve Bash: npm test · hook · 4s ╮$/);
    expect(text(40, asking)).toMatch(/^╭ 3 tests ─+ ◆ approve Bash: npm test ╮$/);
    const long: HeaderTile = { ...asking, asks: 'approve Bash `npm run test -- --reporter verbose --coverage`' };
    expect(text(50, long)).toMatch(/^╭ 3 tests ─+ ◆ approve Bash: npm run test -- --r… ╮$/);
    for (let width = 10; width <= 90; width++) expect(segmentsWidth(headerSegments(long, { width, frame: 'bold', selected: true, color: false }))).toBe(width);
    // Only a blocked tile asks: the words of a done turn are not a request.
    expect(text(80, { ...asking, state: 'working' })).not.toContain('approve');
    // A notification's message is shown as it came.
    expect(text(80, { ...tile, asks: 'Claude needs your permission to use Bash' })).toContain('◆ Claude needs your permission to use Bash');
  });

  it("shows what its folder changed after its name when there is room, dropping the agent's facts first", () => {
    const working: HeaderTile = { ...tile, state: 'working', kind: undefined, source: 'hook', changes: 'feat-login +120 −8 · 4 files', facts: 'opus-5 · 12% context' };
    expect(text(100, working)).toMatch(/^╭ 3 tests · feat-login \+120 −8 · 4 files · opus-5 · 12% context ─+ ● working · hook · 4s ╮$/);
    expect(text(70, working)).toMatch(/^╭ 3 tests · feat-login \+120 −8 · 4 files ─+ ● working · hook · 4s ╮$/);
    // The state's detail is never given up for it: too narrow for both, the changes go.
    expect(text(45, working)).toMatch(/^╭ 3 tests ─+ ● working · hook · 4s ╮$/);
    for (let width = 10; width <= 110; width++) expect(segmentsWidth(headerSegments(working, { width, frame: 'round', selected: false, color: true }))).toBe(width);
  });

  it('says what a folder changed only once it changed something; a worktree always says its branch', () => {
    const worktree = { path: '/w', branch: 'feat', base: 'abc', baseName: 'main', repository: '/r' };
    expect(changesLabel({ changes: { branch: 'main', added: 0, removed: 0, files: 0 } })).toBeUndefined();
    expect(changesLabel({ changes: { branch: 'main', added: 3, removed: 1, files: 2 } })).toBe('main +3 −1 · 2 files');
    expect(changesLabel({ changes: { branch: 'feat', added: 0, removed: 0, files: 0 }, worktree })).toBe('feat no changes');
    expect(changesLabel({ changes: { branch: null, added: 1, removed: 0, files: 1 } })).toBe('+1 −0 · 1 file');
    expect(changesLabel({})).toBeUndefined();
  });

  it('shows no age for idle and exited tiles, so a resting grid never ticks', () => {
    expect(text(60, { ...tile, state: 'idle', kind: undefined, source: 'title' })).toMatch(/○ idle · title ╮$/);
    expect(text(60, { ...tile, state: 'exited', kind: undefined, source: 'process' })).toMatch(/■ exited · exit ╮$/);
  });

  it('shows an agent-supplied name without its control characters', () => {
    expect(text(60, { ...tile, name: 'x\x1b]0;pwn\x07' })).not.toMatch(/[\x00-\x1f]/);
  });

  it('marks a tile that still shows its screen from before a restart, before its source', () => {
    const restored = { ...tile, state: 'done' as const, kind: undefined, source: 'hook', restored: true };
    expect(text(60, restored)).toMatch(/✓ done · restored · hook · 4s ╮$/);
    expect(text(36, restored)).toMatch(/✓ done · restored ╮$/);
  });

  it('names the host of a remote tile when there is room, and says when its connection was lost', () => {
    const remote = { ...tile, state: 'working' as const, kind: undefined, source: 'psp', remote: 'devbox' };
    expect(text(70, remote)).toMatch(/^╭ 3 tests · remote · devbox ─+ ● working · OSC 7501 · 4s ╮$/);
    expect(text(40, remote)).toMatch(/^╭ 3 tests ─+ ● working · OSC 7501 · 4s ╮$/);
    const lost = { ...remote, state: 'exited' as const, source: 'process', lost: true };
    expect(text(70, lost)).toMatch(/■ exited · connection lost ╮$/);
    // Its program was not on the remote PATH (the shell's 127): said, not left to `process`.
    expect(text(70, { ...remote, state: 'exited' as const, source: 'process', notFound: true })).toMatch(/■ exited · not on the remote PATH ╮$/);
    expect(text(70, { ...remote, name: 'devbox' })).toMatch(/^╭ 3 devbox · remote ─+ ● working/);
    // A remote login shell, idle since it started: said to come from its start, not an exit.
    expect(text(70, { ...remote, name: 'devbox', state: 'idle', source: 'process' })).toMatch(/○ idle · start ╮$/);
    // Only an exited tile is said to have lost its connection.
    expect(text(70, { ...remote, lost: true })).toMatch(/working · OSC 7501/);
  });

  describe('with names and words in CJK (two columns a letter)', () => {
    // Measured as the terminal draws them, not in characters: `日本` is four columns (tmux,
    // xterm's Unicode 11 table and string-width agree on every CJK, kana and Hangul letter).
    const frames = ['round', 'bold', 'double'] as const;
    const names = ['日本', '日本語の名前', '한국어', 'ｱｲｳｴｵ', 'api-日本', '日本語の長い名前をつけたタイルです日本語の長い名前をつけたタイル'];
    const states: HeaderTile[] = [
      tile,
      { ...tile, state: 'working', kind: undefined, source: 'hook', sinceMs: 130_000 },
      { ...tile, source: 'hook', asks: 'approve Bash `echo 日本語のテキストを表示する長いコマンドです`' },
      { ...tile, state: 'done', kind: undefined, facts: 'opus-5 · 日本語 · 12% context', remote: 'サーバー' },
    ];

    it('the header is exactly as wide as the tile at every width from 10 to 90, in display columns', () => {
      for (const name of names)
        for (const base of states)
          for (const frame of frames)
            for (let width = 10; width <= 90; width++) {
              const segments = headerSegments({ ...base, name }, { width, frame, selected: frame !== 'round', color: frame === 'bold' });
              const line = segments.map((s) => s.text).join('');
              expect(stringWidth(line), `${name} ${base.state} ${frame} ${width}: ${line}`).toBe(width);
              expect(segmentsWidth(segments)).toBe(width);
              // The corner closes the line: nothing pushed it out.
              expect(line.endsWith(frame === 'round' ? '╮' : frame === 'bold' ? '┓' : '╗'), line).toBe(true);
            }
    });

    it('keeps `日本` whole with its state, and cuts a long name in whole letters with an ellipsis', () => {
      expect(text(40, { ...tile, name: '日本' })).toMatch(/^╭ 3 日本 ─+ ◆ blocked: permission ╮$/);
      expect(stringWidth(text(40, { ...tile, name: '日本' }))).toBe(40);
      // Too long for any detail: the state's words go first, then the name is cut, never mid-letter.
      const long = text(30, { ...tile, name: '日本語の長い名前をつけたタイルです' });
      // The name may take 22 columns: `3 `, nine letters and the ellipsis take 21 (a tenth letter
      // would need two more), and the line gets the one left over.
      expect(long).toBe('╭ 3 日本語の長い名前を… ── ◆ ╮');
      expect(stringWidth(long)).toBe(30);
      // An ASCII name too long for the tile is cut the same way (it used to lose the name altogether).
      expect(text(30, { ...tile, name: 'a'.repeat(40) })).toBe(`╭ 3 ${'a'.repeat(19)}… ─ ◆ ╮`);
    });

    it("cuts an agent's request in CJK by columns", () => {
      const asking: HeaderTile = { ...tile, source: 'hook', asks: 'approve Bash `echo 日本語のテキストを表示する長いコマンドです`' };
      const line = text(50, asking);
      expect(line).toMatch(/^╭ 3 tests ─+ ◆ approve Bash: echo 日本語の[^ ]*… ╮$/);
      expect(stringWidth(line)).toBe(50);
    });
  });
});

describe('display width', () => {
  it('counts columns, cuts between whole characters and emoji sequences, and marks a cut', () => {
    expect(displayWidth('日本 x')).toBe(6);
    expect(displayWidth('👨‍👩‍👧')).toBe(2);
    expect(cutToWidth('日本語', 5)).toBe('日本');
    expect(cutToWidth('a👨‍👩‍👧b', 2)).toBe('a');
    expect(cutToWidth('a👨‍👩‍👧b', 3)).toBe('a👨‍👩‍👧');
    expect(ellipsized('日本語', 6)).toBe('日本語');
    expect(ellipsized('日本語', 5)).toBe('日本…');
    expect(ellipsized('日本語', 4)).toBe('日…');
    expect(ellipsized('日本語', 1)).toBe('');
  });
});
