/**
 * A blocked tile's request can change while its verdict does not: an agent that names what it
 * asks only in its dialog (Codex) draws it a moment after saying it is blocked, and may replace it
 * with another. The grid binds a key to the request it showed, so it must show the new one at
 * once: after each parsed chunk, the request's id is compared with the last one seen, and a change
 * is told (the tile's info changed). Nothing is read while the tile is not blocked.
 */
export function requestWatch(currentId: () => string | undefined, changed: () => void): () => void {
  let last: string | undefined;
  return () => {
    const id = currentId();
    if (id === last) return;
    last = id;
    if (id !== undefined) changed();
  };
}
