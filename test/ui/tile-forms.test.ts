import { describe, expect, it } from 'vitest';
import { addFormKey, completeAgent, newAddForm, renameFormKey } from '../../src/ui/tile-forms.js';
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
    expect(r).toEqual({ submit: { type: 'add', fields: ['codex ', 'src', 'web'], field: 2, error: null } });
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
