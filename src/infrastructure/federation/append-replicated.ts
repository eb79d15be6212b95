/**
 * Appends events replicated from another node's log (issue 17, item 2)
 * into this node's event store, keeping each event's id, stream, revision,
 * type, data and metadata. Works on any adapter through the port: an event
 * whose stream already holds its revision is skipped when it is the same
 * event (same id) — a page replayed after a crash appends nothing twice —
 * and is a divergence otherwise (this node wrote its own event into a
 * replicated stream), which stops replication loudly rather than fork the
 * log. A revision past the stream's next one is a gap (events missing
 * upstream of this page) and refused likewise.
 *
 * The events to append are issued in one turn of the event loop, in log
 * order, one append per run of consecutive events of a stream with the exact
 * expected revision: the store's group commit writes the page in one
 * transaction, and this node's log keeps the upstream's global order.
 */
import { type EventMetadata, type EventStore, type JsonObject, NO_STREAM } from '../event-store/event-store.port';

export interface ReplicatedEvent {
  streamId: string;
  revision: number;
  type: string;
  data: JsonObject;
  metadata: EventMetadata;
}

export class ReplicationDivergenceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ReplicationDivergenceError';
  }
}

export interface ReplicatedPageResult {
  appended: number;
  skipped: number;
}

export async function appendReplicated(store: EventStore, events: readonly ReplicatedEvent[]): Promise<ReplicatedPageResult> {
  /** the next revision each stream of the page expects */
  const next = new Map<string, number>();
  const toAppend: ReplicatedEvent[] = [];
  let skipped = 0;
  for (const event of events) {
    let expected = next.get(event.streamId);
    if (expected === undefined) {
      const [tip] = await store.readStream(event.streamId, { direction: 'backwards', fromRevision: 'end', maxCount: 1 });
      expected = tip ? tip.revision + 1 : 0;
    }
    if (event.revision < expected) {
      const [held] = await store.readStream(event.streamId, { fromRevision: event.revision, maxCount: 1 });
      if (held?.metadata.eventId !== event.metadata.eventId) {
        throw new ReplicationDivergenceError(
          `stream ${event.streamId} holds event ${held?.metadata.eventId ?? '(none)'} at revision ${event.revision}, the upstream log ${event.metadata.eventId}`,
        );
      }
      skipped++;
    } else if (event.revision === expected) {
      toAppend.push(event);
      expected++;
    } else {
      throw new ReplicationDivergenceError(`stream ${event.streamId} is at revision ${expected - 1}; the upstream log skips to ${event.revision}`);
    }
    next.set(event.streamId, expected);
  }
  const appends: Promise<unknown>[] = [];
  for (let start = 0; start < toAppend.length; ) {
    let end = start + 1;
    while (end < toAppend.length && toAppend[end].streamId === toAppend[start].streamId) end++;
    const run = toAppend.slice(start, end);
    const first = run[0].revision;
    appends.push(
      store.append(
        run[0].streamId,
        run.map((e) => ({ type: e.type, data: e.data, metadata: e.metadata })),
        first === 0 ? NO_STREAM : first - 1,
      ),
    );
    start = end;
  }
  await Promise.all(appends);
  return { appended: toAppend.length, skipped };
}
