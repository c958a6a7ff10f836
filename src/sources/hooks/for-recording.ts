/**
 * Helpers for the recorded form of hook payloads (see src/record/recorded-form.ts): keep named
 * fields as they are, and keep of a background task list only what identifies each task.
 */

/** The named fields of `payload` that are present, unchanged. */
export function pick(payload: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of keys) if (Object.hasOwn(payload, key)) out[key] = payload[key];
  return out;
}

// What runningTasks (claude-payloads.ts) reads of a task: never its description or command.
const TASK_FIELDS = ['id', 'type', 'status', 'name', 'agent_id', 'agent_name', 'teammate_name'];

/** `{ background_tasks }` with each task reduced to its identifying fields, when the payload has a list. */
export function tasksForRecording(payload: Record<string, unknown>): Record<string, unknown> {
  const tasks = payload.background_tasks;
  if (!Array.isArray(tasks)) return {};
  return {
    background_tasks: tasks.map((task: unknown) =>
      typeof task === 'object' && task !== null && !Array.isArray(task) ? pick(task as Record<string, unknown>, TASK_FIELDS) : null,
    ),
  };
}
