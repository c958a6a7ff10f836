/**
 * Claude Code hook payloads in the shapes shared/facts/claude-code.md records (2.1.332).
 * Field values are illustrative; field names and structure follow the facts page.
 */
const common = <E extends Record<string, unknown>>(event: string, extra: E = {} as E) => ({
  session_id: '9b2e3c1a-0000-4000-8000-000000000001',
  transcript_path: '/home/u/.claude/projects/-work-app/9b2e3c1a-0000-4000-8000-000000000001.jsonl',
  cwd: '/work/app',
  hook_event_name: event,
  prompt_id: 'p-1',
  ...extra,
});

export const claude = {
  prompt: common('UserPromptSubmit', { prompt: 'fix the failing test' }),
  taskNotification: common('UserPromptSubmit', {
    prompt: '<task-notification>\n<task-id>bash_1</task-id>\n<status>completed</status>\n</task-notification>',
  }),
  preTool: common('PreToolUse', { tool_name: 'Bash', tool_input: { command: 'npm test' }, tool_use_id: 'toolu_1' }),
  postTool: common('PostToolUse', { tool_name: 'Bash', tool_input: { command: 'npm test' }, tool_response: { stdout: 'ok' } }),
  postToolAsync: common('PostToolUse', { tool_name: 'Agent', tool_response: { status: 'async_launched' } }),
  postToolFailure: common('PostToolUseFailure', { tool_name: 'Bash', error: 'exit 1' }),
  stop: common('Stop', { stop_hook_active: false, last_assistant_message: 'All tests pass.', background_tasks: [], session_crons: [] }),
  stopWithShell: common('Stop', {
    stop_hook_active: false,
    last_assistant_message: 'Started the server in the background.',
    background_tasks: [{ id: 'bash_1', type: 'shell', status: 'running', description: 'dev server', command: 'npm run dev' }],
    session_crons: [],
  }),
  stopWithSubagent: common('Stop', {
    stop_hook_active: false,
    last_assistant_message: 'A subagent is researching.',
    background_tasks: [
      { id: 'agent_a1', type: 'subagent', status: 'running', description: 'research' },
      { id: 'bash_9', type: 'shell', status: 'completed', description: 'old' },
    ],
    session_crons: [],
  }),
  stopAfterBlock: common('Stop', { stop_hook_active: true, last_assistant_message: 'Done now.', background_tasks: [] }),
  stopFailure: common('StopFailure', { error: 'invalid_request', last_assistant_message: 'API Error: 400 {"type":"error"}' }),
  permissionRequest: common('PermissionRequest', { tool_name: 'Bash', tool_input: { command: 'rm -rf build' }, permission_suggestions: [] }),
  notifyPermission: common('Notification', { notification_type: 'permission_prompt', message: 'Claude needs your permission to use Bash' }),
  notifyIdle: common('Notification', { notification_type: 'idle_prompt', message: 'Claude is waiting for your input' }),
  notifyElicitation: common('Notification', { notification_type: 'elicitation_dialog', message: 'An MCP server asks a question' }),
  notifyAuth: common('Notification', { notification_type: 'auth_success', message: 'Signed in' }),
  sessionEndClear: common('SessionEnd', { reason: 'clear' }),
  sessionEndExit: common('SessionEnd', { reason: 'prompt_input_exit' }),
  sessionStartStartup: common('SessionStart', { source: 'startup', model: 'claude-x' }),
  sessionStartResume: common('SessionStart', { source: 'resume' }),
  sessionStartClear: {
    ...common('SessionStart', { source: 'clear' }),
    session_id: '7c1d0000-0000-4000-8000-000000000002',
    transcript_path: '/home/u/.claude/projects/-work-app/7c1d0000-0000-4000-8000-000000000002.jsonl',
  },
  sessionStartCompact: common('SessionStart', { source: 'compact' }),
  preCompact: common('PreCompact', { trigger: 'manual', custom_instructions: '' }),
  postCompact: common('PostCompact', { trigger: 'manual' }),
  subagentStart: common('SubagentStart', { agent_id: 'agent_a1', agent_type: 'general-purpose' }),
  subagentStop: common('SubagentStop', {
    agent_id: 'agent_a1',
    agent_type: 'general-purpose',
    stop_hook_active: false,
    last_assistant_message: 'Found it.',
    background_tasks: [
      { id: 'agent_a1', type: 'subagent', status: 'running', description: 'research' },
      { id: 'agent_b2', type: 'subagent', status: 'running', description: 'other research' },
    ],
  }),
  compactionSubagentStop: common('SubagentStop', { agent_id: 'compact_1', agent_type: 'compact', background_tasks: [] }),
  teammateIdle: common('TeammateIdle', { teammate_name: 'reviewer', team_name: 'core' }),
  messageDisplay: common('MessageDisplay', { message: 'hi' }),
};
