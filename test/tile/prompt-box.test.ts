/** The prompt box read from the screen: rows as the real agents drew them at the Enter. */
import { describe, expect, it } from 'vitest';
import { echoed, isSlashCommand, menuAgrees, promptInput } from '../../src/tile/prompt-box.js';

describe('the prompt box on the cursor row', () => {
  it("reads the input after each agent's prompt glyph, up to the cursor", () => {
    // Claude Code 2.1.332, Codex 0.171.0, Gemini CLI 0.61.0 (fixtures, at the prompt's Enter).
    expect(promptInput('❯ /compact ', 10)).toBe('/compact');
    expect(promptInput('❯ Say something we can compact ', 30)).toBe('Say something we can compact');
    expect(promptInput('› /quit', 7)).toBe('/quit');
    expect(promptInput(' > Say something short for the belltower gemini test              ', 52)).toBe('Say something short for the belltower gemini test');
    expect(promptInput('│ > fix /src/a.ts │', 17)).toBe('fix /src/a.ts');
    expect(promptInput('❯ ', 2)).toBeUndefined();
    expect(promptInput('❯ - a list item', 15)).toBe('- a list item');
  });

  it('is a slash command by what the box holds once it shows what was sent', () => {
    // Text typed before: "please look at " then "/tmp/x" sent with Enter is a real prompt.
    expect(isSlashCommand('please look at /tmp/x', '/tmp/x')).toBe(false);
    // A bare Enter on a box holding "/compact" typed earlier is a slash command.
    expect(isSlashCommand('/compact', '')).toBe(true);
    expect(isSlashCommand('/clear', '/clear')).toBe(true);
    // The box not (yet) showing the text: only the sent text can say.
    expect(isSlashCommand('something else', '/clear')).toBe(true);
    expect(isSlashCommand(undefined, 'hello')).toBe(false);
    expect(isSlashCommand(undefined, '')).toBe(false);
  });

  it('knows when the box shows what was sent', () => {
    expect(echoed('please look at /tmp/x', '/tmp/x ')).toBe(true);
    expect(echoed('please look at', '/tmp/x')).toBe(false);
    expect(echoed(undefined, '')).toBe(true);
  });

  describe('a command menu under the box', () => {
    // Gemini CLI 0.61.0 under load: the box holds /quit, the menu is still the one drawn for `/`
    // (Enter ran /clear: SessionEnd reason "clear").
    const geminiStale = [
      ' > /quit                                                   ',
      '▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀',
      ' clear            Clear the screen and start a new session   ',
      ' compress         Compresses the context by replacing it with a summary',
      ' quit             Exit the cli',
    ];
    // Gemini at rest: its footer under the box is no menu.
    const geminiFooter = [
      ' > /quit                                                   ',
      '▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀',
      ' workspace (/directory)                                               sandbox                                    /model',
      ' /tmp/belltower-gemini-project-7n61i4                                 no sandbox                                   Auto',
    ];
    // Claude Code 2.1.62 (fixtures/claude-2.1.62/plain-turn.jsonl, at /exit's Enter).
    const claude = [
      '❯ /exit ',
      '────────────────────────────────────────────────────────────',
      '  /exit                   Exit the REPL                     ',
      '  /context                Visualize current context usage as a colored grid',
    ];
    // Codex 0.171.0 (fixtures/codex-0.171.0/api-error.jsonl): no menu left, its footer.
    const codex = ['› /quit', ' ', '  GPT-5.5 medium · /tmp/belltower-codex-project-aBB9h4 · This will fail'];

    it('holds the Enter while the menu offers another command first', () => {
      expect(menuAgrees(geminiStale, 0, '/quit')).toBe(false);
      expect(menuAgrees(geminiStale, 0, '/clear')).toBe(true);
      expect(menuAgrees(claude, 0, '/exit')).toBe(true);
      expect(menuAgrees(claude, 0, '/context')).toBe(false);
    });

    it('lets it go where no menu is drawn, or nothing slash was sent', () => {
      expect(menuAgrees(geminiFooter, 0, '/quit')).toBe(true);
      expect(menuAgrees(codex, 0, '/quit')).toBe(true);
      expect(menuAgrees(geminiStale, 0, 'say something')).toBe(true);
      expect(menuAgrees(geminiStale, 0, '/stats session')).toBe(false);
      expect(menuAgrees(['> /stats session', ' stats   Check session stats'], 0, '/stats session')).toBe(true);
      // The highlighted entry drawn with a selection glyph (Codex's popup shape).
      expect(menuAgrees(['› /qu', '› /quit      exit Codex', '  /exit      exit Codex'], 0, '/quit')).toBe(true);
      expect(menuAgrees(['› /qu', '› /exit      exit Codex'], 0, '/quit')).toBe(false);
    });
  });
});
