#!/usr/bin/env node
// Writes fixtures/scenarios/*.jsonl: one recording per engine rule, built from Claude Code's real
// hook payload shapes (shared facts, version 2.1.332) and OSC 7501 / title evidence. The verdict
// lines are the expectation, written here by hand from the rule — not produced by the engine — so
// `belltower replay --check` on these files tests the engine against the rules.
//
//   node scripts/scenario-fixtures.mjs          (re)write the fixtures
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'scenarios');
mkdirSync(out, { recursive: true });

const SID = '5b7c3f0e-2d6a-4f43-9a0e-6f1f0c2b9d11';
const SID2 = '9e0d1c2b-3a4f-4e5d-8c7b-6a5f4e3d2c1b';
const CWD = '/home/dev/api';
const TRANSCRIPT = (sid) => `/home/dev/.claude/projects/-home-dev-api/${sid}.jsonl`;
const base = (event, sid = SID) => ({ session_id: sid, transcript_path: TRANSCRIPT(sid), cwd: CWD, hook_event_name: event });

const hooks = {
  SessionStart: (source, sid = SID) => ({ ...base('SessionStart', sid), source, model: 'claude-sonnet-4-5' }),
  UserPromptSubmit: (prompt, sid = SID) => ({ ...base('UserPromptSubmit', sid), prompt_id: 'p1', permission_mode: 'default', prompt }),
  PreToolUse: (tool, input) => ({ ...base('PreToolUse'), prompt_id: 'p1', tool_name: tool, tool_input: input, tool_use_id: 'toolu_01' }),
  PostToolUse: (tool, input) => ({ ...base('PostToolUse'), prompt_id: 'p1', tool_name: tool, tool_input: input, tool_response: { stdout: '', stderr: '' }, tool_use_id: 'toolu_01' }),
  Stop: (background_tasks = [], stop_hook_active = false) => ({
    ...base('Stop'),
    prompt_id: 'p1',
    stop_hook_active,
    last_assistant_message: 'Done.',
    background_tasks,
    session_crons: [],
  }),
  StopFailure: (error) => ({ ...base('StopFailure'), prompt_id: 'p1', error, last_assistant_message: `API Error: ${error}` }),
  PermissionRequest: (command) => ({ ...base('PermissionRequest'), prompt_id: 'p1', tool_name: 'Bash', tool_input: { command }, permission_suggestions: [] }),
  Notification: (notification_type, message) => ({ ...base('Notification'), notification_type, message }),
  SessionEnd: (reason, sid = SID) => ({ ...base('SessionEnd', sid), reason }),
  PreCompact: () => ({ ...base('PreCompact'), trigger: 'manual', custom_instructions: '' }),
  PostCompact: () => ({ ...base('PostCompact'), trigger: 'manual' }),
  SubagentStart: (agent_id) => ({ ...base('SubagentStart'), agent_id, agent_type: 'general-purpose' }),
  SubagentStop: (agent_id, background_tasks = []) => ({
    ...base('SubagentStop'),
    agent_id,
    agent_type: 'general-purpose',
    stop_hook_active: false,
    background_tasks,
    agent_transcript_path: `/home/dev/.claude/projects/-home-dev-api/${SID}/subagents/agent-${agent_id}.jsonl`,
  }),
  TeammateIdle: (teammate_name) => ({ ...base('TeammateIdle'), teammate_name, team_name: 'crew' }),
};
const shellTask = (id, command) => ({ id, type: 'shell', status: 'running', description: command, command });
const agentTask = (id) => ({ id, type: 'subagent', status: 'running', description: 'research the API' });
const teammateTask = (name) => ({ id: name, type: 'teammate', status: 'running', description: name, name });
const b64 = (text) => Buffer.from(text, 'utf8').toString('base64');

/** A scenario: evidence and the verdicts the rules demand, both as [t, ...] rows. */
function recording(name, { agent = 'claude', hooksOn = true, psp, evidence, verdicts, timing }) {
  const header = {
    type: 'header',
    format: 'belltower-recording',
    version: 1,
    agent,
    agentVersion: agent === 'claude' ? '2.1.332' : undefined,
    cols: 120,
    rows: 40,
    startedAt: '2026-11-30T09:39:44.000Z',
    timing: {
      conflictWindowMs: 750,
      duplicateStopMs: 500,
      titleStabiliseMs: 1500,
      heldReleaseQuietMs: 10000,
      stuckScreenSettleMs: 30000,
      subagentTtlMs: 1800000,
      teammateTtlMs: 90000,
      hooklessBackgroundTtlMs: 300000,
      ...timing,
    },
    name,
    hooks: hooksOn,
    ...(psp === undefined ? {} : { psp }),
  };
  const rows = [
    ...evidence.map(([t, line]) => ({ t, line })),
    ...verdicts.map(([t, from, to, source, reason, kind]) => ({ t, line: { type: 'verdict', from, to, source, reason, ...(kind ? { kind } : {}) }, verdict: true })),
  ];
  // Evidence first at equal times: a verdict is decided by the evidence at its time.
  rows.sort((a, b) => a.t - b.t || Number(Boolean(a.verdict)) - Number(Boolean(b.verdict)));
  const lines = [JSON.stringify(header)];
  rows.forEach((row, i) => {
    const { type, ...rest } = row.line;
    lines.push(JSON.stringify({ type, t: row.t, seq: i + 1, ...rest }));
  });
  writeFileSync(join(out, `${name}.jsonl`), `${lines.join('\n')}\n`);
}

const hook = (event, payload) => ({ type: 'hook', event, payload });
const osc = (code, payload) => ({ type: 'osc', code, payload });
const psp = (fields) => osc(7501, fields);
const title = (text) => osc(0, text);
const transcript = (record) => ({ type: 'transcript', path: TRANSCRIPT(SID), record });

recording('plain-turn', {
  evidence: [
    [900, hook('SessionStart', hooks.SessionStart('startup'))],
    [5_690, { type: 'prompt' }],
    [5_890, hook('UserPromptSubmit', hooks.UserPromptSubmit('say hello'))],
    [6_300, hook('Stop', hooks.Stop())],
  ],
  verdicts: [
    [900, 'starting', 'idle', 'hook', 'session startup'],
    [5_890, 'idle', 'working', 'hook', 'prompt submitted'],
    [7_050, 'working', 'done', 'hook', 'turn ended'],
  ],
});

recording('duplicate-stop', {
  evidence: [
    [5_890, hook('UserPromptSubmit', hooks.UserPromptSubmit('say hello'))],
    [6_300, hook('Stop', hooks.Stop())],
    [6_650, hook('Stop', hooks.Stop())],
  ],
  verdicts: [
    [5_890, 'starting', 'working', 'hook', 'prompt submitted'],
    [7_050, 'working', 'done', 'hook', 'turn ended'],
  ],
});

recording('plain-turn-psp', {
  psp: true,
  evidence: [
    [400, psp('state=idle:app=claude-code')],
    [5_690, { type: 'prompt' }],
    [5_840, psp('state=working:app=claude-code')],
    [5_890, hook('UserPromptSubmit', hooks.UserPromptSubmit('say hello'))],
    [6_300, hook('Stop', hooks.Stop())],
    [6_620, psp('state=done:app=claude-code')],
    [20_000, { type: 'seen' }],
  ],
  verdicts: [
    [400, 'starting', 'idle', 'psp', 'at rest'],
    [5_840, 'idle', 'working', 'psp', 'working'],
    [7_050, 'working', 'done', 'hook', 'turn ended'],
    [20_000, 'done', 'idle', 'user', 'seen'],
  ],
});

recording('clear', {
  evidence: [
    [900, title('✳ Claude Code')],
    [5_890, hook('UserPromptSubmit', hooks.UserPromptSubmit('say hello'))],
    [5_900, title('◐ Claude Code')],
    [6_300, hook('Stop', hooks.Stop())],
    [6_500, title('✳ Claude Code')],
    [89_070, { type: 'prompt' }],
    [89_090, hook('SessionEnd', hooks.SessionEnd('clear'))],
    [89_120, title('◐ Claude Code')],
    [89_330, title('✳ Claude Code')],
    [89_480, hook('SessionStart', hooks.SessionStart('clear', SID2))],
    [95_000, { type: 'prompt' }],
    [95_010, title('◐ Claude Code')],
    [95_400, title('✳ Claude Code')],
  ],
  verdicts: [
    [900, 'starting', 'idle', 'title', 'title "✳ Claude Code"'],
    [5_890, 'idle', 'working', 'hook', 'prompt submitted'],
    [7_050, 'working', 'done', 'hook', 'turn ended'],
    [89_070, 'done', 'idle', 'user', 'seen: you typed'],
  ],
});

recording('compact', {
  psp: true,
  evidence: [
    [5_890, hook('UserPromptSubmit', hooks.UserPromptSubmit('say hello'))],
    [6_300, hook('Stop', hooks.Stop())],
    [6_620, psp('state=done:app=claude-code')],
    [85_190, { type: 'prompt' }],
    [85_260, psp('state=working:app=claude-code')],
    [85_270, hook('PreCompact', hooks.PreCompact())],
    [85_440, hook('SubagentStop', hooks.SubagentStop('compact-1'))],
    [85_710, hook('SessionStart', hooks.SessionStart('compact'))],
    [85_730, hook('PostCompact', hooks.PostCompact())],
    [85_930, psp('state=done:app=claude-code')],
  ],
  verdicts: [
    [5_890, 'starting', 'working', 'hook', 'prompt submitted'],
    [7_050, 'working', 'done', 'hook', 'turn ended'],
    [85_190, 'done', 'idle', 'user', 'seen: you typed'],
    [85_260, 'idle', 'working', 'psp', 'working'],
    [85_710, 'working', 'idle', 'hook', '/compact'],
  ],
});

recording('background-shell', {
  psp: true,
  evidence: [
    [5_000, hook('UserPromptSubmit', hooks.UserPromptSubmit('run the tests in the background'))],
    [5_100, psp('state=working:app=claude-code')],
    [8_520, hook('Stop', hooks.Stop([shellTask('bash_1', 'sleep 13')]))],
    [8_710, psp(`state=working:app=claude-code:msg=${b64('1 shell still running')}`)],
    [8_720, psp(`state=working:app=claude-code:id=bash_1:title=${b64('sleep 13')}`)],
    [21_540, psp('state=clear:app=claude-code:id=bash_1')],
    [25_330, hook('UserPromptSubmit', hooks.UserPromptSubmit('<task-notification>\n<task-id>bash_1</task-id>\n<status>completed</status>\n</task-notification>'))],
    [27_260, hook('Stop', hooks.Stop([]))],
    [27_520, psp('state=done:app=claude-code')],
  ],
  verdicts: [
    [5_000, 'starting', 'working', 'hook', 'prompt submitted'],
    [28_010, 'working', 'done', 'hook', 'turn ended'],
  ],
});

recording('background-shell-held', {
  evidence: [
    [5_000, hook('UserPromptSubmit', hooks.UserPromptSubmit('start the server in the background'))],
    [8_520, hook('Stop', hooks.Stop([shellTask('bash_1', 'npm run dev')]))],
    [21_540, psp('state=clear:app=claude-code:id=bash_1')],
  ],
  verdicts: [
    [5_000, 'starting', 'working', 'hook', 'prompt submitted'],
    [31_540, 'working', 'done', 'hook', 'turn ended'],
  ],
});

recording('background-shell-cancelled', {
  evidence: [
    [5_000, hook('UserPromptSubmit', hooks.UserPromptSubmit('start the server in the background'))],
    [8_520, hook('Stop', hooks.Stop([shellTask('bash_1', 'npm run dev')]))],
    [21_540, psp('state=clear:app=claude-code:id=bash_1')],
    [24_000, hook('UserPromptSubmit', hooks.UserPromptSubmit('now curl it'))],
    [40_000, { type: 'exit', code: 0, signal: null }],
  ],
  verdicts: [
    [5_000, 'starting', 'working', 'hook', 'prompt submitted'],
    [40_000, 'working', 'exited', 'process', 'exited with code 0'],
  ],
});

recording('background-shell-ttl', {
  evidence: [
    [5_000, hook('UserPromptSubmit', hooks.UserPromptSubmit('tail the logs'))],
    [8_000, hook('Stop', hooks.Stop([shellTask('bash_2', 'tail -f app.log')]))],
    [400_000, { type: 'exit', code: 0, signal: null }],
  ],
  verdicts: [
    [5_000, 'starting', 'working', 'hook', 'prompt submitted'],
    [318_000, 'working', 'done', 'hook', 'turn ended'],
    [400_000, 'done', 'exited', 'process', 'exited with code 0'],
  ],
});

recording('subagents', {
  evidence: [
    [1_000, hook('UserPromptSubmit', hooks.UserPromptSubmit('research both APIs'))],
    [2_000, hook('SubagentStart', hooks.SubagentStart('a1'))],
    [2_100, hook('SubagentStart', hooks.SubagentStart('a2'))],
    [3_000, hook('SubagentStop', hooks.SubagentStop('ghost'))],
    [6_750, hook('Stop', hooks.Stop([agentTask('a1'), agentTask('a2')]))],
    [12_670, hook('SubagentStop', hooks.SubagentStop('a1', [agentTask('a1'), agentTask('a2')]))],
    [41_000, hook('SubagentStop', hooks.SubagentStop('a2', [agentTask('a2')]))],
  ],
  verdicts: [
    [1_000, 'starting', 'working', 'hook', 'prompt submitted'],
    [51_000, 'working', 'done', 'hook', 'turn ended'],
  ],
});

recording('subagent-counted-beats-declared', {
  evidence: [
    [1_000, hook('UserPromptSubmit', hooks.UserPromptSubmit('research'))],
    [2_000, hook('SubagentStart', hooks.SubagentStart('a1'))],
    [6_000, hook('Stop', hooks.Stop([]))],
    [600_000, { type: 'exit', code: 0, signal: null }],
  ],
  verdicts: [
    [1_000, 'starting', 'working', 'hook', 'prompt submitted'],
    [600_000, 'working', 'exited', 'process', 'exited with code 0'],
  ],
});

recording('teammates', {
  evidence: [
    [1_000, hook('UserPromptSubmit', hooks.UserPromptSubmit('split the work with the team'))],
    [5_000, hook('Stop', hooks.Stop([teammateTask('ada'), teammateTask('bob')]))],
    [6_000, hook('TeammateIdle', hooks.TeammateIdle('ada'))],
    [6_100, hook('TeammateIdle', hooks.TeammateIdle('ada'))],
    [7_000, hook('TeammateIdle', hooks.TeammateIdle('carol'))],
    [30_000, hook('TeammateIdle', hooks.TeammateIdle('bob'))],
  ],
  verdicts: [
    [1_000, 'starting', 'working', 'hook', 'prompt submitted'],
    [40_000, 'working', 'done', 'hook', 'turn ended'],
  ],
});

recording('blocked-in-window', {
  evidence: [
    [1_000, hook('UserPromptSubmit', hooks.UserPromptSubmit('delete the build folder'))],
    [2_000, hook('Stop', hooks.Stop())],
    [2_400, hook('PermissionRequest', hooks.PermissionRequest('rm -rf build'))],
  ],
  verdicts: [
    [1_000, 'starting', 'working', 'hook', 'prompt submitted'],
    [2_400, 'working', 'blocked', 'hook', 'needs you: permission', 'permission'],
  ],
});

recording('blocked-psp-in-window', {
  psp: true,
  evidence: [
    [1_000, hook('UserPromptSubmit', hooks.UserPromptSubmit('delete the build folder'))],
    [2_000, hook('Stop', hooks.Stop())],
    [2_500, psp(`state=blocked:app=claude-code:kind=permission:msg=${b64('approve Bash: rm -rf build')}`)],
  ],
  verdicts: [
    [1_000, 'starting', 'working', 'hook', 'prompt submitted'],
    [2_500, 'working', 'blocked', 'psp', 'psp blocked permission: approve Bash: rm -rf build', 'permission'],
  ],
});

recording('blocked-after-window', {
  evidence: [
    [1_000, hook('UserPromptSubmit', hooks.UserPromptSubmit('plan it'))],
    [2_000, hook('Stop', hooks.Stop())],
    [3_000, hook('PermissionRequest', hooks.PermissionRequest('make deploy'))],
    [9_000, hook('Notification', hooks.Notification('permission_prompt', 'Claude needs your permission to use Bash'))],
  ],
  verdicts: [
    [1_000, 'starting', 'working', 'hook', 'prompt submitted'],
    [2_750, 'working', 'done', 'hook', 'turn ended'],
    [3_000, 'done', 'blocked', 'hook', 'needs you: permission', 'permission'],
  ],
});

recording('permission-prompt', {
  psp: true,
  evidence: [
    [5_000, hook('UserPromptSubmit', hooks.UserPromptSubmit('deploy'))],
    [5_050, psp('state=working:app=claude-code')],
    [12_170, hook('PermissionRequest', hooks.PermissionRequest('make deploy'))],
    [12_200, psp(`state=blocked:app=claude-code:kind=permission:msg=${b64('approve Bash: make deploy')}`)],
    [18_250, hook('Notification', hooks.Notification('permission_prompt', 'Claude needs your permission to use Bash'))],
    [24_700, { type: 'prompt' }],
    [24_790, psp('state=working:app=claude-code')],
    [29_000, hook('PostToolUse', hooks.PostToolUse('Bash', { command: 'make deploy' }))],
    [30_000, hook('Stop', hooks.Stop())],
    [30_300, psp('state=done:app=claude-code')],
  ],
  verdicts: [
    [5_000, 'starting', 'working', 'hook', 'prompt submitted'],
    [12_170, 'working', 'blocked', 'hook', 'needs you: permission', 'permission'],
    [24_700, 'blocked', 'working', 'user', 'you answered'],
    [30_750, 'working', 'done', 'hook', 'turn ended'],
  ],
});

recording('psp-only', {
  agent: 'shell',
  hooksOn: false,
  evidence: [
    [100, psp('state=idle:app=deploy')],
    [1_000, { type: 'prompt' }],
    [1_010, psp(`state=working:app=deploy:progress=10`)],
    [4_000, psp(`state=working:app=deploy:id=upload:title=${b64('uploading')}`)],
    [4_200, psp('state=done:app=deploy')],
    [30_000, psp('state=clear:app=deploy:id=upload')],
    [45_000, psp(`state=blocked:app=deploy:kind=question:msg=${b64('overwrite?')}`)],
  ],
  verdicts: [
    [100, 'starting', 'idle', 'psp', 'psp idle'],
    [1_010, 'idle', 'working', 'psp', 'psp working 10%'],
    [40_000, 'working', 'done', 'psp', 'psp done'],
    [45_000, 'done', 'blocked', 'psp', 'psp blocked question: overwrite?', 'question'],
  ],
});

recording('title-only', {
  // Gemini's ◇ means a finished turn; Claude's ✳ does not (it also shows at prompts and errors).
  agent: 'gemini',
  hooksOn: false,
  evidence: [
    [900, title('◇  Ready (api)')],
    [5_000, { type: 'prompt' }],
    [5_050, title('✦  Working… (api)')],
    [42_000, title('◇  Ready (api)')],
    [60_000, title('✦  Working… (api)')],
    [61_000, title('☂  Huh (api)')],
  ],
  verdicts: [
    [900, 'starting', 'idle', 'title', 'title "◇  Ready (api)"'],
    [5_050, 'idle', 'working', 'title', 'title "✦  Working… (api)"'],
    [43_500, 'working', 'done', 'title', 'title at rest after working'],
    [60_000, 'done', 'working', 'title', 'title "✦  Working… (api)"'],
    [61_000, 'working', 'unknown', 'title', 'gemini title glyph ☂'],
  ],
});

recording('title-only-claude', {
  // Claude's ✳ after working is only a done when the banner confirms it; alone it settles at idle
  // (the same glyph shows at a permission prompt and after an API error).
  hooksOn: false,
  evidence: [
    [900, title('✳ Claude Code')],
    [5_000, { type: 'prompt' }],
    [5_050, title('◐ Claude Code')],
    [12_000, title('✳ Claude Code')],
    [20_000, { type: 'prompt' }],
    [20_050, title('◐ Claude Code')],
    [30_000, title('✳ Claude Code')],
    [30_020, { type: 'banner', text: '✻ Brewed for 10s · done 9:44 AM' }],
  ],
  verdicts: [
    [900, 'starting', 'idle', 'title', 'title "✳ Claude Code"'],
    [5_050, 'idle', 'working', 'title', 'title "◐ Claude Code"'],
    [13_500, 'working', 'idle', 'title', 'title at rest after working; no banner, so not a done'],
    [20_050, 'idle', 'working', 'title', 'title "◐ Claude Code"'],
    [30_020, 'working', 'done', 'banner', '✻ Brewed for 10s · done 9:44 AM'],
  ],
});

recording('banner-accelerator', {
  hooksOn: false,
  evidence: [
    [5_000, { type: 'prompt' }],
    [5_050, title('◐ Claude Code')],
    [12_000, title('✳ Claude Code')],
    [12_030, { type: 'banner', text: '✻ Churned for 7s · done 9:44 AM' }],
    [12_200, psp(`state=working:app=claude-code:msg=${b64('1 shell still running')}`)],
    [20_000, psp('state=done:app=claude-code')],
  ],
  verdicts: [
    [5_050, 'starting', 'working', 'title', 'title "◐ Claude Code"'],
    [12_030, 'working', 'done', 'banner', '✻ Churned for 7s · done 9:44 AM'],
    [12_200, 'done', 'working', 'psp', 'psp working: 1 shell still running'],
    [20_750, 'working', 'done', 'psp', 'psp done'],
  ],
});

recording('banner-ignored-while-working', {
  psp: true,
  evidence: [
    [1_000, hook('UserPromptSubmit', hooks.UserPromptSubmit('go'))],
    [1_100, psp('state=working:app=claude-code')],
    [8_000, { type: 'banner', text: '✻ Worked for 7s' }],
    [20_000, { type: 'exit', code: 0, signal: null }],
  ],
  verdicts: [
    [1_000, 'starting', 'working', 'hook', 'prompt submitted'],
    [20_000, 'working', 'exited', 'process', 'exited with code 0'],
  ],
});

recording('stuck-screen', {
  hooksOn: true,
  evidence: [
    [1_000, hook('UserPromptSubmit', hooks.UserPromptSubmit('go'))],
    [1_050, title('◐ Claude Code')],
    [6_000, hook('Stop', hooks.Stop())],
  ],
  verdicts: [
    [1_000, 'starting', 'working', 'hook', 'prompt submitted'],
    [36_000, 'working', 'done', 'hook', 'turn ended'],
  ],
});

recording('same-millisecond', {
  evidence: [
    [1_000, hook('UserPromptSubmit', hooks.UserPromptSubmit('first'))],
    [2_000, hook('Stop', hooks.Stop())],
    [2_000, hook('UserPromptSubmit', hooks.UserPromptSubmit('second'))],
    [5_000, hook('Stop', hooks.Stop())],
  ],
  verdicts: [
    [1_000, 'starting', 'working', 'hook', 'prompt submitted'],
    // The prompt after the Stop (a higher seq) proves the turn ended: its done, without a ring.
    [2_000, 'working', 'done', 'hook', 'turn ended'],
    [2_000, 'done', 'working', 'hook', 'prompt submitted'],
    [5_750, 'working', 'done', 'hook', 'turn ended'],
  ],
});

// The next prompt 300 ms after a Stop, typed through belltower: the held done is released as its
// own edge (no ring), the user's submit then marks it seen, and the new turn works.
recording('prompt-in-window', {
  psp: true,
  evidence: [
    [1_000, hook('UserPromptSubmit', hooks.UserPromptSubmit('first'))],
    [1_100, psp('state=working:app=claude-code')],
    [2_000, hook('Stop', hooks.Stop())],
    [2_300, { type: 'prompt' }],
    [2_310, hook('UserPromptSubmit', hooks.UserPromptSubmit('second'))],
    [2_320, psp('state=done:app=claude-code')],
    [2_330, psp('state=working:app=claude-code')],
    [4_000, hook('Stop', hooks.Stop())],
    [4_300, psp('state=done:app=claude-code')],
  ],
  verdicts: [
    [1_000, 'starting', 'working', 'hook', 'prompt submitted'],
    [2_300, 'working', 'done', 'hook', 'turn ended'],
    [2_300, 'done', 'idle', 'user', 'seen: you typed'],
    [2_310, 'idle', 'working', 'hook', 'prompt submitted'],
    [4_750, 'working', 'done', 'hook', 'turn ended'],
  ],
});

// A prompt typed while Claude works (OSC 7501 off): its UserPromptSubmit fires at once, mid-turn.
// The first turn's Stop and banner are no done: Claude goes straight on with the queued prompt
// (the transcript dequeues it and writes its user record after the turn_duration marker).
recording('queued-prompt', {
  psp: false,
  evidence: [
    [1_369, hook('UserPromptSubmit', hooks.UserPromptSubmit('first'))],
    [3_025, { type: 'prompt' }],
    [3_040, hook('UserPromptSubmit', hooks.UserPromptSubmit('second'))],
    [4_712, hook('Stop', hooks.Stop())],
    [4_776, { type: 'banner', text: '✻ Churned for 3s · done 3:04 AM' }],
    [4_830, transcript({ type: 'system', subtype: 'turn_duration', durationMs: 3400 })],
    [4_830, transcript({ type: 'queue-operation', operation: 'dequeue' })],
    [4_831, transcript({ type: 'user', message: { role: 'user', content: 'second' } })],
    [7_075, hook('Stop', hooks.Stop())],
    [7_100, { type: 'banner', text: '✻ Cooked for 2s · done 3:04 AM' }],
  ],
  verdicts: [
    [1_369, 'starting', 'working', 'hook', 'prompt submitted'],
    [7_825, 'working', 'done', 'hook', 'turn ended'],
  ],
});

// The same, but the queued prompt was typed during a tool call: Claude feeds it into the running
// turn (queue-operation remove, absorbed_mid_turn), so that turn's Stop is the end of it all.
recording('queued-prompt-absorbed', {
  psp: false,
  evidence: [
    [1_498, hook('UserPromptSubmit', hooks.UserPromptSubmit('first'))],
    [1_618, hook('PreToolUse', hooks.PreToolUse('Bash', { command: 'sleep 3' }))],
    [2_994, { type: 'prompt' }],
    [3_002, hook('UserPromptSubmit', hooks.UserPromptSubmit('second'))],
    [4_813, hook('PostToolUse', hooks.PostToolUse('Bash', { command: 'sleep 3' }))],
    [4_874, transcript({ type: 'queue-operation', operation: 'remove', reason: 'absorbed_mid_turn' })],
    [4_892, hook('Stop', hooks.Stop())],
    [4_917, { type: 'banner', text: '✻ Brewed for 3s · done 3:03 AM' }],
  ],
  verdicts: [
    [1_498, 'starting', 'working', 'hook', 'prompt submitted'],
    [5_642, 'working', 'done', 'hook', 'turn ended'],
  ],
});

recording('interrupt', {
  psp: true,
  evidence: [
    [1_000, hook('UserPromptSubmit', hooks.UserPromptSubmit('go'))],
    [1_100, psp('state=working:app=claude-code')],
    [3_080, psp('state=idle:app=claude-code')],
  ],
  verdicts: [
    [1_000, 'starting', 'working', 'hook', 'prompt submitted'],
    [3_080, 'working', 'idle', 'psp', 'psp idle'],
  ],
});

recording('api-error', {
  psp: true,
  evidence: [
    [1_000, hook('UserPromptSubmit', hooks.UserPromptSubmit('go'))],
    [1_500, hook('StopFailure', hooks.StopFailure('invalid_request'))],
    [1_520, psp(`state=error:app=claude-code:msg=${b64('API Error: 400')}`)],
  ],
  verdicts: [
    [1_000, 'starting', 'working', 'hook', 'prompt submitted'],
    [1_500, 'working', 'failed', 'hook', 'the turn ended in an error'],
  ],
});

console.log(`wrote fixtures to ${out}`);
