/**
 * The event store port: the only source of truth. Every adapter (SQLite,
 * EventStoreDB) passes test/contract/event-store.contract.ts unchanged.
 *
 * Revisions are 0-based per stream (the first event of a stream has revision 0).
 * Global positions are positive, strictly increasing numbers in commit order;
 * position 0 means "before the first event" and is where a new subscription
 * or checkpoint starts. Positions are store-specific (EventStoreDB's are
 * sparse log offsets): a checkpoint is only meaningful for the store that
 * produced it. readAll without maxCount walks the whole log.
 */

import type { ReadSealedOptions, SealedEvent } from './hash-chain';

export type JsonObject = { [key: string]: unknown };

/** What the writer expects the stream to look like before an append. */
export type ExpectedRevision = 'no_stream' | 'stream_exists' | 'any' | number;

export const NO_STREAM = 'no_stream' as const;
export const STREAM_EXISTS = 'stream_exists' as const;
export const ANY = 'any' as const;

export interface EventMetadata {
  /**
   * A fresh UUID per event. Re-appending a stored id is not portable: SQLite
   * refuses it, EventStoreDB treats it as an idempotent retry. Never rely on either.
   */
  eventId: string;
  correlationId: string;
  causationId: string | null;
  /** user id, or `system:<component>` for events issued by the service itself */
  actor: string;
  nodeId: string;
  /** ISO 8601 UTC timestamp of the decision that produced the event */
  occurredAt: string;
  schemaVersion: number;
  [extra: string]: unknown;
}

export interface NewEvent {
  type: string;
  data: JsonObject;
  metadata: EventMetadata;
}

export interface RecordedEvent<D extends JsonObject = JsonObject> {
  streamId: string;
  type: string;
  /** 0-based revision of this event inside its stream */
  revision: number;
  /** position in the global log ($all); > 0 */
  position: number;
  data: D;
  metadata: EventMetadata;
  /** ISO 8601 time the store committed the event */
  recordedAt: string;
}

export interface AppendResult {
  /** revision of the last appended event (the stream's new current revision) */
  nextExpectedRevision: number;
  /** global position of the last appended event */
  position: number;
}

export type Direction = 'forwards' | 'backwards';

export interface ReadStreamOptions {
  direction?: Direction;
  /** inclusive; default: start when forwards, end when backwards */
  fromRevision?: number | 'start' | 'end';
  maxCount?: number;
}

export interface ReadAllOptions {
  direction?: Direction;
  /**
   * Forwards: events with position strictly greater than this (default 0).
   * Backwards: events with position strictly smaller than this (default: end).
   */
  after?: number;
  before?: number;
  maxCount?: number;
  /**
   * Only events of these types (a projection's catch-up reads what it
   * handles); the others are skipped, and a page holds up to maxCount
   * matching events.
   */
  eventTypes?: readonly string[];
  /**
   * Only events whose metadata has these values (the audit's "who did
   * what": by actor, by correlation id); a page holds up to maxCount
   * matching events.
   */
  where?: MetadataFilter;
}

export interface MetadataFilter {
  actor?: string;
  correlationId?: string;
}

/** Whether an event's metadata matches a filter (adapters that filter in code). */
export function matchesMetadata(metadata: EventMetadata, where: MetadataFilter | undefined): boolean {
  if (!where) return true;
  return (where.actor === undefined || metadata.actor === where.actor) && (where.correlationId === undefined || metadata.correlationId === where.correlationId);
}

export interface SubscribeToAllOptions {
  /** deliver events with position strictly greater than this; 0 = from the start */
  fromPosition: number;
  /** upper bound on events handed to one handler call */
  maxBatchSize?: number;
}

/** Called with consecutive events in global order; the next batch waits for the returned promise. */
export type BatchHandler = (events: RecordedEvent[]) => Promise<void>;

export interface Subscription {
  /** stops delivery; resolves once the handler in flight (if any) has returned */
  stop(): Promise<void>;
  /** resolves (or rejects with the handler's error) when the subscription ends */
  readonly done: Promise<void>;
}

export interface EventStore {
  append(streamId: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult>;
  /** A missing stream reads as an empty array. */
  readStream(streamId: string, options?: ReadStreamOptions): Promise<RecordedEvent[]>;
  readAll(options?: ReadAllOptions): Promise<RecordedEvent[]>;
  /** Catch-up from `fromPosition`, then live. At-least-once, in global order. */
  subscribeToAll(options: SubscribeToAllOptions, handler: BatchHandler): Subscription;
  /** Position of the last committed event (0 when the store is empty). */
  headPosition(): Promise<number>;
  /**
   * The log as sealed (hash-chain.ts): events after `after` in global order,
   * their data and metadata as the texts that were hashed, with their seals.
   * Not upcast: verification needs what was written.
   */
  readSealed(options: ReadSealedOptions): Promise<SealedEvent[]>;
  close(): Promise<void>;
}

/** Raised when the stream's actual revision does not match the expected one. */
export class WrongExpectedRevisionError extends Error {
  constructor(
    readonly streamId: string,
    readonly expected: ExpectedRevision,
    /** current revision, or 'no_stream' when the stream does not exist */
    readonly actual: number | 'no_stream',
  ) {
    super(
      `Wrong expected revision on stream ${streamId}: expected ${String(expected)}, actual ${String(actual)}`,
    );
    this.name = 'WrongExpectedRevisionError';
  }
}

export const EVENT_STORE = Symbol('EVENT_STORE');

/** `<category>-<id>`: the category is everything before the first '-'. */
export function streamCategory(streamId: string): string {
  const dash = streamId.indexOf('-');
  return dash < 0 ? streamId : streamId.slice(0, dash);
}
