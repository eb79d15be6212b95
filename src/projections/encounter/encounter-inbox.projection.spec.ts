import { EmbeddedReadStore } from '../../infrastructure/read-store/embedded/embedded-read-store';
import { applyAll, recorded } from '../../../test/support/projection-kit';
import { ENCOUNTER_INBOX, type EncounterInboxDoc, encounterInboxProjection as projection, inboxAfter } from './encounter-inbox.projection';

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
const enabled = (user: string) =>
  recorded('DiscoverableEnabled', {
    user_id: user,
    age_claim_18: true,
    face_visible: false,
    avatar_style: 'pixel',
    vibe_tags: [],
    enabled_at: 't',
    expires_at: 't',
    ttl_sec: 14400,
    toggle_count_24h: 1,
    toggle_window_start: 't',
    last_toggle_at: 't',
  });

async function inboxOf(store: EmbeddedReadStore, user: string, after = 0): Promise<EncounterInboxDoc[]> {
  const q = inboxAfter(user, after, 100);
  return store.collection<EncounterInboxDoc>(ENCOUNTER_INBOX).find(q.filter, q.options);
}

/** ua likes ub, ub likes back (the match), ua turns discoverable (which tells nobody) */
async function givenAMutualLike() {
  const store = new EmbeddedReadStore({ file: null });
  const first = liked('ua', 'ub', null);
  const second = liked('ub', 'ua', 'match_1');
  const match = bound('match_1');
  await applyAll(projection, store, first, second, match, enabled('ua'));
  return { store, first, second, match };
}

describe('encounterInbox projection', () => {
  it('given a mutual like, then the first liker gets their swipe then the match, in log order', async () => {
    const { store, first, match } = await givenAMutualLike();
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
  });

  it('given a mutual like, then the other user gets only their own swipe and the match', async () => {
    const { store, second, match } = await givenAMutualLike();
    expect((await inboxOf(store, 'ub')).map((d) => [d.position, d.topic])).toEqual([
      [second.position, 'com.svc.encounter.swipe'],
      [match.position, 'com.svc.encounter.match'],
    ]);
  });

  it('given a mutual like, when a user resumes after a position, then only the later messages come', async () => {
    const { store, first, match } = await givenAMutualLike();
    expect((await inboxOf(store, 'ua', first.position)).map((d) => d.position)).toEqual([match.position]);
  });

  it('given a mutual like, then a user outside the pair has no messages', async () => {
    const { store } = await givenAMutualLike();
    expect(await inboxOf(store, 'uc')).toEqual([]);
  });

  it('given messages, when the events are replayed and redelivered, then there is still one document per user and event', async () => {
    const store = new EmbeddedReadStore({ file: null });
    const events = [liked('ua', 'ub', null), bound('match_2')];
    await applyAll(projection, store, ...events);
    const before = await store.collection(ENCOUNTER_INBOX).find({}, { sort: { _id: 1 } });
    await applyAll(projection, store, ...events);
    await applyAll(projection, store, events[1], events[0]);
    expect(before).toHaveLength(3);
    expect(await store.collection(ENCOUNTER_INBOX).find({}, { sort: { _id: 1 } })).toEqual(before);
  });
});
