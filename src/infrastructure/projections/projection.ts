/**
 * What a read model declares: the events it applies, the collections it owns
 * and the indexes it needs. `apply` must be idempotent (see
 * src/projections/support/apply-once.ts): a replay or a redelivery of an
 * event must not change the result.
 */
import type { RecordedEvent } from '../event-store/event-store.port';
import type { BulkOperation, IndexSpec, ReadStore } from '../read-store/read-store.port';

export interface WriteOptions {
  /**
   * An upsert that clashes on `_id` means "this event was already applied"
   * (the position guard of applyOnce filtered the document out): not an error.
   */
  duplicateIdMeansApplied?: boolean;
}

/**
 * How projections write: operations are queued and applied when the batch of
 * events ends, in bulk (one unordered bulkWrite per round, where a round holds
 * at most one operation per document, so each document still sees its
 * operations in event order). Reading through `reads` first applies what is
 * queued, so a projection always reads its own writes.
 */
export interface ProjectionWriter {
  write(collection: string, operation: BulkOperation, options?: WriteOptions): void;
  readonly reads: ReadStore;
}

export interface ProjectionDefinition {
  /** stable name; also the checkpoint's name */
  name: string;
  /** bump when `apply` changes meaning: the read model is dropped and rebuilt at start */
  version: number;
  /** event types `apply` is called for; other events only move the checkpoint */
  eventTypes: readonly string[];
  /** collections the projection owns (dropped on rebuild) */
  collections: readonly string[];
  indexes?: readonly { collection: string; spec: IndexSpec }[];
  apply(event: RecordedEvent, writer: ProjectionWriter): void | Promise<void>;
}
