/**
 * No descriptor of belltower's may reach a program it starts (docs/security.md, "Tile isolation").
 *
 * Node opens its own files, sockets and pipes close-on-exec, but node-pty's pty masters are not
 * (Linux forkpty), and neither is anything belltower inherited from whoever started it. A tile
 * that held another tile's master could type into it — answer its permission prompt, send it a
 * prompt — and a master held elsewhere keeps its tile from hanging up when belltower dies. So:
 * every descriptor above stderr that belltower inherited is marked close-on-exec once, before the
 * first tile starts, and each pty master right after it is opened, before anything else can
 * start a program. (macOS: node-pty starts every program with POSIX_SPAWN_CLOEXEC_DEFAULT
 * already; the marks are kept there too, for belltower's own children.)
 *
 * The one system call this needs, fcntl(F_SETFD), is a tiny native addon (`native/cloexec.c`,
 * built by `npm install` like node-pty).
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';

interface CloexecAddon {
  /** False when `fd` is not open (nothing to leak); throws on any other failure. */
  setCloexec(fd: number): boolean;
  /** A duplicate of `fd` above stderr, close-on-exec from the start; -1 when none was made. */
  dupCloexec?(fd: number): number;
}

export class CloseOnExecError extends Error {
  override name = 'CloseOnExecError';
}

let addon: CloexecAddon | null | undefined;

function load(): CloexecAddon | null {
  if (addon !== undefined) return addon;
  if (process.platform === 'win32') return (addon = null); // handles are not inherited unless asked
  const require = createRequire(import.meta.url);
  // From src/platform (vitest) and from dist/platform (the built CLI) alike.
  try {
    addon = require('../../build/Release/cloexec.node') as CloexecAddon;
  } catch (error) {
    throw new CloseOnExecError(
      `belltower's native part (build/Release/cloexec.node) is missing or broken (${(error as Error).message.split('\n')[0]}); ` +
        'run `npm rebuild` in the belltower folder (it needs python3, make and a C compiler, as node-pty does)',
    );
  }
  return addon;
}

let inheritedMarked = false;

/** A close-on-exec duplicate of `fd` for another thread to hold: it stays this open file until
 * that thread closes it, whatever the main thread closes meanwhile. Null where it cannot be made
 * (Windows, an addon built before it had the call, `fd` not open, no descriptor left). */
export function duplicateCloseOnExec(fd: number): number | null {
  const copy = load()?.dupCloexec?.(fd);
  return typeof copy === 'number' && copy > 2 ? copy : null;
}

/** Mark `fd` close-on-exec. */
export function closeOnExec(fd: number): void {
  load()?.setCloexec(fd);
}

/** Every open descriptor above stderr marked close-on-exec, once per process (those belltower
 * inherited; its own are already). Linux and macOS list them in /proc/self/fd and /dev/fd. */
export function closeInheritedOnExec(): void {
  if (inheritedMarked) return;
  const native = load();
  inheritedMarked = true;
  if (!native) return;
  let names: string[];
  try {
    names = fs.readdirSync(process.platform === 'linux' ? '/proc/self/fd' : '/dev/fd');
  } catch {
    return; // no fd listing (a chroot without /proc): node-pty's own masters are still marked
  }
  for (const name of names) {
    const fd = Number(name);
    if (Number.isInteger(fd) && fd > 2) native.setCloexec(fd);
  }
}
