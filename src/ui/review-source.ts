/**
 * What the review overlay shows of a tile, asked of git in the background: the files it changed
 * with their counts and `git diff BASE` — a worktree's base is the commit it branched from, any
 * other folder's is HEAD, exactly as `belltower diff` prints it — or why there is nothing.
 */
import type { TileInfo } from '../control/protocol.js';
import { changesProblem, changesSince, diffText } from '../worktree/worktree-changes.js';
import { reviewLines } from './review.js';
import type { ReviewLine } from './review.js';

export async function loadReview(tile: TileInfo, env?: NodeJS.ProcessEnv): Promise<{ lines: ReviewLine[] } | { error: string }> {
  const cwd = tile.cwd;
  if (!cwd || tile.remote) return { error: `tile ${tile.id} runs ${tile.remote ? 'on another machine' : 'in no known folder'}: there is nothing here to review` };
  const base = tile.worktree?.base ?? 'HEAD';
  const options = env ? { env } : {};
  try {
    const [changes, diff] = await Promise.all([changesSince(cwd, base, options), diffText(cwd, base, options)]);
    return { lines: reviewLines(changes.files, diff, `belltower diff ${tile.id}`) };
  } catch (error) {
    const problem = changesProblem(error, `tile ${tile.id}`, cwd);
    if (problem === null) throw error;
    return { error: problem };
  }
}
