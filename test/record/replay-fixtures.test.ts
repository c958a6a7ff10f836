import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseRecording } from '../../src/record/format.js';
import { replay } from '../../src/tile/replay.js';

const root = join(import.meta.dirname, '..', '..', 'fixtures');

function recordings(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return recordings(path);
    return name.endsWith('.jsonl') ? [path] : [];
  });
}

describe('every fixture replays to its recorded verdicts (replay --check)', () => {
  const files = recordings(root);
  it('finds the fixtures', () => {
    expect(files.length).toBeGreaterThanOrEqual(20);
  });
  for (const file of files) {
    it(relative(root, file), async () => {
      const result = await replay(parseRecording(readFileSync(file, 'utf8'), file));
      expect(result.difference).toBeNull();
      expect(result.oscDifference).toBeNull();
      expect(result.recorded.length).toBeGreaterThan(0);
    }, 60_000);
  }
});
