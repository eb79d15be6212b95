/**
 * The timer of a sweeper: runs its pass every so often on an unref'd timer
 * (it never holds the process open), one pass at a time (a pass asked for
 * while one runs shares that one), and on shutdown stops the timer and waits
 * for the pass in flight. A pass that fails is logged as a warning and
 * answers `failed` (the next pass tries again).
 */
import type { Logger } from '@nestjs/common';

export class SweepTimer<T> {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<T> | null = null;

  constructor(
    private readonly pass: () => Promise<T>,
    private readonly failure: { logger: Logger; what: string; failed: T },
  ) {}

  /** A pass now, or the one in flight. */
  run(): Promise<T> {
    this.running ??= this.pass()
      .catch((error: unknown) => {
        this.failure.logger.warn(`${this.failure.what} failed: ${error instanceof Error ? error.message : String(error)}`);
        return this.failure.failed;
      })
      .finally(() => (this.running = null));
    return this.running;
  }

  every(intervalMs: number): void {
    this.timer = setInterval(() => void this.run(), intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running?.catch(() => undefined);
  }
}
