/** The prompt box read from the screen: rows as the real agents drew them at the Enter. */
import { describe, expect, it } from 'vitest';
import { echoed, isSlashCommand, promptInput } from '../../src/tile/prompt-box.js';

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
});
