import { randomUUID } from 'node:crypto';
import { eventually } from '../../../test/support/eventually';
import { SqliteEventStore } from '../event-store/sqlite/sqlite-event-store';
import type { EventStore, NewEvent, RecordedEvent } from '../event-store/event-store.port';
import { EmbeddedReadStore } from '../read-store/embedded/embedded-read-store';
import type { ProjectionDefinition, ProjectionWriter } from './projection';
import { ProjectionEngine } from './projection-engine';

function event(type: string, data: Record<string, unknown>): NewEvent {
  return {
    type,
    data,
    metadata: {
      eventId: randomUUID(),
      correlationId: 'c',
      causationId: null,
      actor: 'test',
      nodeId: 'n',
      occurredAt: new Date(0).toISOString(),
      schemaVersion: 1,
    },
  };
}

/** Keeps one document per event applied: easy to see a skip or a double apply. */
function ledger(name = 'ledger', version = 1): ProjectionDefinition & { calls: number; failNext: number } {
  return {
    name,
    version,
    eventTypes: ['Deposited'],
    collections: [name],
    calls: 0,
    failNext: 0,
    apply(e: RecordedEvent, writer: ProjectionWriter) {
      this.calls += 1;
      if (this.failNext > 0) {
        this.failNext -= 1;
        throw new Error('transient failure');
      }
      const doc = { _id: String(e.position), amount: e.data.amount };
      writer.write(name, { replaceOne: { filter: { _id: doc._id }, replacement: doc, upsert: true } });
    },
  };
}

describe('ProjectionEngine', () => {
  let events: EventStore;
  let reads: EmbeddedReadStore;
  beforeEach(() => {
    events = new SqliteEventStore({ file: ':memory:', pollIntervalMs: 20 });
    reads = new EmbeddedReadStore({ file: null });
  });
  afterEach(async () => {
    await events.close();
    await reads.close();
  });

  const deposit = (stream: string, amount: number) => events.append(stream, [event('Deposited', { amount })], 'any');

  it('given events before start, when started, then it catches up and stores the checkpoint', async () => {
    await deposit('account-1', 5);
    const last = await deposit('account-1', 7);
    const projection = ledger();
    const runner = new ProjectionEngine(events, reads, { all: () => [projection] });
    await runner.start();
    expect(await runner.catchUpTo(last.position, 2000)).toBe(true);
    expect(await reads.collection('ledger').countDocuments()).toBe(2);
    expect(await reads.getCheckpoint('ledger')).toBe(last.position);
    await runner.stop();
  });

  it('given a running projection, when events are appended, then they are applied live and waitFor resolves', async () => {
    const runner = new ProjectionEngine(events, reads, { all: () => [ledger()] });
    await runner.start();
    const { position } = await deposit('account-1', 3);
    expect(await runner.waitFor(['ledger'], position, 2000)).toBe(true);
    expect(await reads.collection('ledger').findOne({ _id: String(position) })).toMatchObject({ amount: 3 });
    await runner.stop();
  });

  it('given events of other types, when they pass, then only the checkpoint moves', async () => {
    const projection = ledger();
    const runner = new ProjectionEngine(events, reads, { all: () => [projection] });
    await runner.start();
    const { position } = await events.append('other-1', [event('Unrelated', {})], 'any');
    expect(await runner.waitFor(['ledger'], position, 2000)).toBe(true);
    expect(projection.calls).toBe(0);
    await runner.stop();
  });

  it('given an apply that fails once, when the batch is retried, then no event is skipped', async () => {
    const projection = ledger();
    projection.failNext = 1;
    const runner = new ProjectionEngine(events, reads, { all: () => [projection] });
    await runner.start();
    await deposit('account-1', 1);
    const { position } = await deposit('account-1', 2);
    expect(await runner.waitFor(['ledger'], position, 5000)).toBe(true);
    expect(await reads.collection('ledger').countDocuments()).toBe(2);
    await runner.stop();
  });

  it('given a stopped runner, when restarted, then it resumes from the checkpoint without re-applying', async () => {
    const projection = ledger();
    const first = new ProjectionEngine(events, reads, { all: () => [projection] });
    await first.start();
    const { position } = await deposit('account-1', 1);
    await first.waitFor(['ledger'], position, 2000);
    await first.stop();
    const callsBefore = projection.calls;
    const next = await deposit('account-1', 2);
    const second = new ProjectionEngine(events, reads, { all: () => [projection] });
    await second.start();
    expect(await second.waitFor(['ledger'], next.position, 2000)).toBe(true);
    expect(projection.calls).toBe(callsBefore + 1);
    await second.stop();
  });

  it('given a new projection version, when started, then the read model is dropped and rebuilt', async () => {
    const { position } = await deposit('account-1', 1);
    const v1 = new ProjectionEngine(events, reads, { all: () => [ledger('ledger', 1)] });
    await v1.start();
    await v1.waitFor(['ledger'], position, 2000);
    await v1.stop();
    await reads.collection('ledger').insertOne({ _id: 'stale', amount: 0 });
    const v2 = new ProjectionEngine(events, reads, { all: () => [ledger('ledger', 2)] });
    await v2.start();
    await eventually('the ledger checkpoint at the head', async () => (await reads.getCheckpoint('ledger')) === position);
    expect(await reads.collection('ledger').findOne({ _id: 'stale' })).toBeNull();
    expect(await reads.collection('ledger').countDocuments()).toBe(1);
    await v2.stop();
  });

  it('given a live read model, when rebuilt from scratch, then it equals the live one', async () => {
    const runner = new ProjectionEngine(events, reads, { all: () => [ledger()] });
    await runner.start();
    let last = 0;
    for (let i = 0; i < 50; i++) last = (await deposit(`account-${i % 5}`, i)).position;
    await runner.waitFor(['ledger'], last, 2000);
    await runner.stop();
    const live = await reads.collection('ledger').find({}, { sort: { _id: 1 } });
    const { events: replayed } = await runner.rebuild([ledger()]);
    expect(replayed).toBe(50);
    expect(await reads.collection('ledger').find({}, { sort: { _id: 1 } })).toEqual(live);
  });
});
