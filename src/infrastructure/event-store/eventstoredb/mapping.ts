/**
 * Pure translation between the event store port and @eventstore/db-client
 * (EventStoreDB / KurrentDB over gRPC). No I/O here: the adapter
 * (eventstoredb-event-store.ts) stays a thin loop around these functions, and
 * mapping.spec.ts covers them without a server.
 *
 * Positions: the port uses one number per event. EventStoreDB's $all position
 * is a pair {commit, prepare}; for every append through the gRPC API (no
 * explicit transactions) the two are equal, so the port position is the commit
 * position and a port position n reads back as {commit: n, prepare: n}.
 */
import { createHash } from 'node:crypto';
import {
  ANY as CLIENT_ANY,
  BACKWARDS,
  END,
  ErrorType,
  FORWARDS,
  NO_STREAM as CLIENT_NO_STREAM,
  START,
  STREAM_EXISTS as CLIENT_STREAM_EXISTS,
  jsonEvent,
  type AppendExpectedRevision,
  type AppendResult as ClientAppendResult,
  type CurrentRevision,
  type JSONEventData,
  type Position,
  type ReadPosition,
  type ReadRevision,
  type ReadStreamOptions as ClientReadStreamOptions,
} from '@eventstore/db-client';
import {
  AppendResult,
  EventMetadata,
  ExpectedRevision,
  JsonObject,
  NewEvent,
  ReadAllOptions,
  ReadStreamOptions,
  RecordedEvent,
  WrongExpectedRevisionError,
} from '../event-store.port';
import { sealOf, type Seal, type SealedEvent } from '../hash-chain';

/** What the adapter needs of a client event (a ResolvedEvent's `event`). */
export interface ClientRecordedEvent {
  streamId: string;
  id: string;
  type: string;
  revision: bigint;
  created: Date;
  isJson: boolean;
  data: unknown;
  metadata?: unknown;
  position?: Position;
}

/** What the adapter needs of a client ResolvedEvent (stream read, $all read or subscription). */
export interface ClientResolvedEvent {
  event?: ClientRecordedEvent;
  commitPosition?: bigint;
}

/** The fields of the client's WrongExpectedVersionError that the port's error is built from. */
export interface ClientWrongExpectedVersion {
  streamName: string;
  expectedVersion: AppendExpectedRevision;
  actualVersion: CurrentRevision;
}

// ---------------------------------------------------------------- append

/** Port expected revision → the client's `expectedRevision` option. */
export function toClientExpectedRevision(expected: ExpectedRevision): AppendExpectedRevision {
  switch (expected) {
    case 'no_stream':
      return CLIENT_NO_STREAM;
    case 'stream_exists':
      return CLIENT_STREAM_EXISTS;
    case 'any':
      return CLIENT_ANY;
  }
  if (typeof expected === 'number' && Number.isSafeInteger(expected) && expected >= 0) return BigInt(expected);
  throw new Error(`Invalid expected revision: ${String(expected)}`);
}

/**
 * The client's expected revision → the port's. The server's legacy error
 * metadata carries the old TCP constants (-1 no stream, -2 any, -4 stream exists).
 */
export function fromClientExpectedRevision(expected: AppendExpectedRevision): ExpectedRevision {
  if (typeof expected !== 'bigint') return expected;
  if (expected === -1n) return 'no_stream';
  if (expected === -2n) return 'any';
  if (expected === -4n) return 'stream_exists';
  return toSafeNumber(expected, 'expected revision');
}

/** The client's current revision → the port's `actual` (a negative revision means the stream does not exist). */
export function fromClientCurrentRevision(current: CurrentRevision): number | 'no_stream' {
  if (current === 'no_stream' || current < 0n) return 'no_stream';
  return toSafeNumber(current, 'stream revision');
}

/**
 * The client's WrongExpectedVersionError → the port's WrongExpectedRevisionError.
 * `streamId`/`expected` are what the caller passed to append(): they win over the
 * server's echo, so the port error carries exactly the caller's values.
 */
export function toWrongExpectedRevisionError(
  error: ClientWrongExpectedVersion,
  call?: { streamId: string; expected: ExpectedRevision },
): WrongExpectedRevisionError {
  return new WrongExpectedRevisionError(
    call?.streamId ?? error.streamName,
    call?.expected ?? fromClientExpectedRevision(error.expectedVersion),
    fromClientCurrentRevision(error.actualVersion),
  );
}

export function isWrongExpectedVersionError(error: unknown): error is ClientWrongExpectedVersion & Error {
  return errorType(error) === ErrorType.WRONG_EXPECTED_VERSION;
}

export function isStreamNotFoundError(error: unknown): boolean {
  return errorType(error) === ErrorType.STREAM_NOT_FOUND;
}

const TRANSIENT_TYPES: ReadonlySet<string> = new Set([
  ErrorType.UNAVAILABLE,
  ErrorType.DEADLINE_EXCEEDED,
  ErrorType.TIMEOUT,
  ErrorType.NOT_LEADER,
  ErrorType.CANCELLED,
]);
const TRANSIENT_MESSAGE = /ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT|EAI_AGAIN|RST_STREAM|socket hang up|Failed to discover|No connection established/i;

/**
 * Whether a failed call or a dropped subscription is worth retrying after a
 * pause: the server went away, restarted, lost leadership or timed out. Errors
 * of the request itself (access denied, deleted stream, invalid argument) are not.
 */
export function isTransientError(error: unknown): boolean {
  const type = errorType(error);
  if (type !== undefined && TRANSIENT_TYPES.has(type)) return true;
  if (type !== undefined && type !== ErrorType.UNKNOWN) return false;
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : '';
  return TRANSIENT_MESSAGE.test(message);
}

/** Exponential pause before re-creating a dropped subscription: base, 2·base, 4·base, ... capped at max. */
export function resubscribeDelayMs(attempt: number, baseMs: number, maxMs: number): number {
  const exponent = Math.min(Math.max(attempt - 1, 0), 30);
  return Math.min(baseMs * 2 ** exponent, maxMs);
}

/** Random-looking but fixed namespace for event ids that are not UUIDs (UUID v5, RFC 4122). */
const EVENT_ID_NAMESPACE = '5d0c7a36-3f6e-4b8a-9a55-0f3c8b1e2d47';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * EventStoreDB requires a UUID per event. A UUID eventId is used as is (so the
 * server's idempotent-append check sees the caller's id); any other string maps
 * to the same name-based UUID v5 every time. metadata.eventId keeps the original.
 */
export function toEventUuid(eventId: string): string {
  if (typeof eventId !== 'string' || eventId.length === 0) {
    throw new Error(`Invalid eventId: expected a non-empty string, got ${JSON.stringify(eventId)}`);
  }
  if (UUID.test(eventId)) return eventId.toLowerCase();
  const namespace = Buffer.from(EVENT_ID_NAMESPACE.replace(/-/g, ''), 'hex');
  const hash = createHash('sha1').update(namespace).update(eventId, 'utf8').digest();
  const bytes = hash.subarray(0, 16);
  bytes[6] = (bytes[6] & 0x0f) | 0x50; // version 5
  bytes[8] = (bytes[8] & 0x3f) | 0x80; // RFC 4122 variant
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The metadata key that holds an event's seal (hash-chain.ts) in EventStoreDB. */
export const SEAL_KEY = '$seal';

/**
 * Port NewEvents → sealed client JSON events: each event's metadata gains
 * `$seal: {hash, chain}`, computed over the texts `JSON.stringify` writes for
 * its data and its metadata (without the seal), chained to `prevHash` (the
 * hash of the stream's event before the first one) and `prevChain` (the
 * running hash of the log's newest event). Returns the chain of the last.
 */
export function toSealedJsonEvents(
  streamId: string,
  firstRevision: number,
  events: readonly NewEvent[],
  prevHash: string | null,
  prevChain: string | null,
): { events: JSONEventData[]; chain: string | null } {
  let hash = prevHash;
  let chain = prevChain;
  const sealed = events.map((event, i) => {
    const data = JSON.stringify(event.data);
    const metadata = JSON.stringify(event.metadata);
    const seal = sealOf({ streamId, revision: firstRevision + i, type: event.type, data, metadata }, hash, chain);
    hash = seal.hash;
    chain = seal.chain;
    return jsonEvent({
      id: toEventUuid(event.metadata.eventId),
      type: event.type,
      data: JSON.parse(data) as JsonObject,
      metadata: { ...(JSON.parse(metadata) as JsonObject), [SEAL_KEY]: seal },
    });
  });
  return { events: sealed, chain };
}

/** The seal an event's metadata carries, or null (written before sealing, or by another tool). */
export function sealOfRecorded(resolved: ClientResolvedEvent): Seal | null {
  const event = resolved.event;
  if (!event || event.metadata === undefined) return null;
  const metadata = parseJson(event.metadata, `metadata of event ${event.id} in ${event.streamId}`);
  return readSeal(metadata);
}

function readSeal(metadata: unknown): Seal | null {
  if (metadata === null || typeof metadata !== 'object') return null;
  const seal = (metadata as JsonObject)[SEAL_KEY] as Partial<Seal> | undefined;
  return seal && typeof seal.hash === 'string' && typeof seal.chain === 'string' ? { hash: seal.hash, chain: seal.chain } : null;
}

/**
 * Resolved client event → the port's SealedEvent: data and metadata (its
 * seal taken out) re-serialised with `JSON.stringify`, which gives back the
 * texts that were hashed when the service wrote them. Never throws on a
 * payload: text that is not JSON is verified as it is (and fails).
 */
export function toSealedEvent(resolved: ClientResolvedEvent): SealedEvent {
  const event = resolved.event;
  if (!event) throw new Error('EventStoreDB returned a resolved event without an event (an unresolved link?)');
  const metadata = event.metadata === undefined ? undefined : jsonOrText(event.metadata);
  let seal: Seal | null = null;
  let metadataText: string;
  if (metadata !== null && typeof metadata === 'object') {
    seal = readSeal(metadata);
    const rest = { ...(metadata as JsonObject) };
    delete rest[SEAL_KEY];
    metadataText = JSON.stringify(rest);
  } else {
    metadataText = typeof metadata === 'string' ? metadata : JSON.stringify(metadata ?? null);
  }
  const data = jsonOrText(event.data);
  return {
    streamId: event.streamId,
    revision: toSafeNumber(event.revision, 'stream revision'),
    position: positionOf(resolved),
    eventId: readEventId(metadata) ?? event.id,
    type: event.type,
    data: typeof data === 'string' ? data : JSON.stringify(data),
    metadata: metadataText,
    seal,
  };
}

function readEventId(metadata: unknown): string | null {
  const id = metadata !== null && typeof metadata === 'object' ? (metadata as JsonObject).eventId : undefined;
  return typeof id === 'string' ? id : null;
}

/** A JSON payload as the client gives it (parsed), or the raw text when it is not JSON. */
function jsonOrText(value: unknown): unknown {
  const text = value instanceof Uint8Array ? Buffer.from(value).toString('utf8') : value;
  if (typeof text !== 'string') return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * Client append result → port AppendResult. The append's position is the
 * position of its last event (servers 20.6+ return it for every non-empty append).
 */
export function toAppendResult(result: ClientAppendResult): AppendResult {
  if (result.position === undefined) {
    throw new Error('EventStoreDB returned no position for the append: the server must be 20.6 or later');
  }
  return {
    nextExpectedRevision: toSafeNumber(result.nextExpectedRevision, 'stream revision'),
    position: toPortPosition(result.position),
  };
}

/**
 * The port's expected-revision rule, for the one case the adapter decides
 * itself: an append of no events (nothing is sent to the server).
 */
export function checkExpectedRevision(
  streamId: string,
  expected: ExpectedRevision,
  current: number | 'no_stream',
): void {
  toClientExpectedRevision(expected); // validates
  const ok =
    expected === 'any' ||
    (expected === 'no_stream' && current === 'no_stream') ||
    (expected === 'stream_exists' && current !== 'no_stream') ||
    expected === current;
  if (!ok) throw new WrongExpectedRevisionError(streamId, expected, current);
}

// ---------------------------------------------------------------- positions

/** ulong.MaxValue, what the server sends for "no position known". */
const UNSET_POSITION = 2n ** 64n - 1n;

function isUnsetPosition(value: bigint): boolean {
  return value === UNSET_POSITION || value === -1n;
}

/** A client $all position (or commit position) → port position; throws if it does not fit a safe integer. */
export function toPortPosition(position: Position | bigint): number {
  const commit = typeof position === 'bigint' ? position : position.commit;
  if (isUnsetPosition(commit)) {
    throw new Error(
      'EventStoreDB returned an event without a position: reads of a stream carry positions only on servers 22.6 and later',
    );
  }
  if (commit <= 0n || commit > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new Error(
      `EventStoreDB position ${commit} is outside the port's range (1..${Number.MAX_SAFE_INTEGER}): it cannot be a safe JavaScript integer`,
    );
  }
  return Number(commit);
}

/** Port position → client read position: 0 is the start of $all, n is the event at commit/prepare n. */
export function toClientPosition(position: number): ReadPosition {
  if (!Number.isSafeInteger(position) || position < 0) {
    throw new Error(`Invalid position: expected a safe integer >= 0, got ${position}`);
  }
  if (position === 0) return START;
  const p = BigInt(position);
  return { commit: p, prepare: p };
}

/** The $all position of a resolved client event, as a port position. */
export function positionOf(resolved: ClientResolvedEvent): number {
  const position = resolved.event?.position ?? resolved.commitPosition;
  if (position === undefined) {
    throw new Error(
      `EventStoreDB returned event ${resolved.event?.id ?? '?'} without a position: reads of a stream carry positions only on servers 22.6 and later`,
    );
  }
  return toPortPosition(position);
}

// ---------------------------------------------------------------- recorded events

/** System events: the server's own (`$`-prefixed type, e.g. `$metadata`, `$>` links) or in a `$` stream. */
export function isSystemEvent(event: { streamId: string; type: string }): boolean {
  return event.type.startsWith('$') || event.streamId.startsWith('$');
}

/** Resolved client event → port RecordedEvent. Throws on a missing event or an unreadable payload. */
export function toRecordedEvent(resolved: ClientResolvedEvent): RecordedEvent {
  const event = resolved.event;
  if (!event) throw new Error('EventStoreDB returned a resolved event without an event (an unresolved link?)');
  const recordedAt = event.created instanceof Date ? event.created : new Date(event.created);
  return {
    streamId: event.streamId,
    type: event.type,
    revision: toSafeNumber(event.revision, 'stream revision'),
    position: positionOf(resolved),
    data: parseJson(event.data, `data of event ${event.id} in ${event.streamId}`) as JsonObject,
    metadata: toMetadata(event, recordedAt),
    recordedAt: recordedAt.toISOString(),
  };
}

/**
 * Metadata as written by this service is returned exactly. Events written by
 * other tools may lack it: the port's required fields are then filled from the
 * event itself so that consumers can rely on them.
 */
function toMetadata(event: ClientRecordedEvent, recordedAt: Date): EventMetadata {
  const parsed = event.metadata === undefined ? {} : parseJson(event.metadata, `metadata of event ${event.id} in ${event.streamId}`);
  const metadata = parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as JsonObject) : {};
  const defaults: EventMetadata = {
    eventId: event.id,
    correlationId: event.id,
    causationId: null,
    actor: 'system:unknown',
    nodeId: 'unknown',
    occurredAt: recordedAt.toISOString(),
    schemaVersion: 1,
  };
  if (SEAL_KEY in metadata) {
    const rest = { ...metadata };
    delete rest[SEAL_KEY];
    return withDefaults(rest, defaults);
  }
  return withDefaults(metadata, defaults);
}

function withDefaults(metadata: JsonObject, defaults: EventMetadata): EventMetadata {
  const missing = Object.keys(defaults).filter((key) => !(key in metadata));
  if (missing.length === 0) return metadata as EventMetadata;
  return { ...defaults, ...metadata } as EventMetadata;
}

/** The client parses JSON events itself; binary payloads and JSON it could not parse arrive as bytes/strings. */
function parseJson(value: unknown, what: string): unknown {
  if (value instanceof Uint8Array) return parseJsonText(Buffer.from(value).toString('utf8'), what);
  if (typeof value === 'string') return parseJsonText(value, what);
  return value;
}

function parseJsonText(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new Error(`EventStoreDB ${what} is not JSON: ${(error as Error).message}`);
  }
}

// ---------------------------------------------------------------- read options

/**
 * Port readStream options → client options. Default start: the beginning
 * when forwards, the end when backwards; revisions are inclusive in both.
 */
export function toClientReadStreamOptions(options: ReadStreamOptions = {}): ClientReadStreamOptions {
  const backwards = options.direction === 'backwards';
  const from = options.fromRevision;
  let fromRevision: ReadRevision;
  if (from === undefined) fromRevision = backwards ? END : START;
  else if (from === 'start') fromRevision = START;
  else if (from === 'end') fromRevision = END;
  else if (Number.isSafeInteger(from) && from >= 0) fromRevision = BigInt(from);
  else throw new Error(`Invalid fromRevision: ${String(from)}`);
  const result: ClientReadStreamOptions = { direction: backwards ? BACKWARDS : FORWARDS, fromRevision };
  if (options.maxCount !== undefined) result.maxCount = validMaxCount(options.maxCount);
  return result;
}

/** How to read $all for the port's readAll: where to start, which direction, and which events qualify. */
export interface ReadAllPlan {
  direction: typeof FORWARDS | typeof BACKWARDS;
  fromPosition: ReadPosition;
  /** the port's exclusive bound (after/before); the client's fromPosition is inclusive */
  bound: number;
  /** how many port events to return (Infinity: all) */
  limit: number;
}

/**
 * Port readAll options → a read plan. Forwards: events with position > `after`
 * (default 0 = from the start). Backwards: events with position < `before`
 * (default: from the end). The client starts *at* fromPosition, so the event
 * exactly at the bound is skipped by {@link acceptsPosition}.
 */
export function toReadAllPlan(options: ReadAllOptions = {}): ReadAllPlan {
  const limit = options.maxCount === undefined ? Infinity : validMaxCount(options.maxCount);
  if (options.direction === 'backwards') {
    const before = options.before;
    if (before === undefined) return { direction: BACKWARDS, fromPosition: END, bound: Infinity, limit };
    // Positions are > 0: nothing lies before position 0 (or 1).
    if (before <= 1) return { direction: BACKWARDS, fromPosition: START, bound: before, limit: 0 };
    return { direction: BACKWARDS, fromPosition: toClientPosition(before), bound: before, limit };
  }
  const after = options.after ?? 0;
  return { direction: FORWARDS, fromPosition: toClientPosition(after), bound: after, limit };
}

/** Whether an event at `position` lies strictly beyond the plan's bound in its direction. */
export function acceptsPosition(plan: Pick<ReadAllPlan, 'direction' | 'bound'>, position: number): boolean {
  return plan.direction === BACKWARDS ? position < plan.bound : position > plan.bound;
}

/** The next page of a paged $all read starts at the last event seen (inclusive), which is then skipped. */
export function continueReadAllPlan(plan: ReadAllPlan, lastSeenPosition: number, remaining: number): ReadAllPlan {
  return { ...plan, fromPosition: toClientPosition(lastSeenPosition), bound: lastSeenPosition, limit: remaining };
}

function validMaxCount(maxCount: number): number {
  if (!Number.isSafeInteger(maxCount) || maxCount < 0) throw new Error(`Invalid maxCount: ${maxCount}`);
  return maxCount;
}

// ---------------------------------------------------------------- helpers

function toSafeNumber(value: bigint, what: string): number {
  if (value < BigInt(Number.MIN_SAFE_INTEGER) || value > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new Error(`EventStoreDB ${what} ${value} does not fit a safe JavaScript integer`);
  }
  return Number(value);
}

function errorType(error: unknown): string | undefined {
  if (error === null || typeof error !== 'object') return undefined;
  const type = (error as { type?: unknown }).type;
  return typeof type === 'string' ? type : undefined;
}
