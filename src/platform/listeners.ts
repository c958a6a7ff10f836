/**
 * The listeners of one kind of event: `add` returns what removes it again, `emit` calls each in
 * the order they came. What every event source here (a terminal, a client's link) is built on.
 */
export class Listeners<Args extends unknown[]> {
  private readonly set = new Set<(...args: Args) => void>();

  add(listener: (...args: Args) => void): () => void {
    this.set.add(listener);
    return () => this.set.delete(listener);
  }

  emit(...args: Args): void {
    for (const listener of this.set) listener(...args);
  }
}
