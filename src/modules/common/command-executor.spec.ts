import type { Decider } from '../../aggregates/shared/decider';
import { DomainError } from '../../aggregates/shared/domain-error';
import { loadConfig } from '../../config/config';
import { Clock } from '../../infrastructure/clock';
import { type EventStore, WrongExpectedRevisionError } from '../../infrastructure/event-store/event-store.port';
import { SqliteEventStore } from '../../infrastructure/event-store/sqlite/sqlite-event-store';
import { UpcasterRegistry } from '../../infrastructure/eventsourcing/upcasters';
import { EmbeddedReadStore } from '../../infrastructure/read-store/embedded/embedded-read-store';
import { ProjectionRegistry } from '../../infrastructure/projections/projection-registry';
import { ProjectionEngine } from '../../infrastructure/projections/projection-engine';
import { ReadYourWrites } from '../../infrastructure/projections/read-your-writes';
import { CommandExecutor } from './command-executor';

type CounterEvent = { type: 'Incremented'; data: { by: number } };
type CounterCommand = { kind: 'increment'; by: number; max?: number };

const counter: Decider<number, CounterCommand, CounterEvent> = {
  initialState: 0,
  evolve: (n, e) => n + e.data.by,
  decide: (c, n) => {
    if (c.by === 0) return [];
    if (c.max !== undefined && n + c.by > c.max) throw new DomainError('conflict', 'limit reached');
    return [{ type: 'Incremented', data: { by: c.by } }];
  },
};

class FixedClock extends Clock {
  now(): Date {
    return new Date('2026-11-22T12:00:00.000Z');
  }
}

describe('CommandExecutor', () => {
  let store: EventStore;
  let executor: CommandExecutor;
  const upcasters = new UpcasterRegistry();
  upcasters.register('Incremented', 1, (d) => d);
  const context = { actor: 'user-1', correlationId: 'corr-1', causationId: 'cause-1' };

  /** An executor as one node has it: several share one store to play several nodes. */
  function node(nodeId = 'node-test'): CommandExecutor {
    const config = loadConfig({ NODE_ID: nodeId });
    const registry = new ProjectionRegistry();
    const reads = new EmbeddedReadStore({ file: null });
    const engine = new ProjectionEngine(store, reads, registry);
    const readYourWrites = new ReadYourWrites(config, 'api', reads, registry, engine);
    return new CommandExecutor(store, config, new FixedClock(), upcasters, readYourWrites);
  }

  beforeEach(() => {
    store = new SqliteEventStore({ file: ':memory:' });
    executor = node();
  });
  afterEach(() => store.close());

  it('given no stream, when a command decides events, then they are appended with full metadata', async () => {
    const outcome = await executor.execute(counter, 'counter-1', { kind: 'increment', by: 2 }, context);
    expect(outcome).toMatchObject({ state: 2, revision: 0 });
    const [recorded] = await store.readStream('counter-1');
    expect(recorded.data).toEqual({ by: 2 });
    expect(recorded.metadata).toMatchObject({
      correlationId: 'corr-1',
      causationId: 'cause-1',
      actor: 'user-1',
      nodeId: 'node-test',
      occurredAt: '2026-11-22T12:00:00.000Z',
      schemaVersion: 2,
    });
    expect(recorded.metadata.eventId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('given a decision with no events, when executed, then nothing is appended', async () => {
    const outcome = await executor.execute(counter, 'counter-1', { kind: 'increment', by: 0 }, context);
    expect(outcome.position).toBe(0);
    expect(await store.readStream('counter-1')).toEqual([]);
  });

  it('given a stream whose last event the read models have not applied yet, when a command records nothing, then it answers once they have', async () => {
    // the effect is in the stream already (a saga made it a moment before): the caller reads it next
    const counted: number[] = [];
    const projection = {
      name: 'counter_totals',
      version: 1,
      eventTypes: ['Incremented'],
      collections: ['counter_totals'],
      apply: (e: { data: { by: number } }) => void counted.push(e.data.by),
    };
    const config = loadConfig({ NODE_ID: 'node-test', READ_YOUR_WRITES_TIMEOUT_MS: '10000' });
    const registry = new ProjectionRegistry([projection as never]);
    const reads = new EmbeddedReadStore({ file: null });
    const engine = new ProjectionEngine(store, reads, registry);
    const waiting = new CommandExecutor(store, config, new FixedClock(), upcasters, new ReadYourWrites(config, 'api', reads, registry, engine));
    await node('node-saga').execute(counter, 'counter-1', { kind: 'increment', by: 3 }, context, { readYourWrites: false });

    const outcome = waiting.execute(counter, 'counter-1', { kind: 'increment', by: 0 }, context).then(() => [...counted]);
    await engine.start();

    expect(await outcome).toEqual([3]);
    await engine.stop();
  });

  it('given a refused command, when executed, then the DomainError reaches the caller and nothing is appended', async () => {
    await expect(executor.execute(counter, 'counter-1', { kind: 'increment', by: 5, max: 3 }, context)).rejects.toThrow(DomainError);
    expect(await store.readStream('counter-1')).toEqual([]);
  });

  it('given 20 concurrent commands on one stream, when executed, then they are decided one after another and none is lost', async () => {
    const appends = jest.spyOn(store, 'append');
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, () => executor.execute(counter, 'counter-1', { kind: 'increment', by: 1 }, context, { maxRetries: 0 })),
    );
    const { state, revision } = await executor.load(counter, 'counter-1');
    expect(state).toBe(20);
    expect(revision).toBe(19);
    // each sees the state its own events made, as if it had run alone
    expect(outcomes.map((o) => o.state).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(outcomes.map((o) => o.revision).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i));
    // those that queued behind an append in flight went together: fewer round trips, no conflict
    expect(appends.mock.calls.length).toBeLessThan(20);
  });

  it('given commands queued on one stream, when one of them is refused, then the others are still recorded', async () => {
    const results = await Promise.allSettled([
      executor.execute(counter, 'counter-1', { kind: 'increment', by: 1 }, context),
      executor.execute(counter, 'counter-1', { kind: 'increment', by: 1 }, context),
      executor.execute(counter, 'counter-1', { kind: 'increment', by: 5, max: 3 }, context),
      executor.execute(counter, 'counter-1', { kind: 'increment', by: 1 }, context),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect((await store.readStream('counter-1')).map((e) => e.data.by)).toEqual([1, 1, 1]);
  });

  it('given an invariant, when concurrent commands race past it, then it still holds', async () => {
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, () => executor.execute(counter, 'counter-1', { kind: 'increment', by: 1, max: 3 }, context)),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
    expect((await executor.load(counter, 'counter-1')).state).toBe(3);
  });

  it('given two nodes writing one stream at once, when they conflict, then retries serialise them and none is lost', async () => {
    const other = node('node-other');
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 ? executor : other).execute(counter, 'counter-1', { kind: 'increment', by: 1 }, context, { maxRetries: 50 })),
    );
    expect((await executor.load(counter, 'counter-1')).state).toBe(20);
    expect((await other.load(counter, 'counter-1')).state).toBe(20);
  });

  it('given two nodes and no retries, when they conflict, then the conflict error surfaces', async () => {
    const other = node('node-other');
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) => (i % 2 ? executor : other).execute(counter, 'counter-1', { kind: 'increment', by: 1 }, context, { maxRetries: 0 })),
    );
    const failed = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(failed.length).toBeGreaterThan(0);
    expect(failed[0].reason).toBeInstanceOf(WrongExpectedRevisionError);
  });

  it('given a stream this node already folded, when another command runs, then only the events since are read', async () => {
    for (let i = 0; i < 50; i++) await executor.execute(counter, 'counter-1', { kind: 'increment', by: 1 }, context);
    const reads = jest.spyOn(store, 'readStream');
    const outcome = await executor.execute(counter, 'counter-1', { kind: 'increment', by: 1 }, context);
    expect(outcome.state).toBe(51);
    expect(reads).toHaveBeenCalledWith('counter-1', { fromRevision: 50 });
    expect(executor.cacheStats.hits).toBeGreaterThan(0);
  });

  it('given another node appended to a stream this node cached, when a command runs here, then it decides on those events too', async () => {
    const other = node('node-other');
    await executor.execute(counter, 'counter-1', { kind: 'increment', by: 1, max: 3 }, context);
    await other.execute(counter, 'counter-1', { kind: 'increment', by: 2 }, context);
    await expect(executor.execute(counter, 'counter-1', { kind: 'increment', by: 1, max: 3 }, context)).rejects.toThrow('limit reached');
    expect((await executor.load(counter, 'counter-1')).state).toBe(3);
  });

  it('given the cache is off, when commands run, then every command folds the whole stream', async () => {
    const config = loadConfig({ NODE_ID: 'node-test', AGGREGATE_CACHE_SIZE: '0' });
    const registry = new ProjectionRegistry();
    const reads = new EmbeddedReadStore({ file: null });
    const uncached = new CommandExecutor(store, config, new FixedClock(), upcasters, new ReadYourWrites(config, 'api', reads, registry, new ProjectionEngine(store, reads, registry)));
    await uncached.execute(counter, 'counter-1', { kind: 'increment', by: 1 }, context);
    const readStream = jest.spyOn(store, 'readStream');
    await uncached.execute(counter, 'counter-1', { kind: 'increment', by: 1 }, context);
    expect(readStream).toHaveBeenCalledWith('counter-1', undefined);
  });

  it('given a fresh stream id, when executed as a new stream, then nothing is read and the append expects no stream', async () => {
    const reads = jest.spyOn(store, 'readStream');
    const appends = jest.spyOn(store, 'append');
    const outcome = await executor.execute(counter, 'counter-new', { kind: 'increment', by: 1 }, context, { newStream: true });
    expect(outcome.state).toBe(1);
    expect(reads).not.toHaveBeenCalled();
    expect(appends.mock.calls[0][2]).toBe('no_stream');
  });

  it('given a stream that did exist, when executed as a new stream, then the conflict is read and decided again', async () => {
    await node('node-other').execute(counter, 'counter-1', { kind: 'increment', by: 2 }, context);
    const outcome = await executor.execute(counter, 'counter-1', { kind: 'increment', by: 1 }, context, { newStream: true });
    expect(outcome.state).toBe(3);
    expect((await store.readStream('counter-1')).map((e) => e.data.by)).toEqual([2, 1]);
  });
});
