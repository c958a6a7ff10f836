import { describe, expect, it } from 'vitest';
import { decodeBase64, isPspQuery, parsePsp, pspRecordSignals, pspSignals, type PspParse } from '../../src/sources/psp.js';

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
const reasonOf = (result: PspParse) => (result.ok ? '(parsed)' : result.reason);

describe('parsePsp: valid records', () => {
  it('parses every key of revision 0.2', () => {
    const result = parsePsp(`state=blocked:app=claude-code:id=tasks/b1:kind=permission:progress=42:title=${b64('Bash')}:msg=${b64('approve Bash: rm -rf build')}`);
    expect(result).toEqual({
      ok: true,
      record: { state: 'blocked', app: 'claude-code', id: 'tasks/b1', kind: 'permission', progress: 42, title: 'Bash', msg: 'approve Bash: rm -rf build' },
    });
  });

  it('accepts each state, keys in any order, and ignores keys a later revision may add', () => {
    for (const state of ['idle', 'working', 'done', 'blocked', 'error', 'clear']) {
      expect(parsePsp(`app=x:state=${state}:future=1`)).toEqual({ ok: true, record: { state, app: 'x' } });
    }
  });

  it('decodes unpadded and URL-safe base64, and UTF-8', () => {
    expect(parsePsp(`state=working:msg=${b64('Sautéed ✻').replace(/=+$/, '')}`)).toMatchObject({ ok: true, record: { msg: 'Sautéed ✻' } });
    const urlSafe = Buffer.from([0xfb, 0xff]).toString('base64url');
    expect(decodeBase64(urlSafe)).toEqual(new Uint8Array([0xfb, 0xff]));
  });

  it('accepts values at their limits', () => {
    expect(parsePsp(`state=working:id=${'a'.repeat(128)}`).ok).toBe(true);
    expect(parsePsp(`state=working:app=${'a'.repeat(32)}`).ok).toBe(true);
    expect(parsePsp(`state=working:title=${b64('t'.repeat(192))}`).ok).toBe(true);
    expect(parsePsp(`state=working:msg=${b64('m'.repeat(2048))}`).ok).toBe(true);
    expect(parsePsp('state=working:progress=0').ok).toBe(true);
    expect(parsePsp('state=working:progress=100').ok).toBe(true);
    expect(parsePsp('state=working:progress=99.5').ok).toBe(true);
  });
});

describe('parsePsp: invalid records are error values with a reason', () => {
  const cases: [string, string, RegExp][] = [
    ['missing state', 'app=claude-code', /state is required/],
    ['empty payload', '', /empty payload/],
    ['unknown state', 'state=sleeping', /unknown state "sleeping"/],
    ['field without =', 'state=idle:oops', /not key=value/],
    ['bad key', 'state=idle:App=x', /key "App"/],
    ['bad value characters', 'state=idle:app=a b', /outside/],
    ['duplicate key', 'state=idle:state=done', /appears twice/],
    ['unknown kind', 'state=blocked:kind=coffee', /unknown kind/],
    ['progress over 100', 'state=working:progress=101', /progress/],
    ['negative progress', 'state=working:progress=-1', /progress/],
    ['progress not a number', 'state=working:progress=lots', /progress/],
    ['id too long', `state=working:id=${'a'.repeat(129)}`, /id longer than 128/],
    ['empty id', 'state=working:id=', /id is empty/],
    ['app too long', `state=idle:app=${'a'.repeat(33)}`, /app longer than 32/],
    ['title too long decoded', `state=idle:title=${b64('t'.repeat(193))}`, /title longer than 192/],
    ['msg too long decoded', `state=idle:msg=${b64('m'.repeat(2049))}`, /msg longer than 2048/],
    ['bad base64 (truncated)', 'state=idle:msg=QUJDR', /msg is not valid base64/],
    ['bad base64 (padding inside)', 'state=idle:msg=QU=JD', /not valid base64/],
    ['bad base64 (too much padding)', 'state=idle:msg=QQ===', /too much padding/],
    ['sequence over 4096 bytes', `state=idle:x=${'a'.repeat(4090)}`, /longer than 4096/],
    ['the query', '?', /feature query/],
  ];
  for (const [name, payload, reason] of cases) {
    it(name, () => {
      const result = parsePsp(payload);
      expect(result.ok).toBe(false);
      expect(reasonOf(result)).toMatch(reason);
      expect(reasonOf(result)).toMatch(/^OSC 7501: /);
    });
  }

  it('never throws, whatever the payload', () => {
    for (const payload of [':', '=', '==:==', 'state', 'state=', ';', '\u0000', '\x1b\\', 'state=idle:msg=%%%']) {
      expect(() => parsePsp(payload)).not.toThrow();
      expect(parsePsp(payload).ok).toBe(false);
    }
  });
});

describe('pspRecordSignals', () => {
  const signalOf = (payload: string) => pspSignals(payload).signals;

  it("maps the program's own states", () => {
    expect(signalOf('state=idle:app=claude-code')).toEqual([{ type: 'at-rest', source: 'psp', detail: 'OSC 7501 idle' }]);
    expect(signalOf(`state=working:msg=${b64('Running npm test')}`)).toEqual([
      { type: 'working', source: 'psp', detail: 'OSC 7501 working: Running npm test' },
    ]);
    expect(signalOf('state=done')).toEqual([{ type: 'turn-end', source: 'psp', detail: 'OSC 7501 done' }]);
    expect(signalOf(`state=error:msg=${b64('API Error: 400')}`)).toEqual([{ type: 'failed', source: 'psp', detail: 'OSC 7501 error: API Error: 400' }]);
    expect(signalOf('state=clear')).toEqual([{ type: 'at-rest', source: 'psp', detail: 'OSC 7501 clear' }]);
  });

  it('maps blocked with its kind, and without one to "other"', () => {
    expect(signalOf('state=blocked:kind=permission')).toMatchObject([{ type: 'blocked', kind: 'permission' }]);
    expect(signalOf('state=blocked:kind=question')).toMatchObject([{ type: 'blocked', kind: 'question' }]);
    expect(signalOf('state=blocked:kind=auth')).toMatchObject([{ type: 'blocked', kind: 'auth' }]);
    expect(signalOf('state=blocked')).toMatchObject([{ type: 'blocked', kind: 'other' }]);
  });

  it('maps records with an id to child records: open while working or blocked, closed otherwise', () => {
    const child = (state: string) => signalOf(`state=${state}:id=bg/shell-1:title=${b64('npm run dev')}`)[0];
    expect(child('working')).toEqual({ type: 'child', source: 'psp', id: 'bg/shell-1', open: true, detail: 'OSC 7501 working: npm run dev' });
    expect(child('blocked')).toMatchObject({ type: 'child', open: true });
    for (const state of ['clear', 'done', 'error', 'idle']) expect(child(state)).toMatchObject({ type: 'child', id: 'bg/shell-1', open: false });
  });

  it("never turns a child's error into the program's failure", () => {
    expect(signalOf('state=error:id=sub/agent-7')).toEqual([
      { type: 'child', source: 'psp', id: 'sub/agent-7', open: false, detail: 'OSC 7501 error' },
    ]);
  });

  it('yields no signal and the reason for a malformed payload', () => {
    expect(pspSignals('app=x')).toEqual({ signals: [], error: 'OSC 7501: state is required' });
  });

  it('recognises the feature query', () => {
    expect(isPspQuery('?')).toBe(true);
    expect(isPspQuery('state=idle')).toBe(false);
    expect(pspRecordSignals({ state: 'done', progress: 100 })).toEqual([{ type: 'turn-end', source: 'psp', detail: 'OSC 7501 done 100%' }]);
  });
});
