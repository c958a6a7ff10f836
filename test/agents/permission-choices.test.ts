import { describe, expect, it } from 'vitest';
import { choiceFor, dialogAsks, ownWordsChoice, pickChoice, readChoices, readQuestion, requestWords } from '../../src/agents/permission-choices.js';

describe('the options of a permission dialog, read from its rows', () => {
  it("Claude Code's dialog: yes, always, no", () => {
    const rows = [
      '⏺ Bash(touch belltower-approved.txt)',
      ' Bash command',
      '   touch belltower-approved.txt',
      ' Do you want to proceed?',
      ' ❯ 1. Yes',
      "   2. Yes, and don't ask again for touch commands in /tmp/x",
      '   3. No, and tell Claude what to do differently (esc)',
      '',
    ];
    const choices = readChoices(rows);
    expect(choices.map((c) => [c.key, c.answer])).toEqual([
      ['1', 'allow'],
      ['2', 'always'],
      ['3', 'deny'],
    ]);
    expect(choiceFor(choices, 'deny')?.key).toBe('3');
  });

  it("Claude Code 2.1.332's dialog for a file outside its rules: the switch to auto mode is no answer belltower gives", () => {
    const rows = [
      ' Do you want to proceed?',
      ' ❯ 1. Yes',
      '   2. Yes, and always allow access to /tmp/project from this project',
      '   3. Yes, and switch to auto mode · auto mode handles these prompts for you',
      '   4. No',
      '',
      ' Esc to cancel · Tab to amend',
    ];
    const choices = readChoices(rows);
    expect(choices.map((c) => [c.key, c.answer])).toEqual([
      ['1', 'allow'],
      ['2', 'always'],
      ['3', null],
      ['4', 'deny'],
    ]);
    expect(choiceFor(choices, 'allow')?.key).toBe('1');
    expect(choiceFor(choices, 'deny')?.key).toBe('4');
  });

  it("Claude Code 2.1.332's command dialog: its \"don’t\" has a typographic apostrophe", () => {
    const rows = [' Do you want to proceed?', ' ❯ 1. Yes', '   2. Yes, and don’t ask again for: npm *', '   3. Yes, and switch to auto mode · auto mode handles these prompts for you', '   4. No'];
    expect(readChoices(rows).map((c) => c.answer)).toEqual(['allow', 'always', null, 'deny']);
  });

  it("what Codex's dialog asks, read off the screen (it says it in no hook)", () => {
    // Codex 0.171 (fixtures/codex-0.171.0/permission.jsonl, half a second after OSC 7501 blocked).
    const rows = ['• Running touch belltower-approved.txt', '', '  Would you like to run the following command?', '', '  Environment: local', '  Reason: Create the file?', '', '  $ touch belltower-approved.txt', '', '› 1. Yes, proceed (y)'];
    expect(dialogAsks(rows)).toBe('approve command `touch belltower-approved.txt`');
    expect(requestWords(dialogAsks(rows)!)).toBe('approve command: touch belltower-approved.txt');
    expect(dialogAsks(['  Would you like to make the following edits?', '› 1. Yes, proceed (y)'])).toBe('approve: make the following edits');
    expect(dialogAsks(['• Working (0s • esc to interrupt)', '› Ask Codex to do anything'])).toBeUndefined();
  });

  it("Codex's and Gemini's dialogs", () => {
    const codex = ['  Would you like to run the following command?', '  $ touch x', '› 1. Yes, proceed (y)', "  2. Yes, and don't ask again for commands that start with `touch` (p)", '  3. No, and tell Codex what to do differently (esc)', '  Press enter to confirm or esc to cancel'];
    expect(readChoices(codex).map((c) => c.answer)).toEqual(['allow', 'always', 'deny']);
    // Gemini CLI 0.61 draws its dialog in a box (from a recording of the real one, cut narrower).
    const side = (text: string) => `│ ${text.padEnd(40)} │`;
    const gemini = ['╭' + '─'.repeat(42) + '╮', side('? Shell  touch x'), side('Allow execution of [Shell]?'), side(''), side('● 1. Allow once'), side('  2. Allow for this session'), side('  3. No, suggest changes (esc)'), '╰' + '─'.repeat(42) + '╯'];
    const choices = readChoices(gemini);
    expect(choices.map((c) => c.answer)).toEqual(['allow', 'always', 'deny']);
    expect(choices[0]!.label).toBe('Allow once');
  });

  it('a numbered list in an answer, or no list, is no dialog', () => {
    expect(readChoices(['Steps:', '1. Install it', '2. Run it', '3. Ship it'])).toEqual([]);
    expect(readChoices(['nothing here'])).toEqual([]);
    // An older list above the dialog does not count: the last one drawn does.
    const rows = ['1. Yes', '2. No', 'some output', ' ❯ 1. Yes', '   2. No, and tell Claude what to do differently (esc)'];
    expect(readChoices(rows).map((c) => c.label)).toEqual(['Yes', 'No, and tell Claude what to do differently (esc)']);
  });

  it("Claude Code 2.1.332's AskUserQuestion: its options, descriptions under them, its own-words option; no permission dialog", () => {
    const rows = [
      ' ☐ Database',
      '',
      'Which database should I use?',
      '',
      '❯ 1. Postgres',
      '     relational',
      '  2. SQLite',
      '     a file',
      '  3. Type something.',
      '─'.repeat(60),
      '  4. Chat about this',
      '',
      'Enter to select · ↑/↓ to navigate · Esc to cancel',
    ];
    const question = readQuestion(rows);
    expect(question.map((c) => [c.key, c.label])).toEqual([['1', 'Postgres'], ['2', 'SQLite'], ['3', 'Type something.']]);
    expect(ownWordsChoice(question)?.key).toBe('3');
    // Gemini CLI 0.61's ask_user: its own-words option.
    expect(ownWordsChoice([{ key: '1', label: 'Postgres', answer: null }, { key: '3', label: 'Enter a custom value', answer: null }])?.key).toBe('3');
    expect(pickChoice(question, '2')?.label).toBe('SQLite');
    expect(pickChoice(question, '7')).toBeNull();
    expect(readChoices(rows)).toEqual([]);
  });
});
