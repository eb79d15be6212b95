import type { BusMessage } from '../infrastructure/bus/message-bus.port';
import type { RecordedEvent } from '../infrastructure/event-store/event-store.port';
import { notificationsOf } from './encounter-notifications.relay';
import { streamMessageOf } from '../modules/encounter/stream/encounter-stream.service';

let position = 0;
function recorded(type: string, data: Record<string, unknown>): RecordedEvent {
  position += 1;
  return {
    streamId: 'encounterPair-ua_ub',
    type,
    revision: position - 1,
    position,
    data: data as RecordedEvent['data'],
    recordedAt: '2026-04-10T00:00:00.000Z',
    metadata: { eventId: `e${position}`, correlationId: 'c', causationId: null, actor: 'ub', nodeId: 'n', occurredAt: '2026-04-10T00:00:00.000Z', schemaVersion: 1 },
  };
}

const swipe = recorded('SwipeLiked', { sighting_id: 'sight_b', owner_user_id: 'ub', peer_user_id: 'ua', sighted_at: 't', lat: null, lng: null, swiped_at: 't', match_id: 'match_1' });
const match = recorded('MatchBound', {
  match_id: 'match_1',
  context_type: 'ble',
  context_id: 'ctx',
  user_a_id: 'ua',
  user_b_id: 'ub',
  sighting_ids: ['sight_a', 'sight_b'],
  lat: null,
  lng: null,
  encounter_count: 1,
  bond_level: 1,
  is_mutual_aware: true,
  created: true,
  first_at: '2026-04-10T00:00:00.000Z',
  latest_at: '2026-04-10T00:00:00.000Z',
  icebreaker_a_status: 'pending',
  icebreaker_b_status: 'pending',
  map_pin_visible: true,
});
const other = recorded('UserRegistered', { user_id: 'ua' });

function asReceived(topic: string, m: { key: string; value: unknown; headers?: Record<string, string> }): BusMessage {
  return { topic, partition: 0, offset: 0, key: m.key, value: JSON.parse(JSON.stringify(m.value)), headers: m.headers ?? {}, timestamp: 't' };
}

describe('encounter notifications on the bus', () => {
  it('given a like that made a match, then the swiper alone hears of the swipe and both of the match', () => {
    const byTopic = notificationsOf([swipe, match, other]);
    expect([...byTopic.keys()]).toEqual(['com.svc.encounter.swipe', 'com.svc.encounter.match']);
    expect(byTopic.get('com.svc.encounter.swipe')).toEqual([
      {
        key: 'ub',
        value: { id: String(swipe.position), topic: 'com.svc.encounter.swipe.ub', payload: { sighting_id: 'sight_b', decision: 'like', match_id: 'match_1' }, at: '2026-04-10T00:00:00.000Z' },
        headers: { 'correlation-id': swipe.metadata.correlationId, 'user-topic': 'com.svc.encounter.swipe.ub', 'event-type': 'SwipeLiked', 'event-id': swipe.metadata.eventId },
      },
    ]);
    expect(byTopic.get('com.svc.encounter.match')!.map((m) => [m.key, (m.value as { topic: string }).topic])).toEqual([
      ['ua', 'com.svc.encounter.match.ua'],
      ['ub', 'com.svc.encounter.match.ub'],
    ]);
  });

  it('given a published message, then the consumer reads back the user and the stream message', () => {
    const [first] = notificationsOf([match]).get('com.svc.encounter.match')!;
    expect(streamMessageOf(asReceived('com.svc.encounter.match', first))).toEqual({
      userId: 'ua',
      message: {
        position: match.position,
        topic: 'com.svc.encounter.match',
        userTopic: 'com.svc.encounter.match.ua',
        payload: expect.objectContaining({ id: 'match_1', user_a: 'ua', user_b: 'ub' }),
        at: '2026-04-10T00:00:00.000Z',
      },
    });
  });

  it('given a message whose per-user topic names another user, or a foreign topic, then nobody gets it', () => {
    const [first] = notificationsOf([match]).get('com.svc.encounter.match')!;
    expect(streamMessageOf(asReceived('com.svc.encounter.match', { ...first, key: 'uc' }))).toBeNull();
    expect(streamMessageOf(asReceived('com.svc.encounter.swipe', first))).toBeNull();
    expect(streamMessageOf(asReceived('svc.events.user', first))).toBeNull();
    expect(streamMessageOf(asReceived('com.svc.encounter.match', { key: 'ua', value: { id: 'x', topic: 'com.svc.encounter.match.ua', payload: {}, at: 't' } }))).toBeNull();
  });
});
