import { randomUUID } from 'node:crypto';
import {
  EventMetadata,
  EventStore,
  ExpectedRevision,
  JsonObject,
  NewEvent,
  RecordedEvent,
  Subscription,
  WrongExpectedRevisionError,
} from '../../src/infrastructure/event-store/event-store.port';
import { chainHash, eventHash, verifyLog } from '../../src/infrastructure/event-store/hash-chain';
import { appendReplicated, type ReplicatedEvent, ReplicationDivergenceError } from '../../src/infrastructure/federation/append-replicated';
import { eventually } from '../support/eventually';

/**
 * The behaviour every EventStore adapter must show, written against the port only.
 * The store may be shared and non-empty (EventStoreDB): every test uses its own
 * stream ids and compares positions relative to headPosition() taken at its start.
 */
export function describeEventStoreContract(
  adapterName: string,
  createStore: () => Promise<{ store: EventStore; cleanup: () => Promise<void> }>,
): void {
  describe(`EventStore contract: ${adapterName}`, () => {
    let store: EventStore;
    let cleanup: () => Promise<void>;
    const subscriptions: Subscription[] = [];

    beforeEach(async () => {
      ({ store, cleanup } = await createStore());
    });

    afterEach(async () => {
      await Promise.all(subscriptions.splice(0).map((s) => s.stop()));
      await cleanup();
    });

    /** Starts a subscription that is stopped after the test even if an assertion fails. */
    function subscribe(fromPosition: number, handler: (events: RecordedEvent[]) => Promise<void>) {
      const subscription = store.subscribeToAll({ fromPosition }, handler);
      subscriptions.push(subscription);
      return subscription;
    }

    /**
     * The explicit drain for "no further delivery": appends one event while a
     * witness subscription is live, and resolves once the witness received it,
     * so the commit has been announced to every live subscription.
     */
    async function appendWitnessed(streamId: string, expected: ExpectedRevision): Promise<void> {
      const seen: RecordedEvent[] = [];
      const witness = subscribe(await store.headPosition(), async (events) => {
        seen.push(...events);
      });
      await store.append(streamId, [newEvent()], expected);
      await eventually('the witness to receive the append', () => seen.some(isIn(streamId)));
      await witness.stop();
    }

    describe('append and expected revision', () => {
      it('given a new stream, when appending with no_stream, then the first event has revision 0', async () => {
        const streamId = newStreamId();

        const result = await store.append(streamId, [newEvent()], 'no_stream');

        expect(result.nextExpectedRevision).toBe(0);
        expect((await store.readStream(streamId)).map((e) => e.revision)).toEqual([0]);
      });

      it('given an existing stream, when appending with no_stream, then it fails with actual revision', async () => {
        const streamId = await givenStream(2);

        await expectConflict(store.append(streamId, [newEvent()], 'no_stream'), streamId, 'no_stream', 1);
      });

      it('given an existing stream, when appending with stream_exists, then it succeeds', async () => {
        const streamId = await givenStream(1);

        const result = await store.append(streamId, [newEvent()], 'stream_exists');

        expect(result.nextExpectedRevision).toBe(1);
      });

      it('given a missing stream, when appending with stream_exists, then it fails with actual no_stream', async () => {
        const streamId = newStreamId();

        await expectConflict(store.append(streamId, [newEvent()], 'stream_exists'), streamId, 'stream_exists', 'no_stream');
        expect(await store.readStream(streamId)).toEqual([]);
      });

      it('given a missing stream, when appending with any, then it succeeds', async () => {
        const streamId = newStreamId();

        const result = await store.append(streamId, [newEvent()], 'any');

        expect(result.nextExpectedRevision).toBe(0);
      });

      it('given an existing stream, when appending with any, then it succeeds', async () => {
        const streamId = await givenStream(3);

        const result = await store.append(streamId, [newEvent()], 'any');

        expect(result.nextExpectedRevision).toBe(3);
      });

      it('given a stream at revision 1, when appending with expected revision 1, then it succeeds', async () => {
        const streamId = await givenStream(2);

        const result = await store.append(streamId, [newEvent(), newEvent()], 1);

        expect(result.nextExpectedRevision).toBe(3);
      });

      it('given a stream at revision 1, when appending with expected revision 0, then it fails with actual 1', async () => {
        const streamId = await givenStream(2);

        await expectConflict(store.append(streamId, [newEvent()], 0), streamId, 0, 1);
        expect(await store.readStream(streamId)).toHaveLength(2);
      });

      it('given a missing stream, when appending with an exact revision, then it fails with actual no_stream', async () => {
        const streamId = newStreamId();

        await expectConflict(store.append(streamId, [newEvent()], 0), streamId, 0, 'no_stream');
      });

      it('given several events in one append, when reading, then revisions are 0-based and consecutive', async () => {
        const streamId = newStreamId();

        const result = await store.append(streamId, [newEvent(), newEvent(), newEvent()], 'no_stream');

        const events = await store.readStream(streamId);
        expect(events.map((e) => e.revision)).toEqual([0, 1, 2]);
        expect(result).toEqual({ nextExpectedRevision: 2, position: events[2].position });
      });
    });

    describe('readStream', () => {
      it('given 5 events, when reading forwards from revision 1 with maxCount 3, then it returns revisions 1..3', async () => {
        const streamId = await givenStream(5);

        const events = await store.readStream(streamId, { direction: 'forwards', fromRevision: 1, maxCount: 3 });

        expect(events.map((e) => e.revision)).toEqual([1, 2, 3]);
      });

      it('given 5 events, when reading backwards from revision 3 with maxCount 2, then it returns revisions 3, 2', async () => {
        const streamId = await givenStream(5);

        const events = await store.readStream(streamId, { direction: 'backwards', fromRevision: 3, maxCount: 2 });

        expect(events.map((e) => e.revision)).toEqual([3, 2]);
      });

      it('given 3 events, when reading backwards without a revision, then it starts at the end', async () => {
        const streamId = await givenStream(3);

        const events = await store.readStream(streamId, { direction: 'backwards' });

        expect(events.map((e) => e.revision)).toEqual([2, 1, 0]);
      });

      it('given 3 events, when reading forwards from start, then it returns all of them in order', async () => {
        const streamId = await givenStream(3);

        const events = await store.readStream(streamId, { fromRevision: 'start' });

        expect(events.map((e) => e.revision)).toEqual([0, 1, 2]);
        expect(events.every((e) => e.streamId === streamId)).toBe(true);
      });

      it('given a missing stream, when reading it, then it returns an empty array', async () => {
        expect(await store.readStream(newStreamId())).toEqual([]);
        expect(await store.readStream(newStreamId(), { direction: 'backwards' })).toEqual([]);
      });
    });

    describe('readAll and positions', () => {
      it('given appends after a head position, when reading all forwards after it, then they come in order', async () => {
        const head = await store.headPosition();
        const a = newStreamId();
        const b = newStreamId();
        await store.append(a, [newEvent(), newEvent()], 'no_stream');
        await store.append(b, [newEvent()], 'no_stream');

        const events = (await store.readAll({ direction: 'forwards', after: head })).filter(isIn(a, b));

        expect(events.map((e) => [e.streamId, e.revision])).toEqual([[a, 0], [a, 1], [b, 0]]);
        expect(events[0].position).toBeGreaterThan(head);
      });

      it('given appends after a head position, when reading forwards with maxCount 1, then only the first event after it is returned', async () => {
        const head = await store.headPosition();
        await givenStream(3);

        const [first, ...rest] = await store.readAll({ after: head, maxCount: 1 });

        expect(rest).toEqual([]);
        expect(first.position).toBeGreaterThan(head);
        expect((await store.readAll({ after: head }))[0].position).toBe(first.position);
      });

      it('given events of several types, when reading all with a type filter, then only those types come, in order, maxCount of them', async () => {
        const head = await store.headPosition();
        const streamId = newStreamId();
        await store.append(
          streamId,
          [newEvent('KeptHappened', { n: 1 }), newEvent('SkippedHappened', { n: 2 }), newEvent('KeptHappened', { n: 3 }), newEvent('OtherHappened', { n: 4 }), newEvent('KeptHappened', { n: 5 })],
          'no_stream',
        );

        const kept = await store.readAll({ after: head, eventTypes: ['KeptHappened', 'OtherHappened'] });
        const firstTwo = await store.readAll({ after: head, eventTypes: ['KeptHappened'], maxCount: 2 });

        expect(kept.filter(isIn(streamId)).map((e) => [e.type, e.data.n])).toEqual([
          ['KeptHappened', 1],
          ['KeptHappened', 3],
          ['OtherHappened', 4],
          ['KeptHappened', 5],
        ]);
        expect(firstTwo.map((e) => e.data.n)).toEqual([1, 3]);
        expect(await store.readAll({ after: head, eventTypes: [] })).toEqual([]);
      });

      it('given events of several actors and correlations, when reading all filtered by metadata, then only the matching ones come, in either direction', async () => {
        const head = await store.headPosition();
        const actor = `user-${randomUUID()}`;
        const correlationId = randomUUID();
        await store.append(newStreamId(), [newEvent('A', { n: 1 }, { actor }), newEvent('B', { n: 2 }), newEvent('A', { n: 3 }, { actor, correlationId })], 'no_stream');
        await store.append(newStreamId(), [newEvent('B', { n: 4 }, { correlationId }), newEvent('B', { n: 5 }, { actor })], 'no_stream');

        const byActor = await store.readAll({ after: head, where: { actor } });
        const byCorrelation = await store.readAll({ direction: 'backwards', where: { correlationId }, maxCount: 10 });
        const both = await store.readAll({ after: head, where: { actor, correlationId } });
        const typedByActor = await store.readAll({ after: head, eventTypes: ['B'], where: { actor } });

        expect(byActor.map((e) => e.data.n)).toEqual([1, 3, 5]);
        expect(byCorrelation.map((e) => e.data.n)).toEqual([4, 3]);
        expect(both.map((e) => e.data.n)).toEqual([3]);
        expect(typedByActor.map((e) => e.data.n)).toEqual([5]);
      });

      it('given one append of 3 events, when reading all backwards before the last, then the other two come newest first', async () => {
        const streamId = newStreamId();
        const { position: last } = await store.append(streamId, [newEvent(), newEvent(), newEvent()], 'no_stream');

        const events = await store.readAll({ direction: 'backwards', before: last, maxCount: 2 });

        expect(events.map((e) => [e.streamId, e.revision])).toEqual([[streamId, 1], [streamId, 0]]);
        expect(events[0].position).toBeLessThan(last);
        expect(events[1].position).toBeLessThan(events[0].position);
      });

      it('given an append, when reading all backwards from the end, then the newest event is at or after it', async () => {
        const { position } = await store.append(newStreamId(), [newEvent()], 'no_stream');

        const events = await store.readAll({ direction: 'backwards', maxCount: 1 });

        expect(events).toHaveLength(1);
        expect(events[0].position).toBeGreaterThanOrEqual(position);
      });

      it('given sequential appends, when comparing positions, then they strictly increase and move the head', async () => {
        const head = await store.headPosition();
        const positions: number[] = [];
        for (let i = 0; i < 5; i++) {
          positions.push((await store.append(newStreamId(), [newEvent()], 'no_stream')).position);
        }

        expect(positions[0]).toBeGreaterThan(head);
        positions.slice(1).forEach((p, i) => expect(p).toBeGreaterThan(positions[i]));
        expect(await store.headPosition()).toBeGreaterThanOrEqual(positions[4]);
        const all = await store.readAll({ after: head });
        all.slice(1).forEach((e, i) => expect(e.position).toBeGreaterThan(all[i].position));
      });

      it('given an event with rich data and metadata, when reading it back, then both round-trip exactly', async () => {
        const streamId = newStreamId();
        const data = {
          text: 'héllo "world" \n ✓ 🚀',
          count: 42,
          ratio: -0.125,
          flag: false,
          nothing: null,
          list: [1, 'two', { three: [3] }],
          nested: { deep: { deeper: { deepest: 'yes' } } },
        };
        const event = newEvent('RichThingHappened', data, { causationId: 'cause-1', tenant: 'acme', tags: ['a'] });

        await store.append(streamId, [event], 'no_stream');

        const [read] = await store.readStream(streamId);
        expect(read.type).toBe('RichThingHappened');
        expect(read.data).toEqual(data);
        expect(read.metadata).toEqual(event.metadata);
        expect(new Date(read.recordedAt).toISOString()).toBe(read.recordedAt);
      });
    });

    describe('subscribeToAll', () => {
      it('given events after a position, when subscribing from it, then it catches up and then receives live appends', async () => {
        const head = await store.headPosition();
        const streamId = await givenStream(3);
        const received: RecordedEvent[] = [];
        subscribe(head, async (events) => {
          received.push(...events);
        });
        await eventually('the subscription to deliver them', () => received.filter(isIn(streamId)).length === 3);

        await store.append(streamId, [newEvent(), newEvent()], 2);

        await eventually('the subscription to deliver them', () => received.filter(isIn(streamId)).length === 5);
        expect(received.filter(isIn(streamId)).map((e) => e.revision)).toEqual([0, 1, 2, 3, 4]);
        expectStrictlyIncreasingAfter(received, head);
      });

      it('given a checkpoint in the middle of a stream, when subscribing from it, then earlier events are skipped', async () => {
        const streamId = newStreamId();
        const { position: checkpoint } = await store.append(streamId, [newEvent(), newEvent()], 'no_stream');
        await store.append(streamId, [newEvent(), newEvent()], 1);
        const received: RecordedEvent[] = [];

        subscribe(checkpoint, async (events) => {
          received.push(...events);
        });

        await eventually('the subscription to deliver them', () => received.filter(isIn(streamId)).length === 2);
        expect(received.filter(isIn(streamId)).map((e) => e.revision)).toEqual([2, 3]);
        expectStrictlyIncreasingAfter(received, checkpoint);
      });

      it('given a running subscription, when stop() is called, then no further events are delivered and done resolves', async () => {
        const head = await store.headPosition();
        const streamId = await givenStream(1);
        const received: RecordedEvent[] = [];
        const subscription = subscribe(head, async (events) => {
          received.push(...events);
        });
        await eventually('the subscription to deliver them', () => received.some(isIn(streamId)));

        await subscription.stop();
        await expect(subscription.done).resolves.toBeUndefined();
        await appendWitnessed(streamId, 0);

        expect(received.filter(isIn(streamId)).map((e) => e.revision)).toEqual([0]);
      });

      it('given a handler in flight, when stop() is called, then it resolves only after the handler returns', async () => {
        const head = await store.headPosition();
        await givenStream(1);
        const entered = deferred();
        const order: string[] = [];
        const subscription = subscribe(head, async () => {
          entered.resolve();
          // a slow handler: part of the given, it is still running 50 ms after stop() was called
          await new Promise((resolve) => setTimeout(resolve, 50));
          order.push('handler returned');
        });
        await entered.promise;

        await subscription.stop().then(() => order.push('stop resolved'));

        expect(order).toEqual(['handler returned', 'stop resolved']);
      });

      it('given a handler that throws, when events arrive, then done rejects with its error and delivery stops', async () => {
        const head = await store.headPosition();
        const streamId = await givenStream(1);
        let calls = 0;
        const subscription = subscribe(head, async (events) => {
          if (!events.some(isIn(streamId))) return;
          calls++;
          throw new Error('projection failed');
        });

        await expect(subscription.done).rejects.toThrow('projection failed');
        await appendWitnessed(streamId, 0);
        expect(calls).toBe(1);
      });
    });

    describe('concurrency', () => {
      it('given 20 concurrent appends with the same expected revision, then exactly one wins and the others conflict', async () => {
        const streamId = await givenStream(1);

        const results = await Promise.allSettled(
          Array.from({ length: 20 }, () => store.append(streamId, [newEvent()], 0)),
        );

        const won = results.filter((r) => r.status === 'fulfilled');
        const lost = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
        expect(won).toHaveLength(1);
        expect(lost).toHaveLength(19);
        for (const { reason } of lost) {
          expect(reason).toBeInstanceOf(WrongExpectedRevisionError);
          expect(reason).toMatchObject({ streamId, expected: 0, actual: 1 });
        }
        expect((await store.readStream(streamId)).map((e) => e.revision)).toEqual([0, 1]);
      });

      it('given 50 concurrent appends to different streams, then all succeed with distinct positions', async () => {
        const head = await store.headPosition();
        const streamIds = Array.from({ length: 50 }, () => newStreamId());

        const results = await Promise.allSettled(streamIds.map((id) => store.append(id, [newEvent()], 'no_stream')));

        const positions = results.map((r) => {
          if (r.status === 'rejected') throw r.reason;
          expect(r.value.nextExpectedRevision).toBe(0);
          return r.value.position;
        });
        expect(new Set(positions).size).toBe(50);
        expect(Math.min(...positions)).toBeGreaterThan(head);
      });
    });

    describe('tamper-evident seals', () => {
      it('given appends of one and of several events, when the log is read sealed, then each event hashes its content and its stream predecessor', async () => {
        const head = await store.headPosition();
        const streamId = newStreamId();
        await store.append(streamId, [newEvent('First', { n: 1, text: 'é "quoted" \\ ' })], 'no_stream');
        await store.append(streamId, [newEvent('Second', { n: 2 }), newEvent('Third', { nested: { b: [1, null, 2.5] } })], 0);

        const sealed = (await store.readSealed({ after: head, maxCount: 1000 })).filter((e) => e.streamId === streamId);

        expect(sealed.map((e) => [e.revision, e.type])).toEqual([[0, 'First'], [1, 'Second'], [2, 'Third']]);
        let prev: string | null = null;
        for (const event of sealed) {
          expect(event.seal?.hash).toBe(eventHash(streamId, event.revision, event.type, event.data, event.metadata, prev));
          prev = event.seal?.hash ?? null;
        }
        const recorded = await store.readStream(streamId);
        expect(sealed.map((e) => JSON.parse(e.data) as unknown)).toEqual(recorded.map((e) => e.data));
        expect(sealed.map((e) => JSON.parse(e.metadata) as unknown)).toEqual(recorded.map((e) => e.metadata));
        expect(sealed.map((e) => e.eventId)).toEqual(recorded.map((e) => e.metadata.eventId));
      });

      it('given consecutive events of the log, then each running hash chains the previous one', async () => {
        const head = await store.headPosition();
        await store.append(newStreamId(), [newEvent(), newEvent()], 'no_stream');
        await store.append(newStreamId(), [newEvent()], 'no_stream');

        const [before, ...written] = await store.readSealed({ after: head - 1 > 0 ? head - 1 : 0, maxCount: 1000 }).then((events) =>
          head > 0 ? events : [null, ...events],
        );

        let chain = before?.seal?.chain ?? null;
        for (const event of written) {
          expect(event!.seal?.chain).toBe(chainHash(chain, event!.seal!.hash));
          chain = event!.seal!.chain;
        }
      });

      it('given concurrent appends, some refused, when the whole log is verified, then every link holds', async () => {
        const contested = await givenStream(1);
        await Promise.allSettled([
          ...Array.from({ length: 20 }, () => store.append(newStreamId(), [newEvent(), newEvent()], 'no_stream')),
          ...Array.from({ length: 5 }, () => store.append(contested, [newEvent()], 0)),
          ...Array.from({ length: 5 }, () => store.append(contested, [newEvent()], 'any')),
        ]);

        const verification = await verifyLog(store, { pageSize: 64 });

        expect(verification.broken).toBeNull();
        expect(verification).toMatchObject({ ok: true, head: { position: await store.headPosition() } });
        expect(verification.checked - verification.unsealed).toBeGreaterThanOrEqual(47);
      });
    });

    describe('replicated appends (federation)', () => {
      /** Events as another node's log holds them: ids, streams and revisions fixed upstream. */
      function upstreamPage(): ReplicatedEvent[] {
        const [a, b] = [newStreamId(), newStreamId()];
        const at = (streamId: string, revision: number): ReplicatedEvent => ({ streamId, revision, ...newEvent() });
        return [at(a, 0), at(b, 0), at(a, 1), at(a, 2), at(b, 1)];
      }

      it('given a page of another log, when it is appended, then every event keeps its id, stream, revision and the global order', async () => {
        const head = await store.headPosition();
        const page = upstreamPage();

        expect(await appendReplicated(store, page)).toEqual({ appended: 5, skipped: 0 });

        const stored = (await store.readAll({ after: head })).filter(isIn(page[0].streamId, page[1].streamId));
        expect(stored.map((e) => [e.metadata.eventId, e.streamId, e.revision])).toEqual(page.map((e) => [e.metadata.eventId, e.streamId, e.revision]));
      });

      it('given a page already appended (a crash before the checkpoint), when it is appended again, then nothing is appended twice', async () => {
        const page = upstreamPage();
        await appendReplicated(store, page.slice(0, 3));

        expect(await appendReplicated(store, page)).toEqual({ appended: 2, skipped: 3 });
        expect(await store.readStream(page[0].streamId)).toHaveLength(3);
        expect(await store.readStream(page[1].streamId)).toHaveLength(2);
      });

      it('given a replicated stream this node wrote into, when the upstream event at that revision arrives, then replication refuses to fork the log', async () => {
        const [first, , second] = upstreamPage();
        await appendReplicated(store, [first]);
        await store.append(first.streamId, [newEvent()], 0);

        await expect(appendReplicated(store, [{ ...second, streamId: first.streamId }])).rejects.toBeInstanceOf(ReplicationDivergenceError);
      });

      it('given a page that skips a revision, when it is appended, then it is refused and nothing of the stream is written', async () => {
        const [first, , , third] = upstreamPage();

        await expect(appendReplicated(store, [third])).rejects.toBeInstanceOf(ReplicationDivergenceError);
        expect(await store.readStream(first.streamId)).toEqual([]);
      });
    });

    async function givenStream(count: number): Promise<string> {
      const streamId = newStreamId();
      await store.append(streamId, Array.from({ length: count }, () => newEvent()), 'no_stream');
      return streamId;
    }
  });
}

function newStreamId(): string {
  return `contractTest-${randomUUID()}`;
}

function newEvent(type = 'ThingHappened', data: JsonObject = { at: Date.now() }, extra: Partial<EventMetadata> = {}): NewEvent {
  return {
    type,
    data,
    metadata: {
      eventId: randomUUID(),
      correlationId: randomUUID(),
      causationId: null,
      actor: 'system:contract-test',
      nodeId: 'node-test',
      occurredAt: new Date().toISOString(),
      schemaVersion: 1,
      ...extra,
    },
  };
}

async function expectConflict(
  attempt: Promise<unknown>,
  streamId: string,
  expected: ExpectedRevision,
  actual: number | 'no_stream',
): Promise<void> {
  const error = await attempt.then(
    () => new Error('expected a WrongExpectedRevisionError, but the append succeeded'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WrongExpectedRevisionError);
  expect(error).toMatchObject({ streamId, expected, actual });
}

function isIn(...streamIds: string[]) {
  return (event: RecordedEvent) => streamIds.includes(event.streamId);
}

function expectStrictlyIncreasingAfter(events: RecordedEvent[], position: number): void {
  let previous = position;
  for (const event of events) {
    expect(event.position).toBeGreaterThan(previous);
    previous = event.position;
  }
}

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}
