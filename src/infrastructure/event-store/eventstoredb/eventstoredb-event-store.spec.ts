/**
 * The adapter's sealing path (read the stream's tip and the log's head, seal,
 * append with the exact revision, retry a lost race) against an in-memory
 * double of the client: the contract suite needs a server, which this
 * machine cannot run (test/contract/event-store.eventstoredb.spec.ts).
 */
import { ANY, BACKWARDS, END, NO_STREAM, STREAM_EXISTS, START, StreamNotFoundError, WrongExpectedVersionError, type AppendExpectedRevision, type JSONEventData } from '@eventstore/db-client';
import { randomUUID } from 'node:crypto';
import { type NewEvent, WrongExpectedRevisionError } from '../event-store.port';
import { verifyLog } from '../hash-chain';
import { EventStoreDbEventStore, type EventStoreDbClientLike } from './eventstoredb-event-store';
import { SEAL_KEY } from './mapping';

interface Stored {
  streamId: string;
  id: string;
  type: string;
  revision: bigint;
  data: unknown;
  metadata: unknown;
  position: bigint;
}

/** What the server does for the calls the adapter makes, in memory; `beforeWrite` runs inside an append, before it is checked. */
class FakeClient {
  readonly log: Stored[] = [];
  private nextPosition = 100n;
  beforeWrite: (() => Promise<void>) | null = null;

  async appendToStream(streamId: string, events: JSONEventData[], options: { expectedRevision: AppendExpectedRevision }) {
    const hook = this.beforeWrite;
    this.beforeWrite = null;
    if (hook) await hook();
    const current = this.tip(streamId);
    const expected = options.expectedRevision;
    const ok = expected === ANY || (expected === NO_STREAM && current === null) || (expected === STREAM_EXISTS && current !== null) || expected === current;
    if (!ok) throw new WrongExpectedVersionError(undefined, { streamName: streamId, expected, current: current ?? 'no_stream' });
    let revision = current ?? -1n;
    for (const event of events) {
      revision++;
      this.nextPosition += 10n;
      // the server keeps JSON: what comes back is parsed again
      this.log.push({ streamId, id: event.id, type: event.type, revision, data: JSON.parse(JSON.stringify(event.data)), metadata: JSON.parse(JSON.stringify(event.metadata)), position: this.nextPosition });
    }
    return { success: true, nextExpectedRevision: revision, position: { commit: this.nextPosition, prepare: this.nextPosition } };
  }

  readStream(streamId: string, options: { direction?: unknown; maxCount?: number | bigint }) {
    const events = this.log.filter((e) => e.streamId === streamId);
    if (events.length === 0) return this.failing(new StreamNotFoundError(undefined, streamId));
    const ordered = options.direction === BACKWARDS ? [...events].reverse() : events;
    return this.resolved(ordered.slice(0, Number(options.maxCount ?? ordered.length)));
  }

  readAll(options: { fromPosition: unknown; direction?: unknown; maxCount?: number | bigint }) {
    const backwards = options.direction === BACKWARDS;
    const from = options.fromPosition;
    const at = (e: Stored) =>
      from === START || from === END ? true : backwards ? e.position <= (from as { commit: bigint }).commit : e.position >= (from as { commit: bigint }).commit;
    const ordered = (backwards ? [...this.log].reverse() : this.log).filter(at);
    return this.resolved(ordered.slice(0, Number(options.maxCount ?? ordered.length)));
  }

  subscribeToAll(): never {
    throw new Error('not used');
  }

  async dispose(): Promise<void> {}

  private tip(streamId: string): bigint | null {
    const events = this.log.filter((e) => e.streamId === streamId);
    return events.length ? events[events.length - 1].revision : null;
  }

  private async *resolved(events: Stored[]) {
    for (const e of events) {
      yield { event: { ...e, created: new Date(), isJson: true, position: { commit: e.position, prepare: e.position } }, commitPosition: e.position };
    }
  }

  private async *failing(error: Error) {
    yield* [];
    throw error;
  }
}

function event(n: number): NewEvent {
  return {
    type: 'ThingHappened',
    data: { n },
    metadata: { eventId: randomUUID(), correlationId: randomUUID(), causationId: null, actor: 'user-1', nodeId: 'node-a', occurredAt: new Date().toISOString(), schemaVersion: 1 },
  };
}

describe('EventStoreDbEventStore sealing', () => {
  let client: FakeClient;
  const open = () => new EventStoreDbEventStore(client as unknown as EventStoreDbClientLike);

  beforeEach(() => (client = new FakeClient()));

  it('given appends to several streams, when the log is verified, then every event is sealed and every link holds', async () => {
    const store = open();
    await store.append('a-1', [event(1), event(2)], 'no_stream');
    await store.append('b-1', [event(3)], 'no_stream');
    await store.append('a-1', [event(4)], 1);

    const verification = await verifyLog(store);

    expect(verification).toMatchObject({ ok: true, checked: 4, unsealed: 0, broken: null });
  });

  it('given concurrent appends of one process, when verified, then they were sealed one after another in commit order', async () => {
    const store = open();

    await Promise.all(Array.from({ length: 10 }, (_, i) => store.append(`s-${i % 3}-${i}`, [event(i)], 'no_stream')));

    expect(await verifyLog(store)).toMatchObject({ ok: true, checked: 10 });
  });

  it('given a sealed event read back, then its seal stays out of the recorded metadata', async () => {
    const store = open();
    const written = event(1);
    await store.append('a-1', [written], 'no_stream');

    const [recorded] = await store.readStream('a-1');

    expect(recorded.metadata).toEqual(written.metadata);
    expect((client.log[0].metadata as Record<string, unknown>)[SEAL_KEY]).toEqual({ hash: expect.any(String), chain: expect.any(String) });
  });

  it('given an `any` append that loses a race to another process, when it is retried, then both land and the stream chain holds', async () => {
    const mine = open();
    const other = open();
    await mine.append('a-1', [event(1)], 'no_stream');
    client.beforeWrite = async () => {
      await other.append('a-1', [event(2)], 'any');
    };

    await mine.append('a-1', [event(3)], 'any');

    expect(client.log.map((e) => (e.data as { n: number }).n)).toEqual([1, 2, 3]);
    expect(await verifyLog(mine)).toMatchObject({ ok: true, checked: 3 });
  });

  it('given an exact revision that is no longer current, when appended, then the port error carries the caller\'s expectation', async () => {
    const store = open();
    await store.append('a-1', [event(1), event(2)], 'no_stream');

    await expect(store.append('a-1', [event(3)], 0)).rejects.toMatchObject({ streamId: 'a-1', expected: 0, actual: 1 });
    await expect(store.append('a-1', [event(3)], 0)).rejects.toBeInstanceOf(WrongExpectedRevisionError);
  });

  it('given another process appending to another stream between the head read and the append, when verified, then the running hash shows the interleaving (one writer per database)', async () => {
    const mine = open();
    const other = open();
    await mine.append('a-1', [event(1)], 'no_stream');
    client.beforeWrite = async () => {
      await other.append('b-1', [event(2)], 'no_stream');
    };
    await mine.append('a-1', [event(3)], 0);

    const verification = await verifyLog(mine);

    expect(verification.broken).toMatchObject({ stream: 'a-1', revision: 1, reason: 'chain_mismatch' });
  });
});
