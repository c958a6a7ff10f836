/**
 * Answering a permission request from outside the tile (tile/answer-request.ts), on a clock: a
 * tile modelled as its state over time, its dialog drawn as Claude Code 2.1 draws it, read by the
 * real dialog reader. Only the request shown is answered, with the option drawn for the answer,
 * and no key ever goes to anything else.
 */
import { describe, expect, it } from 'vitest';
import type { TileInfo } from '../../src/control/protocol.js';
import { answerRequest, ANSWER_TIMING } from '../../src/tile/answer-request.js';
import type { AnswerPort } from '../../src/tile/answer-request.js';
import { pendingRequest } from '../../src/tile/pending-request.js';

const CLAUDE_DIALOG = [
  ' Bash command',
  '',
  '   npm test',
  '',
  ' Do you want to proceed?',
  ' ❯ 1. Yes',
  "   2. Yes, and don't ask again for npm test commands in /work/app",
  '   3. No, and tell Claude what to do differently (esc)',
];
const GEMINI_DIALOG = [' Allow execution of: npm test?', '', ' ● 1. Allow once', '   2. No, suggest changes (esc)'];

/** The tile at a moment: asking `says` since `since` with `rows` on its screen, or in `state`. */
type Moment = { state: 'blocked'; says: string; since: number; rows: readonly string[]; kind?: string } | { state: 'working' | 'idle' | 'done' };

function info(tileId: number, now: number, moment: Moment): TileInfo {
  const base = { id: tileId, name: 'claude', agent: 'claude', source: 'hook', confidence: 'first-party', reason: 'r' };
  if (moment.state !== 'blocked') return { ...base, state: moment.state, sinceMs: 0 };
  const kind = moment.kind ? { kind: moment.kind } : {};
  return { ...base, state: 'blocked', ...kind, sinceMs: now - moment.since, says: moment.says, request: pendingRequest(tileId, moment.since, moment.says, moment.rows, moment.kind) };
}

/** A tile whose moment follows the keys it was sent, on a virtual clock the port's wait moves. */
function scripted(moment: (now: number, keys: readonly { at: number; key: string }[]) => Moment) {
  let now = 0;
  const keys: { at: number; key: string }[] = [];
  const sent: { at: number; text: string; enter: boolean }[] = [];
  const port: AnswerPort = {
    info: () => info(1, now, moment(now, keys)),
    input: (key) => void keys.push({ at: now, key }),
    send: (text, enter) => void sent.push({ at: now, text, enter }),
    wait: async (ms) => void (now += ms),
  };
  return { port, keys, sent, shown: () => port.info()?.request?.id, now: () => now };
}

const asking = (since = 0, rows: readonly string[] = CLAUDE_DIALOG): Moment => ({ state: 'blocked', says: 'approve Bash `npm test`', since, rows });

describe('answering a permission request from outside the tile', () => {
  it("sends the drawn option's digit once the dialog has stood a moment, once, and reports it gone", async () => {
    // The agent takes a key only after its dialog has stood 200 ms, then runs the tool.
    const tile = scripted((now, keys) => (keys.some((k) => k.key === '1' && k.at >= 200) ? { state: 'working' } : asking()));
    const result = await answerRequest(tile.port, 'allow', { request: tile.shown()! });
    expect(result).toMatchObject({ ok: true, answered: 'Yes', tile: { state: 'working' } });
    expect(tile.keys).toEqual([{ at: ANSWER_TIMING.settleMs, key: '1' }]);
  });

  it("allow always and deny pick the dialog's own options for them", async () => {
    for (const [answer, key] of [['always', '2'], ['deny', '3']] as const) {
      const tile = scripted((_, keys) => (keys.length > 0 ? { state: 'idle' } : asking()));
      const result = await answerRequest(tile.port, answer, { request: tile.shown()! });
      expect(result.ok).toBe(true);
      expect(tile.keys.map((k) => k.key)).toEqual([key]);
    }
  });

  it('a request that is not the one shown is refused, and nothing is sent', async () => {
    const tile = scripted(() => asking());
    const shownBefore = pendingRequest(1, 0, 'approve Bash `rm -rf build`', CLAUDE_DIALOG).id;
    const result = await answerRequest(tile.port, 'allow', { request: shownBefore });
    expect(result).toMatchObject({ ok: false, refused: 'stale' });
    expect(result.ok ? '' : result.error).toContain('approve Bash: npm test');
    expect(tile.keys).toEqual([]);
  });

  it('the same words asked again later are another request: its id differs', () => {
    expect(pendingRequest(1, 0, 'approve Bash `npm test`', []).id).not.toBe(pendingRequest(1, 5000, 'approve Bash `npm test`', []).id);
    expect(pendingRequest(1, 0, 'approve Bash `npm test`', []).id).toBe(pendingRequest(1, 0, 'approve Bash `npm test`', CLAUDE_DIALOG).id);
  });

  it("an agent that names its request only in its dialog (Codex): the words are the dialog's, and another command is another request", () => {
    const dialog = (command: string) => ['  Would you like to run the following command?', `  $ ${command}`, '› 1. Yes, proceed (y)', "  2. Yes, and don't ask again for commands that start with `x` (p)", '  3. No, and tell Codex what to do differently (esc)'];
    const first = pendingRequest(1, 0, undefined, dialog('touch a.txt'));
    expect(first.asks).toBe('approve command: touch a.txt');
    // Not drawn yet: asks nothing so far, and that is not the request the dialog then shows.
    expect(pendingRequest(1, 0, undefined, []).id).not.toBe(first.id);
    // The same moment of asking, another command drawn: another request (before, one id).
    expect(pendingRequest(1, 0, undefined, dialog('rm -rf build')).id).not.toBe(first.id);
    // The agent's own words, where it said them, win over the screen's.
    expect(pendingRequest(1, 0, 'approve Bash `npm test`', dialog('touch a.txt')).asks).toBe('approve Bash: npm test');
    // For scripts (ls --json): the tool, and its command or file.
    expect(first).toMatchObject({ tool: 'command', command: 'touch a.txt' });
    expect(pendingRequest(1, 0, 'approve Bash `npm test`', [])).toMatchObject({ tool: 'Bash', command: 'npm test' });
    expect(pendingRequest(1, 0, 'approve Edit `src/app.ts`', [])).toMatchObject({ tool: 'Edit', path: 'src/app.ts' });
    // As OSC 7501 says it (Claude Code's msg).
    expect(pendingRequest(1, 0, 'approve Bash: npm --version', [])).toMatchObject({ tool: 'Bash', command: 'npm --version' });
    const plan = pendingRequest(1, 0, 'approve plan', []);
    expect(plan).toMatchObject({ tool: 'plan' });
    expect(plan).not.toHaveProperty('command');
    expect(pendingRequest(1, 0, 'Claude needs your permission to use Bash', [])).not.toHaveProperty('tool');
  });

  it('a tile that asks nothing is refused, and nothing is sent', async () => {
    const tile = scripted(() => ({ state: 'working' }));
    expect(await answerRequest(tile.port, 'allow')).toMatchObject({ ok: false, refused: 'not-asking' });
    expect(tile.keys).toEqual([]);
  });

  it('a dialog without the option asked for is refused: Gemini offers no "always" here', async () => {
    const tile = scripted(() => asking(0, GEMINI_DIALOG));
    expect(await answerRequest(tile.port, 'always')).toMatchObject({ ok: false, refused: 'no-option' });
    expect(tile.keys).toEqual([]);
  });

  it('a dialog announced but not drawn yet is waited for, then answered', async () => {
    const tile = scripted((now, keys) => (keys.length > 0 ? { state: 'working' } : asking(0, now < 900 ? [] : CLAUDE_DIALOG)));
    const result = await answerRequest(tile.port, 'allow');
    expect(result.ok).toBe(true);
    expect(tile.keys.length).toBe(1);
    expect(tile.keys[0]!.at).toBeGreaterThanOrEqual(900);
  });

  it('a key the agent ignored goes again while the same dialog stays, at most a few times, then it says so', async () => {
    const tile = scripted(() => asking());
    const result = await answerRequest(tile.port, 'allow');
    expect(result).toMatchObject({ ok: false, refused: 'still-asking' });
    expect(tile.keys.map((k) => k.key)).toEqual(Array(ANSWER_TIMING.tries).fill('1'));
  });

  it('a request replaced by another after the key: the answer took, and nothing goes to the new one', async () => {
    const tile = scripted((now, keys) => (keys.length > 0 && now >= ANSWER_TIMING.settleMs + 50 ? asking(ANSWER_TIMING.settleMs + 50) : asking()));
    const first = tile.shown()!;
    const result = await answerRequest(tile.port, 'allow', { request: first });
    expect(result.ok).toBe(true);
    expect(tile.keys.length).toBe(1);
    expect(tile.shown()).not.toBe(first);
  });

  it('a request gone before the key was due is not answered', async () => {
    const tile = scripted((now) => (now < 100 ? asking() : { state: 'working' }));
    expect(await answerRequest(tile.port, 'allow')).toMatchObject({ ok: false, refused: 'stale' });
    expect(tile.keys).toEqual([]);
  });

  it('deny with a message: the message goes to the prompt once the request has gone, submitted', async () => {
    const tile = scripted((now, keys) => (keys.some((k) => k.key === '3') ? (now >= keys[0]!.at + 1200 ? { state: 'idle' } : { ...asking(), rows: [] }) : asking()));
    const result = await answerRequest(tile.port, 'deny', { message: 'use pnpm instead' });
    expect(result.ok).toBe(true);
    expect(tile.keys.map((k) => k.key)).toEqual(['3']);
    expect(tile.sent).toEqual([{ at: expect.any(Number) as number, text: 'use pnpm instead', enter: true }]);
    expect(tile.sent[0]!.at).toBeGreaterThanOrEqual(tile.keys[0]!.at + 1200);
  });

  it('the dialog went but the verdict still says it asks: said, and the message is not sent', async () => {
    const tile = scripted((_, keys) => (keys.length > 0 ? { ...asking(), rows: [] } : asking()));
    const result = await answerRequest(tile.port, 'deny', { message: 'no' });
    expect(result).toMatchObject({ ok: false, refused: 'still-asking' });
    expect(tile.sent).toEqual([]);
  });

  it('a message goes with deny only', async () => {
    const tile = scripted(() => asking());
    expect((await answerRequest(tile.port, 'allow', { message: 'x' })).ok).toBe(false);
    expect(tile.keys).toEqual([]);
  });

  it("a question's own-words option: one key opens its field, then the words and Enter; never the key again", async () => {
    const question = [' Which database should I use?', '❯ 1. Postgres', '  2. SQLite', '  3. Type something.'];
    const ask: Moment = { state: 'blocked', kind: 'question', says: 'answer: Which database should I use?', since: 0, rows: question };
    // The field stays drawn as the option while the words are typed; the answer goes with Enter.
    const tile = scripted(() => (tile.sent.length > 0 && tile.now() >= tile.sent[0]!.at + 300 ? { state: 'working' } : ask));
    const result = await answerRequest(tile.port, 'text', { message: 'MySQL, please' });
    expect(result).toMatchObject({ ok: true, answered: 'Type something.' });
    expect(tile.keys.map((k) => k.key)).toEqual(['3']);
    expect(tile.sent).toEqual([{ at: expect.any(Number) as number, text: 'MySQL, please', enter: true }]);
  });

  it("a question's option by its number; own words need the words", async () => {
    const question = [' Which?', '❯ 1. Postgres', '  2. SQLite'];
    const tile = scripted((_, keys) => (keys.length > 0 ? { state: 'working' } : { state: 'blocked', kind: 'question', says: 'answer: Which?', since: 0, rows: question }));
    expect(await answerRequest(tile.port, 'text')).toMatchObject({ ok: false, refused: 'no-option' });
    expect(await answerRequest(tile.port, 'text', { message: 'x' })).toMatchObject({ ok: false, refused: 'no-option' });
    expect(tile.keys).toEqual([]);
    expect(await answerRequest(tile.port, '2')).toMatchObject({ ok: true, answered: 'SQLite' });
    expect(tile.keys.map((k) => k.key)).toEqual(['2']);
  });
});
