/**
 * What every agent injection shares: a hook session on the server and a private folder for the
 * tile, built together, rolled back together if building fails, and disposed together.
 */
import type { HookListener, HookRegistration, HookServer } from '../sources/hooks/hook-server.js';
import { createSessionFolder, type SessionFolder } from './session-folder.js';

export interface TileHooksInput {
  /** Parent of the per-tile folders (use belltowerDirs().runtime). */
  stateDir: string;
  server: HookServer;
  tileKey: string;
  /** Receives this tile's hook calls. */
  onHook: HookListener;
}

export interface TileHooks {
  registration: HookRegistration;
  folder: SessionFolder;
}

/** Runs `build` with a fresh registration and folder; the result gains an idempotent dispose(). */
export function withTileHooks<T extends object>(input: TileHooksInput, build: (tile: TileHooks) => T): T & { dispose(): void } {
  const registration = input.server.register(input.tileKey, input.onHook);
  let folder: SessionFolder | undefined;
  const release = () => {
    input.server.unregister(input.tileKey);
    folder?.dispose();
  };
  try {
    folder = createSessionFolder(input.stateDir, input.tileKey);
    const built = build({ registration, folder });
    let disposed = false;
    return {
      ...built,
      dispose() {
        if (disposed) return;
        disposed = true;
        release();
      },
    };
  } catch (error) {
    release();
    throw error;
  }
}
