/**
 * When a set of tiles has ended: every tile's exit reported and no tile being added or restarted
 * (a restart ends the old run first, which alone looked like every tile had exited: issue 28).
 * Those waiting hear it once it has come — for the tiles of the set at that moment, not those it
 * had when they asked.
 */
export class AllExited {
  /** Adds and restarts under way. */
  private launching = 0;
  private readonly waiters: (() => void)[] = [];

  /** `allHaveExited`: every tile of the set now has reported its exit. */
  constructor(private readonly allHaveExited: () => boolean) {}

  /** Run a launch (an add, a restart): the set has not ended while it is under way. */
  async during<T>(launch: () => Promise<T>): Promise<T> {
    this.launching += 1;
    try {
      return await launch();
    } finally {
      this.launching -= 1;
      this.check();
    }
  }

  /** Tell those waiting, when the end has come (call it when a tile exits or leaves the set). */
  check(): void {
    if (this.launching > 0 || !this.allHaveExited()) return;
    for (const waiter of this.waiters.splice(0)) waiter();
  }

  wait(): Promise<void> {
    return new Promise((resolve) => {
      this.waiters.push(resolve);
      this.check();
    });
  }
}
