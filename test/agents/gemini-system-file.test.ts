import { describe, expect, it } from 'vitest';
import { geminiSkipsSystemFile } from '../../src/agents/gemini-injection.js';

const tree = (entries: Record<string, { uid: number; mode: number }>) => (p: string) => {
  const st = entries[p];
  if (!st) throw new Error(`ENOENT: ${p}`);
  return st;
};

describe('where Gemini CLI will load our hook file', () => {
  const rootOnly = { uid: 0, mode: 0o40755 };
  it('loads it when the file and every parent are root-owned and not writable by others', () => {
    expect(geminiSkipsSystemFile('/root/.local/belltower/t/hooks.json', tree({ '/': rootOnly, '/root': { uid: 0, mode: 0o40700 }, '/root/.local': rootOnly, '/root/.local/belltower': rootOnly, '/root/.local/belltower/t': { uid: 0, mode: 0o40700 }, '/root/.local/belltower/t/hooks.json': { uid: 0, mode: 0o100600 } }))).toBeUndefined();
  });
  it('skips it under /tmp (mode 1777) and under a user-owned folder, and says why', () => {
    expect(geminiSkipsSystemFile('/tmp/b/hooks.json', tree({ '/': rootOnly, '/tmp': { uid: 0, mode: 0o41777 }, '/tmp/b': { uid: 0, mode: 0o40700 }, '/tmp/b/hooks.json': { uid: 0, mode: 0o100600 } }))).toMatch(/\/tmp has mode 1777/);
    expect(geminiSkipsSystemFile('/home/ada/b/hooks.json', tree({ '/': rootOnly, '/home': rootOnly, '/home/ada': { uid: 1000, mode: 0o40700 }, '/home/ada/b': { uid: 1000, mode: 0o40700 }, '/home/ada/b/hooks.json': { uid: 1000, mode: 0o100600 } }))).toMatch(/owned by uid 1000/);
  });
});
