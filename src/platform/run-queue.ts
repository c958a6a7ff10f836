/**
 * At most `limit` jobs at a time, the rest waiting in the order they came, at most `maxWaiting` of
 * them: what many tiles share so that their background work (git counting each tile's changes)
 * never runs twenty processes at once on a two-core machine.
 */
export class RunQueueFull extends Error {
  override name = 'RunQueueFull';
}

export class RunQueue {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly limit: number,
    private readonly maxWaiting: number,
  ) {}

  /** Runs `job` once a place is free; refused (RunQueueFull) when `maxWaiting` already wait. */
  async run<T>(job: () => Promise<T>): Promise<T> {
    if (this.running >= this.limit) {
      if (this.waiting.length >= this.maxWaiting) throw new RunQueueFull(`${this.maxWaiting} jobs already wait`);
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.running++;
    }
    try {
      return await job();
    } finally {
      // The place goes straight to the next in line (running stays counted for it).
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }

  get busy(): number {
    return this.running;
  }

  get queued(): number {
    return this.waiting.length;
  }
}
