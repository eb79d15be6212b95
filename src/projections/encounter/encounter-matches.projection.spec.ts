import { EmbeddedReadStore } from '../../infrastructure/read-store/embedded/embedded-read-store';
import {
  ENCOUNTER_MATCH_VIEWS,
  ENCOUNTER_MATCHES,
  type EncounterMatchViewDoc,
  encounterMatchesProjection as projection,
  mapPinsOfUser,
  matchesOfUser,
  toMapPin,
  toMatchView,
} from './encounter-matches.projection';
import type { Icebreaker, IcebreakerStatus } from '../../aggregates/encounter/encounter.events';
import { applyAll, recorded } from '../../../test/support/projection-kit';

const pending: Icebreaker = { status: 'pending', text: null, sent_at: null, decline_reason: null };
function bound(matchId: string, a: string, b: string, opts: { at: string; first?: string; count?: number; lat?: number | null; statuses?: [IcebreakerStatus, IcebreakerStatus] }) {
  return recorded('MatchBound', {
    match_id: matchId,
    context_type: 'ble',
    context_id: `ctx-${matchId}`,
    user_a_id: a,
    user_b_id: b,
    sighting_ids: ['sight_1', 'sight_2'],
    lat: opts.lat === undefined ? 52.5 : opts.lat,
    lng: opts.lat === null ? null : 13.4,
    encounter_count: opts.count ?? 1,
    bond_level: 1,
    is_mutual_aware: true,
    created: (opts.count ?? 1) === 1,
    first_at: opts.first ?? opts.at,
    latest_at: opts.at,
    icebreaker_a_status: opts.statuses?.[0] ?? 'pending',
    icebreaker_b_status: opts.statuses?.[1] ?? 'pending',
    map_pin_visible: true,
  });
}
const sent: Icebreaker = { status: 'sent', text: 'hi there', sent_at: 1775779200, decline_reason: null };
const declined: Icebreaker = { status: 'declined', text: null, sent_at: null, decline_reason: 'busy' };
const change = (matchId: string, a: string, b: string, side: 'a' | 'b', ia: Icebreaker, ib: Icebreaker) => ({
  match_id: matchId,
  user_a_id: a,
  user_b_id: b,
  side,
  user_id: side === 'a' ? a : b,
  icebreaker_a: ia,
  icebreaker_b: ib,
});
const sentBy = (matchId: string, a: string, b: string, side: 'a' | 'b', ia: Icebreaker, ib: Icebreaker) =>
  recorded('IcebreakerSent', { ...change(matchId, a, b, side, ia, ib), text: 'hi there', sent_at: '2026-04-10T00:00:00.000Z' });
const declinedBy = (matchId: string, a: string, b: string, side: 'a' | 'b', ia: Icebreaker, ib: Icebreaker) =>
  recorded('IcebreakerDeclined', { ...change(matchId, a, b, side, ia, ib), reason: 'busy', declined_at: '2026-04-10T00:00:00.000Z' });

const views = (store: EmbeddedReadStore) => store.collection<EncounterMatchViewDoc>(ENCOUNTER_MATCH_VIEWS);
async function matchesOf(store: EmbeddedReadStore, user: string) {
  const q = matchesOfUser(user);
  return (await views(store).find(q.filter, q.options)).map(toMatchView);
}
async function pinsOf(store: EmbeddedReadStore, user: string) {
  const q = mapPinsOfUser(user);
  return (await views(store).find(q.filter, q.options)).map(toMapPin);
}

describe('encounterMatches projection', () => {
  it('given a match, then one match row with pending sides and one view per user', async () => {
    const store = new EmbeddedReadStore({ file: null });
    await applyAll(projection, store, bound('match_1', 'ua', 'ub', { at: '2026-04-10T00:00:00.000Z' }));
    expect(await store.collection(ENCOUNTER_MATCHES).findOne({ _id: 'match_1' })).toMatchObject({
      user_a_id: 'ua',
      user_b_id: 'ub',
      context_type: 'ble',
      context_id: 'ctx-match_1',
      encounter_count: 1,
      bond_level: 1,
      is_mutual_aware: true,
      lat: 52.5,
      lng: 13.4,
      first_at: '2026-04-10T00:00:00.000Z',
      latest_at: '2026-04-10T00:00:00.000Z',
      payload: { icebreaker_a: pending, icebreaker_b: pending, map_pin_visible: true },
    });
    const view = {
      id: 'match_1',
      user_a: 'ua',
      user_b: 'ub',
      lat: 52.5,
      lng: 13.4,
      matched_at: 1775779200,
      icebreaker_a_status: 'pending',
      icebreaker_b_status: 'pending',
      map_pin_visible: true,
    };
    expect(await matchesOf(store, 'ua')).toEqual([view]);
    expect(await matchesOf(store, 'ub')).toEqual([view]);
    expect(await matchesOf(store, 'uc')).toEqual([]);
    expect(await views(store).findOne({ _id: 'ua:match_1' })).toMatchObject({ user_id: 'ua', match_id: 'match_1', latest_at: '2026-04-10T00:00:00.000Z' });
  });

  it('given icebreakers then a re-bind, then both sides follow the events and the re-bind keeps them', async () => {
    const store = new EmbeddedReadStore({ file: null });
    await applyAll(
      projection,
      store,
      bound('match_2', 'ua', 'ub', { at: '2026-04-10T00:00:00.000Z' }),
      sentBy('match_2', 'ua', 'ub', 'a', sent, pending),
      declinedBy('match_2', 'ua', 'ub', 'b', sent, declined),
      bound('match_2', 'ua', 'ub', { at: '2026-04-11T00:00:00.000Z', first: '2026-04-10T00:00:00.000Z', count: 2, statuses: ['sent', 'declined'] }),
    );
    expect(await store.collection(ENCOUNTER_MATCHES).findOne({ _id: 'match_2' })).toMatchObject({
      encounter_count: 2,
      first_at: '2026-04-10T00:00:00.000Z',
      latest_at: '2026-04-11T00:00:00.000Z',
      payload: { icebreaker_a: sent, icebreaker_b: declined, map_pin_visible: true },
    });
    expect(await matchesOf(store, 'ub')).toEqual([
      expect.objectContaining({ id: 'match_2', matched_at: 1775779200, icebreaker_a_status: 'sent', icebreaker_b_status: 'declined' }),
    ]);
    expect(await store.collection(ENCOUNTER_MATCH_VIEWS).countDocuments({})).toBe(2);
  });

  it('given several matches, then a user sees only theirs, latest first, and pins only those with coordinates', async () => {
    const store = new EmbeddedReadStore({ file: null });
    await applyAll(
      projection,
      store,
      bound('match_3', 'u1', 'u2', { at: '2026-04-10T00:00:00.000Z' }),
      bound('match_4', 'u1', 'u3', { at: '2026-04-12T00:00:00.000Z', lat: null }),
      bound('match_5', 'u0', 'u1', { at: '2026-04-11T00:00:00.000Z' }),
      bound('match_6', 'u2', 'u3', { at: '2026-04-13T00:00:00.000Z' }),
    );
    expect((await matchesOf(store, 'u1')).map((m) => m.id)).toEqual(['match_4', 'match_5', 'match_3']);
    expect(await pinsOf(store, 'u1')).toEqual([
      { match_id: 'match_5', lat: 52.5, lng: 13.4, matched_at: 1775865600 },
      { match_id: 'match_3', lat: 52.5, lng: 13.4, matched_at: 1775779200 },
    ]);
  });

  it('given an icebreaker for an unknown match, then no half row is invented', async () => {
    const store = new EmbeddedReadStore({ file: null });
    await applyAll(projection, store, sentBy('match_x', 'ua', 'ub', 'a', sent, pending));
    expect(await store.collection(ENCOUNTER_MATCHES).countDocuments({})).toBe(0);
    expect(await store.collection(ENCOUNTER_MATCH_VIEWS).countDocuments({})).toBe(0);
  });

  it('given swipes, then nothing is written (a one-sided like is never observable)', async () => {
    const store = new EmbeddedReadStore({ file: null });
    expect(projection.eventTypes).not.toContain('SwipeLiked');
    await applyAll(projection, store, recorded('SwipeLiked', { sighting_id: 's', owner_user_id: 'ua', peer_user_id: 'ub', sighted_at: 't', lat: null, lng: null, swiped_at: 't', match_id: null }));
    expect(await store.collection(ENCOUNTER_MATCHES).countDocuments({})).toBe(0);
    expect(await store.collection(ENCOUNTER_MATCH_VIEWS).countDocuments({})).toBe(0);
  });

  it('given a match and an opener, when replayed and redelivered, then an older event never undoes a newer one', async () => {
    const store = new EmbeddedReadStore({ file: null });
    const events = [
      bound('match_7', 'ua', 'ub', { at: '2026-04-10T00:00:00.000Z' }),
      sentBy('match_7', 'ua', 'ub', 'a', sent, pending),
    ];
    await applyAll(projection, store, ...events);
    const row = await store.collection(ENCOUNTER_MATCHES).findOne({ _id: 'match_7' });
    const viewRows = await views(store).find({}, { sort: { _id: 1 } });
    await applyAll(projection, store, ...events);
    await applyAll(projection, store, events[0]);
    expect(await store.collection(ENCOUNTER_MATCHES).findOne({ _id: 'match_7' })).toEqual(row);
    expect(await views(store).find({}, { sort: { _id: 1 } })).toEqual(viewRows);
    expect(row).toMatchObject({ payload: { icebreaker_a: sent } });
  });
});
