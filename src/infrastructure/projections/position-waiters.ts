/**
 * Pending "tell me when these projections reach position P" requests.
 * Re-checked whenever a projection moves; each waiter has its own deadline.
 */
type PositionOf = (name: string) => number;

interface Waiter {
  reached(): boolean;
  settle(reached: boolean): void;
}

export class PositionWaiters {
  private readonly pending = new Set<Waiter>();

  waitFor(names: readonly string[], position: number, timeoutMs: number, positionOf: PositionOf): Promise<boolean> {
    const reached = () => names.every((name) => positionOf(name) >= position);
    if (reached()) return Promise.resolve(true);
    if (timeoutMs <= 0) return Promise.resolve(false);
    return new Promise<boolean>((resolve) => {
      const waiter: Waiter = {
        reached,
        settle: (ok) => {
          clearTimeout(timer);
          this.pending.delete(waiter);
          resolve(ok);
        },
      };
      const timer = setTimeout(() => waiter.settle(false), timeoutMs);
      this.pending.add(waiter);
    });
  }

  notify(): void {
    for (const waiter of [...this.pending]) if (waiter.reached()) waiter.settle(true);
  }

  cancelAll(): void {
    for (const waiter of [...this.pending]) waiter.settle(false);
  }
}
