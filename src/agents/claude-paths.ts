/**
 * Where Claude Code keeps a session's transcript, computed before the agent starts so the tail
 * can wait for the file from the first moment (we pass --session-id, so the name is ours).
 *
 *   <CLAUDE_CONFIG_DIR or ~/.claude>/projects/<cwd, every non-alphanumeric char as ->/<session_id>.jsonl
 *
 * VERIFY: very long cwds (> 200 chars once dashed) are truncated with a hash suffix by newer Claude
 * versions; we do not reproduce the hash. The first hook's `transcript_path` is the truth: the
 * caller should switch the tail to it when it differs.
 */
import path from 'node:path';

export function claudeConfigDir(env: NodeJS.ProcessEnv, homedir: string): string {
  const configured = env.CLAUDE_CONFIG_DIR;
  return configured && configured.length > 0 ? configured : path.join(homedir, '.claude');
}

export function claudeProjectDirName(cwd: string): string {
  return cwd.replace(/[^a-zA-Z0-9]/g, '-');
}

export function claudeTranscriptPath(configDir: string, cwd: string, sessionId: string): string {
  return path.join(configDir, 'projects', claudeProjectDirName(cwd), `${sessionId}.jsonl`);
}
