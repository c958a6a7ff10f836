/**
 * The small forms the grid asks with: adding a tile (what to run, in which folder, named how —
 * Tab completes the agent names), and renaming one. Pure: a key in, the form or its result out.
 */

export const AGENT_WORDS = ['claude', 'codex', 'gemini', 'shell'] as const;

export interface AddForm {
  readonly type: 'add';
  /** `worktree`: empty for none; a branch name, or `+` for a new `belltower/…` branch, starts the
   * tile in a new git worktree of its folder's repository. */
  readonly fields: readonly [spec: string, cwd: string, name: string, worktree: string];
  /** Which field has the cursor. */
  readonly field: FieldIndex;
  readonly error: string | null;
  /** What Tab found when it could not choose (several programs or folders start so). */
  readonly hint?: string | null;
}

/** Where Tab looks (the shell's reads of PATH and of folders), passed in to keep the form pure. */
export interface Completions {
  /** Programs on PATH whose names start with `prefix`. */
  programs(prefix: string): readonly string[];
  /** Folders (as typed, ending in `/`) that complete `partial`. */
  folders(partial: string): readonly string[];
  /** Whether `path` (as typed) names a folder already. */
  isFolder(path: string): boolean;
}

/** How many of several matches Tab lists. */
const HINT_MATCHES = 8;

export interface RenameForm {
  readonly type: 'rename';
  readonly tileId: number;
  readonly text: string;
  readonly error: string | null;
}

export type FormResult<F> = { form: F } | { cancel: true } | { submit: F };

type FieldIndex = 0 | 1 | 2 | 3;
const FIELDS = 4;

export function newAddForm(cwd: string): AddForm {
  return { type: 'add', fields: ['', cwd, '', ''], field: 0, error: null };
}

/** The add form's worktree field as the `add` request takes it: none, a new branch named for the
 * tile (`+`), or that branch. */
export function worktreeAsked(field: string): { branch?: string } | undefined {
  const text = field.trim();
  if (text === '') return undefined;
  return text === '+' ? {} : { branch: text };
}

export function addFormKey(form: AddForm, key: string, completions?: Completions): FormResult<AddForm> {
  if (key === 'escape') return { cancel: true };
  if (key === 'enter') {
    if (form.fields[0].trim() === '') return { form: { ...form, field: 0, error: 'what should the tile run? an agent (claude, codex, gemini), shell, or a command line' } };
    return { submit: form };
  }
  if (key === 'tab' && form.field === 0) {
    // One word: an agent name or a program on PATH, all of them weighed together.
    if (completions && form.fields[0] !== '' && !/\s/.test(form.fields[0])) {
      const found = complete(form.fields[0], [...new Set([...AGENT_WORDS.filter((w) => w.startsWith(form.fields[0])), ...completions.programs(form.fields[0])])].sort(), ' ');
      if (found && (found.text !== form.fields[0] || found.hint)) return { form: { ...withField(form, 0, found.text), hint: found.hint } };
    } else {
      const completed = completeAgent(form.fields[0]);
      if (completed !== form.fields[0]) return { form: withField(form, 0, completed) };
    }
  }
  // A folder field that names a folder already: Tab moves on, as it does without completions.
  if (key === 'tab' && form.field === 1 && completions && !completions.isFolder(form.fields[1])) {
    const found = complete(form.fields[1], [...completions.folders(form.fields[1])].sort(), '');
    if (found && (found.text !== form.fields[1] || found.hint)) return { form: { ...withField(form, 1, found.text), hint: found.hint } };
  }
  if (key === 'tab' || key === 'down') return { form: { ...form, field: ((form.field + 1) % FIELDS) as FieldIndex, error: null, hint: null } };
  if (key === 'shift-tab' || key === 'up') return { form: { ...form, field: ((form.field + FIELDS - 1) % FIELDS) as FieldIndex, error: null } };
  const edited = editText(form.fields[form.field], key);
  return edited === null ? { form } : { form: withField(form, form.field, edited) };
}

export function renameFormKey(form: RenameForm, key: string): FormResult<RenameForm> {
  if (key === 'escape') return { cancel: true };
  if (key === 'enter') return form.text.trim() === '' ? { form: { ...form, error: 'a name, please' } } : { submit: form };
  const edited = editText(form.text, key);
  return edited === null ? { form } : { form: { ...form, text: edited, error: null } };
}

/** `typed` completed among `matches`: the one match (then `after`), or as far as they all agree
 * with the rest listed; null when Tab has nothing to add or show. */
function complete(typed: string, matches: readonly string[], after: string): { text: string; hint: string | null } | null {
  if (matches.length === 0) return null;
  if (matches.length === 1) return { text: matches[0]! + after, hint: null };
  let common = matches[0]!;
  for (const m of matches) while (!m.startsWith(common)) common = common.slice(0, -1);
  const shown = matches.slice(0, HINT_MATCHES).map((m) => m.slice(m.lastIndexOf('/', m.length - 2) + 1)).join('  ');
  const hint = `${shown}${matches.length > HINT_MATCHES ? `  … ${matches.length - HINT_MATCHES} more` : ''}`;
  return { text: common.length > typed.length ? common : typed, hint };
}

/** The SPEC's first word completed to the one agent name it starts, if exactly one. */
export function completeAgent(spec: string): string {
  if (/\s/.test(spec)) return spec;
  const matches = AGENT_WORDS.filter((word) => word.startsWith(spec));
  return matches.length === 1 ? `${matches[0]} ` : spec;
}

function withField(form: AddForm, index: FieldIndex, value: string): AddForm {
  const fields = [...form.fields] as [string, string, string, string];
  fields[index] = value;
  const { hint: _shown, ...rest } = form;
  return { ...rest, fields, error: null };
}

/** A line-editing key applied to `text`; null when the key does not edit. */
export function editText(text: string, key: string): string | null {
  if (key === 'backspace' || key === 'ctrl-h') return Array.from(text).slice(0, -1).join('');
  if (key === 'ctrl-u') return '';
  if (key === 'ctrl-w') return text.replace(/\S+\s*$/, '');
  if (Array.from(key).length === 1 && key >= ' ' && text.length < 4096) return text + key;
  return null;
}
