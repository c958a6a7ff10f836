/**
 * The small forms the grid asks with: adding a tile (what to run, in which folder, named how —
 * Tab completes the agent names), and renaming one. Pure: a key in, the form or its result out.
 */

export const AGENT_WORDS = ['claude', 'codex', 'gemini', 'shell'] as const;

export interface AddForm {
  readonly type: 'add';
  readonly fields: readonly [spec: string, cwd: string, name: string];
  /** Which field has the cursor. */
  readonly field: 0 | 1 | 2;
  readonly error: string | null;
}

export interface RenameForm {
  readonly type: 'rename';
  readonly tileId: number;
  readonly text: string;
  readonly error: string | null;
}

export type FormResult<F> = { form: F } | { cancel: true } | { submit: F };

export function newAddForm(cwd: string): AddForm {
  return { type: 'add', fields: ['', cwd, ''], field: 0, error: null };
}

export function addFormKey(form: AddForm, key: string): FormResult<AddForm> {
  if (key === 'escape') return { cancel: true };
  if (key === 'enter') {
    if (form.fields[0].trim() === '') return { form: { ...form, field: 0, error: 'what should the tile run? an agent (claude, codex, gemini), shell, or a command line' } };
    return { submit: form };
  }
  if (key === 'tab' && form.field === 0) {
    const completed = completeAgent(form.fields[0]);
    if (completed !== form.fields[0]) return { form: withField(form, 0, completed) };
  }
  if (key === 'tab' || key === 'down') return { form: { ...form, field: ((form.field + 1) % 3) as 0 | 1 | 2, error: null } };
  if (key === 'shift-tab' || key === 'up') return { form: { ...form, field: ((form.field + 2) % 3) as 0 | 1 | 2, error: null } };
  const edited = editText(form.fields[form.field], key);
  return edited === null ? { form } : { form: withField(form, form.field, edited) };
}

export function renameFormKey(form: RenameForm, key: string): FormResult<RenameForm> {
  if (key === 'escape') return { cancel: true };
  if (key === 'enter') return form.text.trim() === '' ? { form: { ...form, error: 'a name, please' } } : { submit: form };
  const edited = editText(form.text, key);
  return edited === null ? { form } : { form: { ...form, text: edited, error: null } };
}

/** The SPEC's first word completed to the one agent name it starts, if exactly one. */
export function completeAgent(spec: string): string {
  if (/\s/.test(spec)) return spec;
  const matches = AGENT_WORDS.filter((word) => word.startsWith(spec));
  return matches.length === 1 ? `${matches[0]} ` : spec;
}

function withField(form: AddForm, index: 0 | 1 | 2, value: string): AddForm {
  const fields = [...form.fields] as [string, string, string];
  fields[index] = value;
  return { ...form, fields, error: null };
}

/** A line-editing key applied to `text`; null when the key does not edit. */
export function editText(text: string, key: string): string | null {
  if (key === 'backspace' || key === 'ctrl-h') return Array.from(text).slice(0, -1).join('');
  if (key === 'ctrl-u') return '';
  if (key === 'ctrl-w') return text.replace(/\S+\s*$/, '');
  if (Array.from(key).length === 1 && key >= ' ' && text.length < 4096) return text + key;
  return null;
}
