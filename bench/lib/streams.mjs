/** Test output for the ingest benchmarks, written to a file once per run. */
import { writeFileSync } from 'node:fs';

const MB = 1024 * 1024;

// What agents and builds print: plain log lines, and lines with 24-bit and 256 colours, SGR
// attributes, CJK and an emoji. Lines end in CR LF so that no tty translation (stty -onlcr) is needed.
const PLAIN = (i) => `${i} the quick brown fox jumps over the lazy dog; lorem ipsum dolor sit amet, consectetur\r\n`;
const AGENT = (i) =>
  `\x1b[2m${i}\x1b[0m \x1b[38;2;215;119;87m✻\x1b[0m \x1b[1mWorking\x1b[0m… \x1b[38;5;246m(5s · ↓ 23 tokens)\x1b[0m ` +
  `漢字 😀 \x1b[32m+ added line\x1b[0m \x1b[31m- removed\x1b[0m \x1b[7m inverse \x1b[0m\x1b[K\r\n`;

/** Writes about `mb` MB of alternating plain and agent lines; returns its size and UTF-16 length. */
export function writeMixedStream(file, mb) {
  const parts = [];
  let bytes = 0;
  let chars = 0;
  for (let i = 0; bytes < mb * MB; i++) {
    const line = i % 2 === 0 ? PLAIN(i) : AGENT(i);
    parts.push(line);
    bytes += Buffer.byteLength(line);
    chars += line.length;
  }
  writeFileSync(file, parts.join(''));
  return { file, bytes, chars };
}
