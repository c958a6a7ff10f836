/**
 * Closing a worktree tile (close-worktree.ts, worktree-closing.ts) on real temporary repositories:
 * keeping is the default and one key; removing asks git what would be lost, removes at once when
 * nothing would be, and otherwise shows the loss and needs a capital Y for exactly it — a loss
 * that changed after it was shown is refused and the worktree kept.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { askCloseWorktree, closeWorktreeKey, closeWorktreeWords, lossRead } from '../../src/ui/close-worktree.js';
import type { CloseWorktreeOverlay } from '../../src/ui/close-worktree.js';
import { readWorktreeLoss, removeTileWorktree } from '../../src/ui/worktree-closing.js';
import { createWorktree } from '../../src/worktree/worktree-create.js';
import { GIT_ENV, gitIn, tempRepository } from '../support/git-repo.js';

const removals: (() => void)[] = [];
afterEach(() => {
  for (const remove of removals.splice(0)) remove();
});

async function worktreeTile() {
  const made = tempRepository({ 'app.ts': 'a\n' }, 'belltower-close-wt-');
  removals.push(made.remove);
  const worktree = await createWorktree({ cwd: made.repo, branch: 'feat-x', stateDir: join(made.root, 'state'), env: GIT_ENV });
  return { ...made, worktree, overlay: askCloseWorktree(4, 'done', worktree) };
}

function loaded(overlay: CloseWorktreeOverlay, read: Awaited<ReturnType<typeof readWorktreeLoss>>) {
  const asked = closeWorktreeKey(overlay, 'r');
  expect(asked.effects).toEqual([{ type: 'worktree-loss', tileId: 4, path: overlay.path }]);
  return lossRead(asked.overlay!, read);
}

describe('closing a worktree tile', () => {
  it('k closes it and keeps the worktree; Esc leaves both', async () => {
    const { overlay, worktree } = await worktreeTile();
    expect(closeWorktreeWords(overlay).footer).toBe('k closes it and keeps the worktree · r removes the worktree too · Esc leaves it');
    expect(closeWorktreeKey(overlay, 'k')).toEqual({ overlay: null, effects: [{ type: 'close', tileId: 4 }], note: 'tile 4 closed; its worktree (branch feat-x) is kept' });
    expect(closeWorktreeKey(overlay, 'escape')).toEqual({ overlay: null, effects: [], note: 'left as it is' });
    // Any other key does nothing: a stray y or Enter removes nothing.
    for (const key of ['y', 'Y', 'enter', 'x']) expect(closeWorktreeKey(overlay, key)).toEqual({ overlay, effects: [] });
  });

  it('r with nothing to lose closes the tile and removes its worktree and branch at once', async () => {
    const { repo, overlay, worktree } = await worktreeTile();
    const step = loaded(overlay, await readWorktreeLoss(worktree.path));
    expect(step.overlay).toBeNull();
    const close = step.effects[0]!;
    expect(close).toMatchObject({ type: 'close', tileId: 4, remove: { path: worktree.path, repository: repo } });
    const said = await removeTileWorktree((close as Extract<typeof close, { type: 'close' }>).remove!);
    expect(said).toBe('its worktree and branch feat-x removed');
    expect(existsSync(worktree.path)).toBe(false);
    expect(gitIn(repo, 'branch', '--list', 'feat-x')).toBe('');
  });

  it('r with uncommitted work shows what would be lost, and only Y for that loss removes it', async () => {
    const { repo, overlay, worktree } = await worktreeTile();
    writeFileSync(join(worktree.path, 'app.ts'), 'changed\n');
    writeFileSync(join(worktree.path, 'new.ts'), 'new\n');
    const step = loaded(overlay, await readWorktreeLoss(worktree.path));
    expect(step.effects).toEqual([]);
    const confirm = step.overlay!;
    expect(confirm.step).toBe('confirm');
    expect(closeWorktreeWords(confirm).lines.map((l) => l.text)).toContain('Removing it loses 2 uncommitted files (app.ts, new.ts).');
    // A lower-case y is not the confirmation.
    expect(closeWorktreeKey(confirm, 'y').effects).toEqual([]);
    const yes = closeWorktreeKey(confirm, 'Y').effects[0] as { type: 'close'; remove: { path: string; repository: string } };
    expect(yes.remove).toMatchObject({ path: worktree.path, repository: repo, confirmedLoss: confirm.loss });
    expect(await removeTileWorktree(yes.remove)).toBe('its worktree and branch feat-x removed');
    expect(existsSync(worktree.path)).toBe(false);
  });

  it('a loss that changed after it was shown is refused: the worktree is kept, and said so', async () => {
    const { overlay, worktree } = await worktreeTile();
    writeFileSync(join(worktree.path, 'app.ts'), 'changed\n');
    const confirm = loaded(overlay, await readWorktreeLoss(worktree.path)).overlay!;
    const yes = closeWorktreeKey(confirm, 'Y').effects[0] as { type: 'close'; remove: { path: string; repository: string } };
    writeFileSync(join(worktree.path, 'app.ts'), 'changed again, after the loss was shown\n');
    const said = await removeTileWorktree(yes.remove);
    expect(said).toMatch(/^its worktree is kept: .* changed since what removing it would lose was read/);
    expect(existsSync(join(worktree.path, 'app.ts'))).toBe(true);
  });

  it('says when git cannot say what would be lost, and asks again with keeping still one key', async () => {
    const { root, overlay } = await worktreeTile();
    const read = await readWorktreeLoss(join(root, 'not-a-worktree'));
    expect(read).toMatchObject({ error: expect.stringMatching(/^removing it cannot be offered: /) });
    const step = loaded(overlay, read);
    expect(step.overlay).toMatchObject({ step: 'ask', error: (read as { error: string }).error });
    expect(step.effects).toEqual([]);
  });
});
