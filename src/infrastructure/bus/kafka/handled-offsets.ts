/**
 * The handled offsets of one fetched batch (one partition) on their way to
 * the broker. Only handled messages are ever resolved or committed.
 *
 * - Resolving (kafkajs's resolveOffset, which parses and formats the offset
 *   as a 64-bit number) happens when a commit or a heartbeat needs it and when
 *   the batch ends, not after every message: resolving the last handled
 *   offset resolves every one before it.
 * - A commit is started once `threshold` messages were handled since the
 *   previous one or `intervalMs` passed, and is not waited for: the handler of
 *   the next message runs while the commit travels. One commit is in flight at
 *   a time; one that became due meanwhile starts as soon as it is done.
 * - `settle()`, when the batch ends, resolves what was handled (kafkajs's own
 *   commit after the batch then includes it) and waits for the commit in
 *   flight, so commits never overlap kafkajs's; a commit that failed is
 *   rethrown by `throwIfFailed()`, as an awaited commit would have thrown.
 */
import type { EachBatchPayload } from 'kafkajs';

export type CommitPayload = Pick<EachBatchPayload, 'resolveOffset' | 'commitOffsetsIfNecessary' | 'uncommittedOffsets'>;

export class HandledOffsets {
  private lastHandled: string | null = null;
  private lastResolved: string | null = null;
  private sinceCommit = 0;
  private commitDue: number;
  private committing: Promise<void> | null = null;
  private settled = false;
  private failure: { error: unknown } | null = null;

  constructor(
    private readonly payload: CommitPayload,
    private readonly threshold: number,
    private readonly intervalMs: number,
    private readonly clock: () => number = Date.now,
  ) {
    // kafkajs committed at the end of the previous batch: nothing is pending
    this.commitDue = clock() + intervalMs;
  }

  /** A commit of this batch failed: the batch should end (settle, then throwIfFailed). */
  get failed(): boolean {
    return this.failure !== null;
  }

  /** The message at `offset` was handled (offsets arrive in order); `now` is the clock's time, if known. */
  handled(offset: string, now = this.clock()): void {
    this.lastHandled = offset;
    if (++this.sinceCommit >= this.threshold || now >= this.commitDue) this.commit(now);
  }

  /** Tells kafkajs what was handled, so that any commit it makes (a rebalance, the batch's end) includes it. */
  resolve(): void {
    if (this.lastHandled !== this.lastResolved && this.lastHandled !== null) {
      this.payload.resolveOffset(this.lastHandled);
      this.lastResolved = this.lastHandled;
    }
  }

  /** The batch ends: resolve what was handled and wait for the commit in flight (never rejects). */
  async settle(): Promise<void> {
    this.settled = true;
    this.resolve();
    while (this.committing) await this.committing;
  }

  throwIfFailed(): void {
    if (this.failure) throw this.failure.error;
  }

  private commit(now: number): void {
    if (this.committing || this.settled || this.failure) return; // a due commit starts when the one in flight is done
    this.resolve();
    this.sinceCommit = 0;
    this.commitDue = now + this.intervalMs;
    // with offsets, kafkajs commits them now (every partition's resolved offsets: all handled)
    this.committing = this.payload.commitOffsetsIfNecessary(this.payload.uncommittedOffsets()).then(
      () => {
        this.committing = null;
        const done = this.clock();
        if (this.sinceCommit >= this.threshold || (this.sinceCommit > 0 && done >= this.commitDue)) this.commit(done);
      },
      (error: unknown) => {
        this.committing = null;
        this.failure = { error };
      },
    );
  }
}
