import { afterEach, describe, expect, it } from 'vitest';
import { BannerScanner, matchBanner } from '../../src/sources/banner.js';
import { Owned, feed } from '../session/helpers.js';

describe('matchBanner: the shape', () => {
  const positives = [
    '✻ Churned for 7s · done 9:44 AM',
    '✻ Sautéed for 2m 30s',
    '✻ Worked for 1h 2m 3s',
    '✻ Brewed for 37s · done 10:02 AM · 1 shell still running',
    '  ✻ Cogitated for 12s', // indented
    '✻ Zigzagged for 500ms', // any capitalised past-tense verb, not a list
    '✻ Flambéed for 1h', //
    '✶ Baked for 2m',
    '✻  Crunched for 4s', // two spaces after the glyph
    '★ Crocheted for 3.5s',
    '✻ Worked for 7s   ', // trailing blanks
  ];
  for (const row of positives) {
    it(`matches ${JSON.stringify(row)}`, () => expect(matchBanner(row)).toBe(row.trim()));
  }

  const negatives = [
    'Retried for 3s', // no glyph
    'Waited for 5s',
    'Worked for 7s • 10:12', // Codex's done line: no glyph
    '✻ Grooving… (5s · ↓ 23 tokens)', // the spinner row
    '✻ Grooving for 5s', // not past tense
    'I think ✻ Worked for 3s is…', // the shape in prose
    '✻ Worked for 3s is a good time', // trailing prose
    '✻ worked for 3s', // not capitalised
    '✻ WORKED for 3s',
    '✻ Worked in 3s',
    '✻ Worked for 3', // no unit
    '✻ Worked for s',
    '✻ Worked for 3 s',
    '✻ Worked for 30s 2m', // units out of order
    '- Fixed for 2s', // markdown bullet
    '* Fixed for 2s',
    '> Fixed for 2s',
    '│ Worked for 3s', // a frame border
    '  ⎿  Waited for 5s', // a tool-output connector
    '✻Worked for 3s', // glyph glued to the word
    '12 Worked for 3s',
    'a Worked for 3s',
    '',
  ];
  for (const row of negatives) {
    it(`does not match ${JSON.stringify(row)}`, () => expect(matchBanner(row)).toBeUndefined());
  }
});

describe('BannerScanner', () => {
  it('emits once per banner, not again while it stays or is redrawn', () => {
    const scanner = new BannerScanner();
    expect(scanner.scan([{ text: 'hello' }, { text: '✻ Worked for 7s · done 9:44 AM' }])).toEqual([
      { type: 'banner', source: 'banner', text: '✻ Worked for 7s · done 9:44 AM' },
    ]);
    expect(scanner.scan([{ text: '✻ Worked for 7s · done 9:44 AM' }])).toEqual([]); // scrolled or repainted
    expect(scanner.scan([{ text: '' }])).toEqual([]); // gone
    expect(scanner.scan([{ text: '✻ Worked for 7s · done 9:44 AM' }])).toEqual([]); // repainted after a clear
    expect(scanner.scan([{ text: '✻ Baked for 12s · done 9:51 AM' }])).toHaveLength(1); // a new one
  });

  it('a banner repainted with a status segment dropped or added is not news', () => {
    // Claude Code 2.1.332: the banner of a turn that left a background shell loses its
    // "· 1 shell still running" when the shell ends, while the follow-up turn runs.
    const scanner = new BannerScanner();
    // The banner says the work goes on: remembered, but no done.
    expect(scanner.scan([{ text: '✻ Brewed for 0s · done 11:24 AM · 1 shell still running' }])).toEqual([]);
    expect(scanner.scan([{ text: '✻ Brewed for 0s · done 11:24 AM' }])).toEqual([]);
    expect(scanner.scan([{ text: '✻ Brewed for 0s' }])).toEqual([]);
    // Only whole segments: a different duration or time is a new banner.
    expect(scanner.scan([{ text: '✻ Brewed for 0s · done 11:25 AM' }])).toHaveLength(1);
    expect(scanner.scan([{ text: '✻ Brewed for 01s' }])).toHaveLength(1);
  });

  it('a banner that says background work is still running is no completion', () => {
    const scanner = new BannerScanner();
    expect(scanner.scan([{ text: '✻ Worked for 12s · 2 shells still running' }])).toEqual([]);
    expect(scanner.scan([{ text: '✻ Worked for 9s · done 9:44 AM · 1 shell still running' }])).toEqual([]);
    // "still running" anywhere but a trailing status segment is not that statement.
    expect(scanner.scan([{ text: '✻ Worked for 3s · done 9:44 AM' }])).toHaveLength(1);
  });

  it('a second copy of the same banner text below the first is a new banner', () => {
    // Two turns a minute apart at most, both 0 s: Claude paints the same text twice.
    const scanner = new BannerScanner();
    const first = '✻ Brewed for 0s · done 12:25 PM · 1 shell still running';
    expect(scanner.scan([{ text: '> run it in the background' }, { text: first }])).toEqual([]);
    expect(scanner.scan([{ text: '> run it in the background' }, { text: '✻ Brewed for 0s · done 12:25 PM' }])).toEqual([]);
    expect(scanner.scan([{ text: '✻ Brewed for 0s · done 12:25 PM' }, { text: 'shell finished' }, { text: '✻ Brewed for 0s · done 12:25 PM' }])).toHaveLength(1);
    // Scrolled away and back by itself: not news.
    expect(scanner.scan([{ text: '✻ Brewed for 0s · done 12:25 PM' }])).toEqual([]);
  });

  it('forgets the oldest banners beyond its memory', () => {
    const scanner = new BannerScanner(2);
    for (const n of [1, 2, 3]) expect(scanner.scan([{ text: `✻ Worked for ${n}s` }])).toHaveLength(1);
    expect(scanner.scan([{ text: '✻ Worked for 1s' }])).toHaveLength(1);
    expect(scanner.scan([{ text: '✻ Worked for 3s' }])).toHaveLength(0);
  });
});

describe('BannerScanner on a real screen', () => {
  const owned = new Owned();
  afterEach(() => owned.disposeAll());
  const ESC = '\x1b';

  it('reads rendered rows: cursor moves between the words in the raw bytes do not matter', async () => {
    const screen = owned.screen({ cols: 60, rows: 6 });
    const scanner = new BannerScanner();
    await feed(screen, `✻${ESC}[3GChurned${ESC}[1Cfor${ESC}[15G7s${ESC}[1C·${ESC}[1Cdone 9:44 AM`);
    expect(screen.rowText(0)).toBe('✻ Churned for 7s · done 9:44 AM');
    expect(scanner.scan(screen.rowTexts().map((text) => ({ text })))).toEqual([{ type: 'banner', source: 'banner', text: '✻ Churned for 7s · done 9:44 AM' }]);
  });

  it('emits once while the banner stays, scrolls, and survives an alternate-screen repaint; again for a new one', async () => {
    const screen = owned.screen({ cols: 60, rows: 6 });
    const scanner = new BannerScanner();
    const scan = () => scanner.scan(screen.rowTexts().map((text) => ({ text })));
    await feed(screen, `${ESC}[?1049h${ESC}[H> make it so\r\n✻${ESC}[3GWorked for 7s · done 9:44 AM\r\n`);
    expect(scan()).toHaveLength(1);
    await feed(screen, '\r\n> next prompt'); // other rows change, the banner stays
    expect(scan()).toEqual([]);
    await feed(screen, '\r\n\r\n\r\n\r\n'); // it scrolls up
    expect(scan()).toEqual([]);
    await feed(screen, `${ESC}[2J`); // a full repaint: gone for a frame...
    expect(scan()).toEqual([]);
    await feed(screen, `${ESC}[H✻${ESC}[3GWorked for 7s · done 9:44 AM`); // ...and back
    expect(scan()).toEqual([]);
    await feed(screen, `${ESC}[2J${ESC}[H✻${ESC}[3GCogitated for 1m 5s · done 9:46 AM`);
    expect(scan()).toEqual([{ type: 'banner', source: 'banner', text: '✻ Cogitated for 1m 5s · done 9:46 AM' }]);
  });

  it('does not read the spinner row as a banner', async () => {
    const screen = owned.screen({ cols: 60, rows: 3 });
    const scanner = new BannerScanner();
    for (const glyph of ['·', '✢', '*', '✶', '✻', '✽']) {
      await feed(screen, `${ESC}[1;1H${ESC}[2K${glyph}${ESC}[3GGrooving… (5s · ↓ 23 tokens)`);
      expect(scanner.scan(screen.rowTexts().map((text) => ({ text })))).toEqual([]);
    }
  });
});
