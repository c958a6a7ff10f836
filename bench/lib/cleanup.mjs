/**
 * What the benchmark started and must end however it ends — an error, an item past its deadline,
 * Ctrl-C: grids, tmux servers, helper processes, temporary folders. Each registers a synchronous
 * undo here when it starts and drops it when it ends on its own; what is left runs on exit.
 */
const undos = new Set();

process.on('exit', () => {
  for (const undo of [...undos].reverse()) {
    try {
      undo();
    } catch {}
  }
});

/** Runs `undo` when the process exits, unless the returned function is called first. */
export function atExit(undo) {
  undos.add(undo);
  return () => undos.delete(undo);
}
