import { describe, expect, it } from 'vitest';
import { agentWords } from '../../src/tile/agent-words.js';

const b64 = (s: string) => Buffer.from(s).toString('base64');

describe('agentWords', () => {
  it('reads the command a permission prompt asks to approve', () => {
    expect(agentWords({ type: 'hook', event: 'PermissionRequest', payload: { session_id: 's', tool_name: 'Bash', tool_input: { command: 'rm -rf build', description: 'clean' } } })).toEqual({ for: 'blocked', text: 'approve Bash `rm -rf build`' });
    expect(agentWords({ type: 'hook', event: 'PermissionRequest', payload: { session_id: 's', tool_name: 'Edit', tool_input: { file_path: '/src/a.ts' } } })).toEqual({ for: 'blocked', text: 'approve Edit `/src/a.ts`' });
    expect(agentWords({ type: 'osc', code: 7501, payload: `state=blocked:kind=permission:msg=${b64('approve Bash: make deploy')}` })).toEqual({ for: 'blocked', text: 'approve Bash: make deploy' });
  });

  it('says an edit by its path inside the folder, a plan as a plan, and what Gemini asks from its details', () => {
    const edit = { session_id: 's', cwd: '/home/u/repo', tool_name: 'Edit', tool_input: { file_path: '/home/u/repo/src/app.ts' } };
    expect(agentWords({ type: 'hook', event: 'PermissionRequest', payload: edit })).toEqual({ for: 'blocked', text: 'approve Edit `src/app.ts`' });
    expect(agentWords({ type: 'hook', event: 'PermissionRequest', payload: { ...edit, tool_input: { file_path: '/etc/hosts' } } })).toEqual({ for: 'blocked', text: 'approve Edit `/etc/hosts`' });
    expect(agentWords({ type: 'hook', event: 'PermissionRequest', payload: { session_id: 's', tool_name: 'ExitPlanMode', tool_input: { plan: '# Plan\n1. …' } } })).toEqual({ for: 'blocked', text: 'approve plan' });
    // Gemini CLI 0.61's Notification (fixtures/gemini-0.61.0/hooks-confirmation.jsonl).
    const gemini = { session_id: 's', cwd: '/tmp/p', hook_event_name: 'Notification', notification_type: 'ToolPermission', message: 'Tool Confirm Shell Command requires execution', details: { type: 'exec', title: 'Confirm Shell Command', command: 'touch belltower-approved.txt', rootCommand: 'touch' } };
    expect(agentWords({ type: 'hook', event: 'Notification', payload: gemini })).toEqual({ for: 'blocked', text: 'approve Shell `touch belltower-approved.txt`', reminder: true });
    expect(agentWords({ type: 'hook', event: 'Notification', payload: { ...gemini, details: { type: 'edit', fileName: 'app.ts', filePath: '/tmp/p/src/app.ts' } } })?.text).toBe('approve Edit `src/app.ts`');
    expect(agentWords({ type: 'hook', event: 'Notification', payload: { ...gemini, details: { type: 'info' } } })?.text).toBe('Tool Confirm Shell Command requires execution');
  });

  it('a question is said in its own words: Gemini\'s ask_user from BeforeTool, Codex\'s request_user_input from its rollout', () => {
    const questions = [{ header: 'Database', question: 'Which database should the service use?', type: 'choice', options: [{ label: 'Postgres' }, { label: 'SQLite' }] }];
    expect(agentWords({ type: 'hook', event: 'BeforeTool', payload: { session_id: 's', tool_name: 'ask_user', tool_input: { questions } } })).toEqual({ for: 'blocked', text: 'Which database should the service use?' });
    expect(agentWords({ type: 'hook', event: 'BeforeTool', payload: { session_id: 's', tool_name: 'ask_user', tool_input: { questions: [...questions, { question: 'Which cache?' }] } } })?.text).toBe('Which database should the service use? (and 1 more)');
    expect(agentWords({ type: 'hook', event: 'BeforeTool', payload: { session_id: 's', tool_name: 'run_shell_command', tool_input: { command: 'ls' } } })).toBeNull();
    // Claude Code's AskUserQuestion, through its PermissionRequest hook.
    expect(agentWords({ type: 'hook', event: 'PermissionRequest', payload: { session_id: 's', tool_name: 'AskUserQuestion', tool_input: { questions } } })).toEqual({ for: 'blocked', text: 'Which database should the service use?' });
    // Its confirmation says only "Tool requires confirmation": no words from it.
    expect(agentWords({ type: 'hook', event: 'Notification', payload: { session_id: 's', notification_type: 'ToolPermission', message: 'Tool requires confirmation', details: { type: 'ask_user', title: 'Ask User' } } })).toBeNull();
    const call = { type: 'response_item', payload: { type: 'function_call', name: 'request_user_input', call_id: 'c1', arguments: JSON.stringify({ questions: [{ id: 'db', header: 'Database', question: 'Which database should the service use?', options: [{ label: 'Postgres', description: '' }] }] }) } };
    expect(agentWords({ type: 'transcript', path: 'rollout.jsonl', record: call })).toEqual({ for: 'blocked', text: 'Which database should the service use?' });
    expect(agentWords({ type: 'transcript', path: 'rollout.jsonl', record: { ...call, payload: { ...call.payload, arguments: '{not json' } } })).toBeNull();
    expect(agentWords({ type: 'transcript', path: 'rollout.jsonl', record: { ...call, payload: { ...call.payload, name: 'exec_command' } } })).toBeNull();
  });

  it("reads a finished turn's last words, and a failed turn's error", () => {
    expect(agentWords({ type: 'hook', event: 'Stop', payload: { session_id: 's', last_assistant_message: '\n## All 14 tests pass\n\nDetails…' } })).toEqual({ for: 'done', text: 'All 14 tests pass' });
    expect(agentWords({ type: 'notify', payload: { type: 'agent-turn-complete', 'last-assistant-message': 'Fixed it.' } })).toEqual({ for: 'done', text: 'Fixed it.' });
    expect(agentWords({ type: 'hook', event: 'AfterAgent', payload: { session_id: 's', prompt_response: '[no response text]' } })).toBeNull();
    expect(agentWords({ type: 'hook', event: 'StopFailure', payload: { session_id: 's', error: 'unknown', last_assistant_message: 'API Error: 529 overloaded' } })).toEqual({ for: 'failed', text: 'API Error: 529 overloaded' });
    expect(agentWords({ type: 'osc', code: 7501, payload: `state=error:msg=${b64('API Error: 400 bad request')}` })).toEqual({ for: 'failed', text: 'API Error: 400 bad request' });
  });

  it("takes a Codex tile's words from its turn's notify, never from the hidden title thread's (issue 24, item 5)", () => {
    const titleThread = { type: 'agent-turn-complete', 'thread-id': 't2', 'input-messages': ['Generate a concise, single-line task title for: fix the tests'], 'last-assistant-message': 'Fix failing tests' };
    expect(agentWords({ type: 'notify', payload: titleThread })).toBeNull();
    const turn = { ...titleThread, 'thread-id': 't1', 'input-messages': ['fix the tests'], 'last-assistant-message': 'All green now.' };
    expect(agentWords({ type: 'notify', payload: turn })).toEqual({ for: 'done', text: 'All green now.' });
  });

  it('reads nothing from what carries no words, or not for the tile itself', () => {
    expect(agentWords({ type: 'hook', event: 'Notification', payload: { session_id: 's', notification_type: 'idle_prompt', message: 'Claude is waiting for your input' } })).toBeNull();
    expect(agentWords({ type: 'osc', code: 7501, payload: `state=working:id=job:msg=${b64('child')}` })).toBeNull();
    expect(agentWords({ type: 'osc', code: 7501, payload: 'state=done' })).toBeNull();
    expect(agentWords({ type: 'hook', event: 'PermissionRequest', payload: { session_id: 's' } })).toBeNull();
    expect(agentWords({ type: 'prompt' })).toBeNull();
  });

  it('keeps one line of bounded length', () => {
    const long = agentWords({ type: 'hook', event: 'Stop', payload: { session_id: 's', last_assistant_message: 'x'.repeat(5000) } });
    expect(long?.text.length).toBeLessThanOrEqual(300);
  });
});
