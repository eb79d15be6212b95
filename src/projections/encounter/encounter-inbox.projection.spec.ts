import { BatchedProjectionWriter } from '../../infrastructure/projections/batched-writer';
import { EmbeddedReadStore } from '../../infrastructure/read-store/embedded/embedded-read-store';
import type { RecordedEvent } from '../../infrastructure/event-store/event-store.port';
import { ENCOUNTER_INBOX, type EncounterInboxDoc, encounterInboxProjection as projection, inboxAfter } from './encounter-inbox.projection';

async function apply(store: EmbeddedReadStore, ...events: RecordedEvent[]): Promise<void> {
  const writer = new BatchedProjectionWriter(store);
  for (const event of events) if (projection.eventTypes.includes(event.type)) await projection.apply(event, writer);
  await writer.flush();
}

let position = 100;
function recorded(type: string, data: Record<string, unknown>): RecordedEvent {
  position += 1;
  return {
    streamId: `encounterPair-ua_ub`,
    type,
    revision: 0,
    position,
    data: data as RecordedEvent['data'],
    recordedAt: '2026-04-10T00:00:00.000Z',
    metadata: { eventId: `e${position}`, correlationId: 'c', causationId: null, actor: 'a', nodeId: 'n', occurredAt: `2026-04-10T00:00:${String(position % 60).padStart(2, '0')}.000Z`, schemaVersion: 1 },
  };
}

const liked = (owner: string, peer: string, matchId: string | null) =>
  recorded('SwipeLiked', { sighting_id: `sight_${owner}`, owner_user_id: owner, peer_user_id: peer, sighted_at: 't', lat: null, lng: null, swiped_at: 't', match_id: matchId });
const bound = (matchId: string) =>
  recorded('MatchBound', {
    match_id: matchId,
    context_type: 'ble',
    context_id: 'ctx',
    user_a_id: 'ua',
    user_b_id: 'ub',
    sighting_ids: ['sight_ua', 'sight_ub'],
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

async function inboxOf(store: EmbeddedReadStore, user: string, after = 0): Promise<EncounterInboxDoc[]> {
  const q = inboxAfter(user, after, 100);
  return store.collection<EncounterInboxDoc>(ENCOUNTER_INBOX).find(q.filter, q.options);
}

describe('encounterInbox projection', () => {
  it('given a one-sided like, a reciprocal like and the match, then each user gets only their messages, in order', async () => {
    const store = new EmbeddedReadStore({ file: null });
    const first = liked('ua', 'ub', null);
    const second = liked('ub', 'ua', 'match_1');
    const match = bound('match_1');
    await apply(store, first, second, match, recorded('DiscoverableEnabled', { user_id: 'ua' }));
    const a = await inboxOf(store, 'ua');
    expect(a.map((d) => [d.position, d.topic])).toEqual([
      [first.position, 'com.svc.encounter.swipe'],
      [match.position, 'com.svc.encounter.match'],
    ]);
    expect(a[0]).toMatchObject({
      _id: `ua:${first.position}`,
      user_id: 'ua',
      user_topic: 'com.svc.encounter.swipe.ua',
      payload: { sighting_id: 'sight_ua', decision: 'like', match_id: null },
      at: first.metadata.occurredAt,
    });
    expect(a[1]).toMatchObject({ user_topic: 'com.svc.encounter.match.ua', payload: { id: 'match_1', user_a: 'ua', user_b: 'ub' } });
    const b = await inboxOf(store, 'ub');
    expect(b.map((d) => [d.position, d.topic])).toEqual([
      [second.position, 'com.svc.encounter.swipe'],
      [match.position, 'com.svc.encounter.match'],
    ]);
    expect(await inboxOf(store, 'ua', first.position)).toHaveLength(1);
    expect(await inboxOf(store, 'uc')).toEqual([]);
  });

  it('given the events replayed and redelivered, then there is still one document per user and event', async () => {
    const store = new EmbeddedReadStore({ file: null });
    const events = [liked('ua', 'ub', null), bound('match_2')];
    await apply(store, ...events);
    const before = await store.collection(ENCOUNTER_INBOX).find({}, { sort: { _id: 1 } });
    await apply(store, ...events);
    await apply(store, events[1], events[0]);
    expect(before).toHaveLength(3);
    expect(await store.collection(ENCOUNTER_INBOX).find({}, { sort: { _id: 1 } })).toEqual(before);
  });
});
