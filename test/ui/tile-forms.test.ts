import { describe, expect, it } from 'vitest';
import { addFormKey, completeAgent, newAddForm, renameFormKey, worktreeAsked } from '../../src/ui/tile-forms.js';
import type { AddForm } from '../../src/ui/tile-forms.js';

function type(form: AddForm, ...keys: string[]) {
  let result: ReturnType<typeof addFormKey> = { form };
  for (const key of keys) {
    if (!('form' in result)) return result;
    result = addFormKey(result.form, key);
  }
  return result;
}

describe('the add form', () => {
  it('completes agent names with Tab, moves between fields, and submits with Enter', () => {
    const r = type(newAddForm('/repo'), 'c', 'o', 'tab', 'tab', 'ctrl-u', 's', 'r', 'c', 'tab', 'w', 'e', 'b', 'enter');
    expect(r).toEqual({ submit: { type: 'add', fields: ['codex ', 'src', 'web', ''], field: 2, error: null } });
    // The fourth field: a branch for a worktree of its own; Tab goes round to the first again.
    const withBranch = type(newAddForm('/repo'), 'c', 'o', 'tab', 'tab', 'tab', 'tab', 'f', 'e', 'a', 't', 'tab', 'enter');
    expect(withBranch).toMatchObject({ submit: { type: 'add', fields: ['codex ', '/repo', '', 'feat'], field: 0, error: null } });
  });

  it('reads the worktree field: empty is none, + a new branch named for the tile, else that branch', () => {
    expect(worktreeAsked('  ')).toBeUndefined();
    expect(worktreeAsked('+')).toEqual({});
    expect(worktreeAsked(' feat-login ')).toEqual({ branch: 'feat-login' });
  });

  it('does not submit without something to run, and Esc cancels', () => {
    const r = type(newAddForm('/repo'), 'enter');
    expect('form' in r && r.form.error).toMatch(/what should the tile run/);
    expect(type(newAddForm('/repo'), 'x', 'escape')).toEqual({ cancel: true });
  });

  it('completes only a unique first word', () => {
    expect(completeAgent('cl')).toBe('claude ');
    expect(completeAgent('c')).toBe('c');
    expect(completeAgent('claude --model')).toBe('claude --model');
  });
});

describe('the rename form', () => {
  it('edits a name and submits it', () => {
    let r = renameFormKey({ type: 'rename', tileId: 3, text: 'api', error: null }, 'backspace');
    if (!('form' in r)) throw new Error();
    r = renameFormKey(r.form, 'x');
    if (!('form' in r)) throw new Error();
    expect(renameFormKey(r.form, 'enter')).toEqual({ submit: { type: 'rename', tileId: 3, text: 'apx', error: null } });
  });
});

describe('the add form: Tab completes programs from PATH and folders', () => {
  const completions = {
    programs: (prefix: string) => ['sleep', 'sl', 'slack', 'claude-helper'].filter((p) => p.startsWith(prefix)),
    folders: (partial: string) => ['src/', 'scripts/', 'shared/'].filter((f) => f.startsWith(partial)),
    isFolder: (typed: string) => ['.', 'src', 'src/'].includes(typed),
  };
  const typing = (text: string, field: 0 | 1 = 0): AddForm => ({ type: 'add', fields: field === 0 ? [text, '.', '', ''] : ['x', text, '', ''], field, error: null });
  const tab = (form: AddForm) => {
    const result = addFormKey(form, 'tab', completions);
    if (!('form' in result)) throw new Error('the form closed');
    return result.form;
  };

  it('one program completes with a space; several complete as far as they agree, and are listed', () => {
    expect(tab(typing('slee')).fields[0]).toBe('sleep ');
    const several = tab(typing('s'));
    expect(several.fields[0]).toBe('s');
    expect(several.hint).toBe('shell  sl  slack  sleep');
    expect(tab(typing('sla')).fields[0]).toBe('slack ');
    expect(several.field).toBe(0);
    // Agent names and programs are weighed together.
    expect(tab(typing('cla')).fields[0]).toBe('claude');
    expect(tab(typing('cla')).hint).toBe('claude  claude-helper');
    expect(tab(typing('code')).fields[0]).toBe('codex ');
  });

  it('folders complete in the folder field, ending in /', () => {
    expect(tab(typing('sr', 1)).fields[1]).toBe('src/');
    const several = tab(typing('s', 1));
    expect(several.fields[1]).toBe('s');
    expect(several.hint).toBe('scripts/  shared/  src/');
  });

  it('with nothing to complete, or a folder that is one already, Tab goes to the next field as before', () => {
    expect(tab(typing('zzz')).field).toBe(1);
    expect(tab(typing('src', 1)).field).toBe(2);
    expect(tab(typing('.', 1)).field).toBe(2);
  });
});
