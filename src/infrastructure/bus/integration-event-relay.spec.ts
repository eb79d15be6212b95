import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually } from '../../../test/support/eventually';
import { loadConfig } from '../../config/config';
import type { RecordedEvent } from '../event-store/event-store.port';
import { UpcasterRegistry } from '../eventsourcing/upcasters';
import { createEventStore, createReadStore } from '../ports.factory';
import { InProcessBus } from './in-process/in-process-bus';
import { EventRelays } from './event-relay';
import { INTEGRATION_CHECKPOINT, IntegrationEventRelay, integrationTopic, toIntegrationMessage } from './integration-event-relay';

const event: RecordedEvent = {
  streamId: 'user-42',
  type: 'UserRegistered',
  revision: 0,
  position: 7,
  data: { user_id: '42', username: 'ada', password_hash: 'argon', recovery_code_hash: 'h', secret_sha256: 's' },
  recordedAt: '2026-11-22T10:00:00.000Z',
  metadata: {
    eventId: 'e1',
    correlationId: 'c1',
    causationId: null,
    actor: '42',
    nodeId: 'n1',
    occurredAt: '2026-11-22T10:00:00.000Z',
    schemaVersion: 1,
  },
};

describe('integration events', () => {
  it('given a stream id, then the topic is the prefix and the stream category', () => {
    expect(integrationTopic('svc.events', 'usernameClaim-ada-lovelace')).toBe('svc.events.usernameClaim');
  });

  it('given a recorded event, then the message is keyed by stream id and carries the metadata as headers', () => {
    const message = toIntegrationMessage(event);
    expect(message.key).toBe('user-42');
    expect(message.headers).toMatchObject({
      'event-type': 'UserRegistered',
      'event-id': 'e1',
      'correlation-id': 'c1',
      'causation-id': '',
      'schema-version': '1',
      'node-id': 'n1',
    });
    expect(message.value).toMatchObject({ streamId: 'user-42', type: 'UserRegistered', revision: 0, position: 7 });
  });

  it('given data with secrets, then hashes, passwords and secrets are left out', () => {
    const { data } = toIntegrationMessage(event).value as { data: Record<string, unknown> };
    expect(data).toEqual({ user_id: '42', username: 'ada' });
  });
});

describe('integration-event relay', () => {
  it('given a category kept private, when the relay runs, then its events never reach the bus and others do', async () => {

    const dir = mkdtempSync(join(tmpdir(), 'relay-'));
    const config = loadConfig({ DATA_DIR: dir });
    const events = await createEventStore(config, new UpcasterRegistry(), null);
    const reads = await createReadStore(config);
    const bus = new InProcessBus();
    const metadata = { ...event.metadata };
    await events.append('encounterPair-a_b', [{ type: 'SwipeLiked', data: { sighting_id: 's1' }, metadata }], 'no_stream');
    await events.append('user-42', [{ type: 'UserRegistered', data: { user_id: '42' }, metadata: { ...metadata, eventId: 'e2' } }], 'no_stream');
    const relay = new IntegrationEventRelay('svc.events');
    relay.keepPrivate('encounterPair');
    const relays = new EventRelays(events, reads, bus);
    relays.register(relay);
    await relays.start();
    // the relay's checkpoint moves only after the bus accepted the batch: past 2, all it sends is on the bus
    await eventually('the relay to pass both events', () => (relays.positions().get(INTEGRATION_CHECKPOINT) ?? 0) >= 2);
    await relays.stop();
    const onTheBus = { encounterPair: bus.retainedMessages('svc.events.encounterPair'), user: bus.retainedMessages('svc.events.user') };
    await bus.close();
    await reads.close();
    await events.close();
    rmSync(dir, { recursive: true, force: true });
    expect(onTheBus).toEqual({ encounterPair: 0, user: 1 });
  });
});
