/**
 * What a read model declares: the events it applies, the collections it owns
 * and the indexes it needs. `apply` must be idempotent (see
 * src/projections/support/apply-once.ts): a replay or a redelivery of an
 * event must not change the result.
 */
import type { RecordedEvent } from '../event-store/event-store.port';
import type { IndexSpec, ReadStore } from './read-store.port';

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
  apply(event: RecordedEvent, store: ReadStore): Promise<void>;
}
