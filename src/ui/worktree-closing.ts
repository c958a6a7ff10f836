/**
 * The git side of closing a worktree tile, for the grid (close-worktree.ts decides; this asks and
 * acts): what removing its worktree would lose, and the removal itself once the tile is closed —
 * each answer a value with words for the status line, never a throw for what git says.
 */
import { GitError } from '../worktree/git-command.js';
import { WorktreeError } from '../worktree/worktree-create.js';
import { removeWorktree, worktreeLoss, type WorktreeLoss } from '../worktree/worktree-remove.js';

export async function readWorktreeLoss(folder: string): Promise<{ loss: WorktreeLoss } | { error: string }> {
  try {
    return { loss: await worktreeLoss(folder) };
  } catch (error) {
    if (error instanceof WorktreeError || error instanceof GitError) return { error: `removing it cannot be offered: ${error.message}` };
    throw error;
  }
}

/** Remove the closed tile's worktree with the loss the user accepted (none: nothing to lose);
 * says what happened. A loss that changed since it was shown is refused (and said). */
export async function removeTileWorktree(remove: { path: string; repository: string; confirmedLoss?: WorktreeLoss }): Promise<string> {
  const outcome = await removeWorktree(remove.path, { repository: remove.repository, ...(remove.confirmedLoss ? { confirmedLoss: remove.confirmedLoss } : {}) });
  if (!outcome.removed) return `its worktree is kept: ${outcome.message}`;
  // Short: it goes on the status line after "tile 3 api closed; " (the path is in belltower's log).
  return outcome.branchDeleted ? `its worktree and branch ${outcome.branch} removed` : `its worktree removed${outcome.branchNote ? ` (${outcome.branchNote})` : ''}`;
}
