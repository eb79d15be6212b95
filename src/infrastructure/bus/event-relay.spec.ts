import { randomUUID } from 'node:crypto';
import { eventually } from '../../../test/support/eventually';
import type { NewEvent, RecordedEvent } from '../event-store/event-store.port';
import { SqliteEventStore } from '../event-store/sqlite/sqlite-event-store';
import { EmbeddedReadStore } from '../read-store/embedded/embedded-read-store';
import { type EventRelay, EventRelays } from './event-relay';
import { InProcessBus } from './in-process/in-process-bus';
import type { OutgoingMessage } from './message-bus.port';

function event(n: number): NewEvent {
  return {
    type: 'Happened',
    data: { n },
    metadata: { eventId: randomUUID(), correlationId: 'c', causationId: null, actor: 't', nodeId: 'n', occurredAt: new Date().toISOString(), schemaVersion: 1 },
  };
}

/** Relays every event's n to topic `t`. */
const numbers = (name: string, startAt: EventRelay['startAt']): EventRelay => ({
  name,
  startAt,
  route: (events: readonly RecordedEvent[]) => new Map([['t', events.map((e): OutgoingMessage => ({ key: 'k', value: e.data.n }))]]),
});

describe('EventRelays', () => {
  let events: SqliteEventStore;
  let reads: EmbeddedReadStore;
  let bus: InProcessBus;
  beforeEach(() => {
    events = new SqliteEventStore({ file: ':memory:', pollIntervalMs: 10 });
    reads = new EmbeddedReadStore({ file: null });
    bus = new InProcessBus({ retryDelayMs: 10 });
  });
  afterEach(async () => {
    await bus.close();
    await reads.close();
    await events.close();
  });

  const published = (publish: jest.SpyInstance<Promise<void>, [string, OutgoingMessage[]]>) => publish.mock.calls.flatMap(([, messages]) => messages.map((m) => m.value));

  it('given a relay from the beginning, when started, then every recorded event is published and the checkpoint follows', async () => {
    await events.append('s-1', [event(1), event(2)], 'no_stream');
    const publish = jest.spyOn(bus, 'publish');
    const relays = new EventRelays(events, reads, bus, 10);
    relays.register(numbers('numbers', 'beginning'));
    await relays.start();
    await events.append('s-1', [event(3)], 1);
    await eventually('the checkpoint at the head', async () => (await reads.getCheckpoint('numbers')) === 3);
    await relays.stop();
    expect(published(publish)).toEqual([1, 2, 3]);
  });

  it('given a relay from the head without a checkpoint, when started, then only what is recorded afterwards is published', async () => {
    await events.append('s-1', [event(1)], 'no_stream');
    const publish = jest.spyOn(bus, 'publish');
    const relays = new EventRelays(events, reads, bus, 10);
    relays.register(numbers('fresh', 'head'));
    await relays.start();
    await events.append('s-1', [event(2)], 0);
    await eventually('the checkpoint at the head', async () => (await reads.getCheckpoint('fresh')) === 2);
    await relays.stop();
    expect(published(publish)).toEqual([2]);
  });

  it('given the bus refuses a publish, when it recovers, then the page is published again and nothing is skipped', async () => {
    await events.append('s-1', [event(1)], 'no_stream');
    const publish = jest.spyOn(bus, 'publish').mockRejectedValueOnce(new Error('broker down'));
    const relays = new EventRelays(events, reads, bus, 10);
    relays.register(numbers('numbers', 'beginning'));
    await relays.start();
    await eventually('the checkpoint past the event', async () => (await reads.getCheckpoint('numbers')) === 1);
    await relays.stop();
    expect(publish).toHaveBeenCalledTimes(2);
    expect(published(publish)).toEqual([1, 1]);
  });

  it('given two relays, when one is stuck on its topic, then the other goes on', async () => {
    const publish = jest.spyOn(bus, 'publish');
    const stuck: EventRelay = { name: 'stuck', startAt: 'beginning', route: () => { throw new Error('cannot route'); } };
    const relays = new EventRelays(events, reads, bus, 10);
    relays.register(stuck, numbers('numbers', 'beginning'));
    await relays.start();
    await events.append('s-1', [event(1)], 'no_stream');
    await eventually('the healthy relay past the event', async () => (await reads.getCheckpoint('numbers')) === 1);
    await relays.stop();
    expect(published(publish)).toEqual([1]);
    expect(await reads.getCheckpoint('stuck')).toBeNull();
  });
});
