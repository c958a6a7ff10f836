/**
 * Banners on the rows a chunk changed, read right after the chunk's parse. Rows are compared with
 * what this reader saw last, not by the screen's generation: the generation moves once per batch
 * of chunks, and a chunk's own parse callback runs before it does.
 */
import { BannerScanner } from '../sources/banner.js';

export interface RowTexts {
  readonly rows: number;
  rowText(y: number): string;
}

export function createBannerReader(screen: RowTexts): () => string[] {
  const scanner = new BannerScanner();
  let last: string[] = [];
  return () => {
    const changed: { text: string }[] = [];
    const now: string[] = [];
    for (let y = 0; y < screen.rows; y++) {
      const text = screen.rowText(y);
      now.push(text);
      if (last[y] !== text) changed.push({ text });
    }
    last = now;
    return scanner.scan(changed).flatMap((signal) => (signal.type === 'banner' ? [signal.text] : []));
  };
}
