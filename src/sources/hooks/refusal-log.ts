/**
 * Log lines about refused hook requests, at most one a minute: anyone on the machine can reach the
 * hook port, and 20k refused requests once wrote 3 MB to the log. The first refusal is logged at
 * once; later ones are counted and reported when a minute has passed. Time is an input.
 */
import type { Logger } from '../../platform/logger.js';

export class RefusalLog {
  private windowStart: number | null = null;
  private count = 0;

  constructor(
    private readonly logger: Logger,
    private readonly now: () => number,
    private readonly windowMs = 60_000,
  ) {}

  refused(why: string): void {
    const t = this.now();
    if (this.windowStart === null) {
      this.windowStart = t;
      this.count = 0;
      this.logger('info', 'hook server: refused a request without a valid token; more are counted once a minute', { why });
      return;
    }
    this.count++;
    if (t - this.windowStart < this.windowMs) return;
    this.logger('info', `hook server: refused ${this.count} requests without a valid token in ${Math.round((t - this.windowStart) / 1000)} s`, { last: why });
    this.windowStart = t;
    this.count = 0;
  }
}
