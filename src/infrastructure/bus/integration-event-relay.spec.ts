import type { RecordedEvent } from '../event-store/event-store.port';
import { integrationTopic, toIntegrationMessage } from './integration-event-relay';

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
