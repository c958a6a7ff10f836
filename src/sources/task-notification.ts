/**
 * Claude Code's own prompt when a background task completes: a turn the agent starts itself, not
 * the user's. Hooks and the transcript both read it, and their recordings keep only this marker.
 */
export const TASK_NOTIFICATION = '<task-notification>';

export function isTaskNotification(prompt: string): boolean {
  return prompt.trimStart().startsWith(TASK_NOTIFICATION);
}
