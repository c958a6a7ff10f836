/** What the control server needs from whatever shows the tiles (headless or the UI). */
import type { WhyEntry } from '../verdict/state.js';
import type { AnswerChoice, AnswerRefusal, TileInfo } from './protocol.js';

export interface ControlTarget {
  tileInfos(): TileInfo[];
  /** Type text into a tile; an error message when the tile cannot take it. */
  send(tile: TileInfo, text: string, enter: boolean): string | null;
  /** The tile's last signals and what the engine made of each (newest last). */
  why(tile: TileInfo): WhyEntry[];
  /** Called after every verdict change of any tile. */
  onChange(listener: (tile: TileInfo) => void): () => void;
  /** Start a tile at run time (SPEC as on the command line); its info, or what is wrong. */
  addTile?(spec: string, options: { name?: string; cwd?: string; worktree?: { branch?: string; base?: string } }): Promise<TileInfo | string>;
  /** End a tile and drop it; an error message when it cannot. */
  closeTile?(tile: TileInfo): Promise<string | null>;
  /** Run an exited tile again in the same place. */
  restartTile?(tile: TileInfo): Promise<TileInfo | string>;
  renameTile?(tile: TileInfo, name: string): TileInfo | string;
  /** Answer the tile's permission request (tile/answer-request.ts): the option it picked and the
   * tile once the request went, or why nothing was sent or it did not take. */
  answer?(tile: TileInfo, answer: AnswerChoice, options: { request?: string; message?: string }): Promise<AnswerOutcome>;
}

export type AnswerOutcome = { ok: true; answered: string; tile: TileInfo } | { ok: false; refused: AnswerRefusal; error: string };

/** A tile by its number (1-based, as shown) or its name. */
export function findTile(tiles: TileInfo[], key: string): TileInfo | undefined {
  if (/^\d+$/.test(key)) return tiles.find((tile) => tile.id === Number(key));
  return tiles.find((tile) => tile.name === key);
}
