/** Banners on the screen, read right after each chunk's parse (only when a row changed). */
import { RowWatcher } from '../session/row-watcher.js';
import type { RowSource } from '../session/row-watcher.js';
import { BannerScanner } from '../sources/banner.js';

export function createBannerReader(screen: RowSource): () => string[] {
  const watcher = new RowWatcher(screen);
  const scanner = new BannerScanner();
  return () => {
    if (watcher.changed().length === 0) return [];
    return scanner.scan(watcher.rows.map((text) => ({ text }))).flatMap((signal) => (signal.type === 'banner' ? [signal.text] : []));
  };
}
