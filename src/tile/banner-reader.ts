/** Banners on the rows a chunk changed, read right after the chunk's parse. */
import { RowWatcher } from '../session/row-watcher.js';
import type { RowSource } from '../session/row-watcher.js';
import { BannerScanner } from '../sources/banner.js';

export function createBannerReader(screen: RowSource): () => string[] {
  const watcher = new RowWatcher(screen);
  const scanner = new BannerScanner();
  return () => scanner.scan(watcher.changed()).flatMap((signal) => (signal.type === 'banner' ? [signal.text] : []));
}
