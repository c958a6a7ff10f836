/**
 * `belltower trust [FILE]`: show what a workspace file starts and trust this content of it, so
 * that `belltower` (and `run --headless --config FILE`) start it without asking — until it
 * changes. `--revoke` forgets the yes; `--list` shows every file trusted and whether it still
 * holds what was trusted.
 */
import fs from 'node:fs';
import path from 'node:path';
import { belltowerDirs } from '../platform/state-dir.js';
import { printable } from '../platform/printable.js';
import { findProgram } from '../session/launch-check.js';
import { readTrust, recordTrust, revokeTrust, trustFilePath, trustStatus } from '../workspace/trust-store.js';
import { loadWorkspace, WORKSPACE_FILE } from '../workspace/workspace-file.js';
import { readWorkspaceFile } from '../workspace/workspace-read.js';
import { summarizeWorkspace } from '../workspace/workspace-summary.js';
import { EXIT } from '../platform/exit-codes.js';
import type { Output } from './output.js';

export interface TrustFlags {
  revoke?: boolean;
  list?: boolean;
}

export function trustCommand(file: string | undefined, flags: TrustFlags, out: Output, cwd = process.cwd(), env: NodeJS.ProcessEnv = process.env): number {
  const record = trustFilePath(belltowerDirs({ env }).state);
  if (flags.list) {
    if (file !== undefined || flags.revoke) {
      out.error('belltower trust: --list takes no FILE and no --revoke');
      return EXIT.usage;
    }
    return list(record, out);
  }
  const shown = file ?? WORKSPACE_FILE;
  const abs = path.resolve(cwd, shown);
  if (flags.revoke) {
    let real = abs;
    try {
      real = fs.realpathSync(abs);
    } catch {
      // gone or unreadable: forget it under the name given
    }
    try {
      const had = revokeTrust(record, real);
      out.line(had ? `${printable(shown)} is no longer trusted: belltower asks before it starts it again` : `${printable(shown)} was not trusted`);
      return EXIT.ok;
    } catch (error) {
      out.error(`belltower trust: ${(error as Error).message}`);
      return EXIT.usage;
    }
  }
  const loaded = loadWorkspace(abs, shown);
  if (!loaded.ok) {
    for (const error of loaded.errors) out.error(`belltower: ${error}`);
    out.error('belltower: not trusted: fix the workspace file first');
    return EXIT.usage;
  }
  const { workspace } = loaded;
  for (const line of summarizeWorkspace(workspace, shown, { env, findProgram })) out.line(line);
  try {
    const { note } = recordTrust(record, workspace.realPath!, workspace.sha256!);
    if (note) out.error(`belltower: ${note}`);
  } catch (error) {
    out.error(`belltower trust: cannot remember it: ${(error as Error).message}`);
    return EXIT.failure;
  }
  out.line(`trusted: \`belltower\` starts ${printable(shown)} without asking until the file changes (\`belltower trust --revoke ${printable(shown)}\` undoes it)`);
  return EXIT.ok;
}

function list(record: string, out: Output): number {
  const read = readTrust(record);
  if (!read.ok) {
    out.error(`belltower trust: ${read.error}`);
    return EXIT.usage;
  }
  if (read.record.size === 0) {
    out.line('no workspace file is trusted');
    return EXIT.ok;
  }
  for (const [file, entry] of read.record) {
    const now = readWorkspaceFile(file);
    const state = !now.ok ? (/no such file/.test(now.error) ? 'gone' : 'cannot be read') : trustStatus(read.record, file, now.file.sha256).kind === 'trusted' ? 'trusted' : 'changed since: asks again';
    out.line(`${entry.trustedAt.slice(0, 16).replace('T', ' ')}  ${state.padEnd(24)} ${printable(file)}`);
  }
  return EXIT.ok;
}
