import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseSpec } from '../../src/agents/launch-spec.js';
import { sshArgv } from '../../src/remote/remote-launch.js';
import { parseJsoncLocated } from '../../src/workspace/jsonc-parse.js';
import { exampleWorkspace, loadWorkspace, parseWorkspace } from '../../src/workspace/workspace-file.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function folder(): string {
  const d = mkdtempSync(join(tmpdir(), 'belltower-ws-'));
  dirs.push(d);
  return d;
}

function errorsOf(text: string, base = folder()): string[] {
  const result = parseWorkspace(text, join(base, 'belltower.json'), 'belltower.json');
  if (result.ok) throw new Error('expected errors');
  return result.errors;
}

describe('parseJsoncLocated', () => {
  it('reads comments and trailing commas, and knows the line of every value', () => {
    const text = '// top\n{\n  "a": 1, /* x */\n  "list": [\n    "first",\n    { "b": true },\n  ],\n}\n';
    const r = parseJsoncLocated(text);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.located.value).toEqual({ a: 1, list: ['first', { b: true }] });
    expect(r.located.lineOf(['a'])).toBe(3);
    expect(r.located.lineOf(['list', 1, 'b'])).toBe(6);
    // A missing field: the line of its nearest ancestor.
    expect(r.located.lineOf(['list', 1, 'nope'])).toBe(6);
  });

  it('says where the syntax breaks', () => {
    expect(parseJsoncLocated('{\n  "a": 1\n  "b": 2\n}')).toEqual({ ok: false, line: 3, message: 'expected , or } after "a", found "\\""' });
    expect(parseJsoncLocated('{\n "a": [1, 2\n')).toMatchObject({ ok: false, line: 3 });
    expect(parseJsoncLocated('{"a": 1, "a": 2}')).toMatchObject({ ok: false, message: '"a" is given twice' });
  });
});

describe('the workspace file', () => {
  it('gives each tile a SPEC, an absolute folder and its options', () => {
    const base = folder();
    mkdirSync(join(base, 'api'));
    const text = `{
      "tiles": [
        { "name": "api", "agent": "claude", "cwd": "api", "args": ["--model", "opus 4"], "bell": false },
        { "command": "npm test -- --watch", "env": { "FORCE_COLOR": "1" }, "timing": { "conflictWindowMs": 1000 } },
      ],
      "bell": "background",
    }`;
    const result = parseWorkspace(text, join(base, 'belltower.json'), 'belltower.json');
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.workspace.bell).toBe('background');
    expect(result.workspace.tiles).toEqual([
      { spec: "claude --model 'opus 4'", name: 'api', cwd: join(base, 'api'), env: {}, bell: false, notify: true, timing: {} },
      { spec: 'npm test -- --watch', cwd: base, env: { FORCE_COLOR: '1' }, bell: true, notify: true, timing: { conflictWindowMs: 1000 } },
    ]);
  });

  it('names the file, the line and the field of every problem', () => {
    const text = [
      '{', // 1
      '  "tiles": [', // 2
      '    { "agent": "claude" },', // 3
      '    { "agent": "claud" },', // 4
      '    {', // 5
      '      "command": "make",', // 6
      '      "cwd": "/srv/ap"', // 7
      '    }', // 8
      '  ]', // 9
      '}', // 10
    ].join('\n');
    expect(errorsOf(text)).toEqual(['belltower.json:4: tiles[1].agent: must be one of "claude", "codex", "gemini", "shell"']);
    expect(errorsOf(text.replace('"claud"', '"codex"'))).toEqual(['belltower.json:7: tiles[2].cwd: no such folder "/srv/ap"']);
  });

  it('refuses what would start the wrong thing', () => {
    expect(errorsOf('{ "tiles": [ { "agent": "claude", "command": "ls" } ] }')).toEqual(['belltower.json:1: tiles[0]: give either "agent" (claude, codex, gemini, shell) or "command", not both']);
    expect(errorsOf('{ "tiles": [ {} ] }')[0]).toMatch(/tiles\[0\]: give either/);
    expect(errorsOf('{ "tiles": [ { "agent": "claude", "colour": "red" } ] }')).toEqual(['belltower.json:1: tiles[0]: unknown field "colour"']);
    expect(errorsOf('{ "tiles": [ { "agent": "claude", "name": "a" }, { "agent": "codex", "name": "a" } ] }')[0]).toMatch(/tiles\[1\]\.name: "a" is also tiles\[0\]'s name/);
    expect(errorsOf('{ "tiles": [ { "agent": "claude", "timing": { "conflictWindow": 5 } } ] }')[0]).toMatch(/tiles\[0\]\.timing\.conflictWindow: unknown timing setting/);
    expect(errorsOf('{ "tiles": [ { "agent": "claude" } ], "escapeKey": "x" }')[0]).toMatch(/escapeKey: x: give a control key/);
    expect(errorsOf('{ "tiles": [] }')[0]).toMatch(/tiles: no tiles/);
    expect(errorsOf('{ "tiles": [ { "command": "x", "args": ["y"] } ] }')[0]).toMatch(/tiles\[0\]\.args: "args" go with an agent/);
  });

  it('"worktree" asks for a git worktree: true for belltower/<name>, a string for that branch; never on a remote tile', () => {
    const base = folder();
    const text = '{ "tiles": [ { "agent": "claude", "worktree": true }, { "agent": "codex", "worktree": "feat-x" }, { "agent": "shell", "worktree": false } ] }';
    const result = parseWorkspace(text, join(base, 'belltower.json'), 'belltower.json');
    if (!result.ok) throw new Error(result.errors.join('\n'));
    expect(result.workspace.tiles.map((t) => t.newWorktree)).toEqual([{}, { branch: 'feat-x' }, undefined]);
    expect(errorsOf('{ "tiles": [ { "agent": "claude", "remote": "devbox", "worktree": true } ] }')).toEqual(['belltower.json:1: tiles[0].worktree: a worktree is made on this machine: a remote tile cannot start in one']);
    expect(errorsOf('{ "tiles": [ { "agent": "claude", "worktree": 3 } ] }')[0]).toMatch(/tiles\[0\]\.worktree/);
  });

  it('"remote" runs a tile on another machine over ssh, as the same agent', () => {
    const base = folder();
    const text = `{
      "tiles": [
        { "name": "dev", "agent": "claude", "args": ["--model", "opus 4"], "remote": "me@devbox", "remoteHooks": true },
        { "agent": "codex", "remote": "-p 2222 -i '~/.ssh/dev key' me@10.0.0.5" },
        { "agent": "shell", "remote": "devbox" },
        { "command": "cd proj && npm test", "remote": "devbox" },
      ],
      "remoteHooks": false,
    }`;
    const result = parseWorkspace(text, join(base, 'belltower.json'), 'belltower.json');
    if (!result.ok) throw new Error(result.errors.join('\n'));
    const [claude, codex, shell, command] = result.workspace.tiles.map((t) => ({ ...t, launch: parseSpec(t.spec, {}) }));
    expect(claude!.launch).toMatchObject({ agent: 'claude', remote: { host: 'devbox' } });
    expect(sshArgv(claude!.launch.remote!)).toEqual(['-t', 'me@devbox', 'claude', '--model', "'opus 4'"]);
    expect(claude!.remoteHooks).toBe(true);
    expect(codex!.launch).toMatchObject({ agent: 'codex', remote: { host: '10.0.0.5' } });
    expect(sshArgv(codex!.launch.remote!)).toEqual(['-t', '-p', '2222', '-i', '~/.ssh/dev key', 'me@10.0.0.5', 'codex']);
    // The workspace's choice for every tile, unless the tile says otherwise.
    expect(codex!.remoteHooks).toBe(false);
    expect(shell!.launch).toMatchObject({ agent: 'shell', remote: { host: 'devbox' } });
    // A command stays one line for the remote shell.
    expect(command!.launch).toMatchObject({ agent: 'command', file: 'ssh' });
    expect(sshArgv(command!.launch.remote!)).toEqual(['-t', 'devbox', 'cd proj && npm test']);
  });

  it('passes every argument on exactly, quotes and backslashes too', () => {
    const args = ["it's", 'a "b"', 'c\\d', '$HOME'];
    const text = JSON.stringify({ tiles: [{ agent: 'claude', args }, { agent: 'claude', args: ["it's", 'fix the failing test?', '=x'], remote: 'devbox' }] });
    const result = parseWorkspace(text, join(folder(), 'belltower.json'), 'belltower.json');
    if (!result.ok) throw new Error(result.errors.join('\n'));
    expect(parseSpec(result.workspace.tiles[0]!.spec, {}).args).toEqual(args);
    const remote = parseSpec(result.workspace.tiles[1]!.spec, {});
    // Still a Claude tile (its session id, resume and hooks added), with its arguments as given.
    expect(remote.agent).toBe('claude');
    expect(remote.remote?.program?.args).toEqual(["it's", 'fix the failing test?', '=x']);
  });

  it('refuses a "remote" that is not a place to log in, and remote options on a local tile', () => {
    expect(errorsOf('{ "tiles": [ { "agent": "claude", "remote": "-p" } ] }')[0]).toMatch(/^belltower\.json:1: tiles\[0\]\.remote: .*-p needs a value/);
    expect(errorsOf('{ "tiles": [ { "agent": "claude", "remote": "devbox claude" } ] }')[0]).toMatch(/tiles\[0\]\.remote: "devbox claude" has more after its host/);
    expect(errorsOf('{ "tiles": [ { "agent": "claude", "remote": "me@\'devbox" } ] }')[0]).toMatch(/tiles\[0\]\.remote: unbalanced/);
    expect(errorsOf('{ "tiles": [ { "agent": "claude", "remote": "devbox", "cwd": "." } ] }')[0]).toMatch(/tiles\[0\]\.cwd: a remote tile starts in its login folder/);
    expect(errorsOf('{ "tiles": [ { "agent": "claude", "remoteHooks": true } ] }')[0]).toMatch(/tiles\[0\]\.remoteHooks: only a tile that runs over ssh/);
  });

  it('says plainly when the file is missing or not JSON', () => {
    const base = folder();
    expect(loadWorkspace(join(base, 'nope.json'), 'nope.json')).toEqual({ ok: false, errors: ['nope.json: no such file'] });
    writeFileSync(join(base, 'bad.json'), '{ "tiles": [ }');
    expect(loadWorkspace(join(base, 'bad.json'), 'bad.json')).toEqual({ ok: false, errors: ['bad.json:1: unexpected "}"'] });
  });

  it("init's example is itself a valid workspace", () => {
    const base = folder();
    for (const found of [[], ['claude', 'codex']]) {
      const result = parseWorkspace(exampleWorkspace(found), join(base, 'belltower.json'), 'belltower.json');
      expect(result.ok).toBe(true);
      if (result.ok) expect(result.workspace.tiles.map((t) => t.spec)).toEqual([...found, 'shell']);
    }
  });
});
