import { describe, expect, it } from 'vitest';
import { formatDemoLine } from '../../src/cli/demo-command.js';
import type { VerdictChange } from '../../src/tile/tile.js';

describe('the demo line', () => {
  it('shows the state, who decided and why, with text from the agent made safe for the terminal', () => {
    const change = {
      tile: { id: 2, name: 'web\x1b[2J' },
      from: 'working',
      verdict: { state: 'blocked', kind: 'permission', source: 'psp', confidence: 'first-party', reason: 'psp blocked: \x1b]52;c;ZXZpbA==\x07 approve?', since: 4200, seq: 9 },
    } as unknown as VerdictChange;
    const line = formatDemoLine(change);
    expect(line).toMatch(/^ {2}4\.2s {2}2 web\\x1b\[2J ◆ blocked: permission +from working {2}· psp +🔔 psp blocked: \\x1b\]52;c;ZXZpbA==\\x07 approve\?$/);
    expect(line).not.toMatch(/[\x00-\x1f\x7f-\x9f]/);
  });
});
