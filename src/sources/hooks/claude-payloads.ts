/**
 * Zod shapes of the Claude Code hook payloads we read (observed on 2.1.332; see
 * shared/facts/claude-code.md). Only the fields we use are declared; unknown fields pass
 * through untouched. A payload that does not fit yields no signal rather than a throw.
 */
import { z } from 'zod';
import type { BackgroundTask } from '../../verdict/signals.js';

/** Every Claude payload carries these. */
export const Base = z.object({ session_id: z.string() });

export const Prompt = Base.extend({ prompt: z.string() });
export const Tool = Base.extend({ tool_name: z.string() });
export const Stop = Base.extend({
  // A number in a recording: the length of the message, which is all that is read of it.
  last_assistant_message: z.union([z.string(), z.number()]).optional(),
  stop_hook_active: z.boolean().optional(),
  background_tasks: z.unknown().optional(),
});
export const StopFailure = Base.extend({ error: z.unknown().optional(), last_assistant_message: z.unknown().optional() });
export const PermissionRequest = Base.extend({ tool_name: z.string().optional() });
// `notification_type` came with Claude Code 2.0.37; 1.0.x (1.0.128 observed) sends only the message.
export const Notification = Base.extend({ notification_type: z.string().optional(), message: z.string().optional() });
export const SessionEnd = Base.extend({ reason: z.string() });
export const SessionStart = Base.extend({ source: z.string(), transcript_path: z.string().optional() });
export const Subagent = Base.extend({ agent_id: z.string(), background_tasks: z.unknown().optional() });
export const TeammateIdle = Base.extend({ teammate_name: z.string() });

const Task = z.object({
  id: z.string(),
  type: z.string().optional(),
  status: z.string().optional(),
  name: z.string().optional(),
  agent_id: z.string().optional(),
  agent_name: z.string().optional(),
  teammate_name: z.string().optional(),
});

/**
 * `background_tasks` → the tasks still running, or undefined when the payload has no list (that
 * evidence says nothing about background work). Entries that do not fit are skipped.
 */
export function runningTasks(value: unknown, exceptId?: string): BackgroundTask[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const tasks: BackgroundTask[] = [];
  for (const raw of value) {
    const parsed = Task.safeParse(raw);
    if (!parsed.success || parsed.data.status !== 'running') continue;
    const entry = parsed.data;
    // A SubagentStop's own list still names the subagent that is stopping.
    if (exceptId !== undefined && (entry.id === exceptId || entry.agent_id === exceptId)) continue;
    const name = entry.name ?? entry.agent_name ?? entry.teammate_name;
    tasks.push({ id: entry.id, type: taskType(entry.type), ...(name ? { name } : {}) });
  }
  return tasks;
}

/** Claude says `shell` and `subagent` today; internal names (`local_bash`, `in_process_teammate`)
 * are folded in by their stem so a rename does not silently drop the gate. */
function taskType(type: string | undefined): BackgroundTask['type'] {
  const t = (type ?? '').toLowerCase();
  if (t.includes('teammate')) return 'teammate';
  if (t === 'shell' || t.includes('bash') || t.includes('shell')) return 'shell';
  if (t.includes('agent')) return 'subagent';
  return 'other';
}
