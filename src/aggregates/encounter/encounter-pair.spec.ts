import { createHash } from 'node:crypto';
import { deciderKit } from '../../../test/support/decider-kit';
import { DomainError } from '../shared/domain-error';
import {
  bleContextId,
  bondLevel,
  encounterPairDecider,
  icebreakerText,
  pairMatchView,
  type EncounterPairCommand,
} from './encounter-pair';
import { DEFAULT_ENCOUNTER_LIMITS } from './encounter-limits';
import type { EncounterPairEvent, MatchBound, SightingRecorded } from './encounter.events';

const limits = DEFAULT_ENCOUNTER_LIMITS;
const t0 = new Date('2026-06-01T10:00:00.000Z');
const at = (sec: number) => new Date(t0.getTime() + sec * 1000);
const now = at(3600);

type Sighting = SightingRecorded['data'];
type Coordinates = { lat: number | null; lng: number | null };

/** alice sorts first: side a; bob is side b. */
function sighting(id: string, owner: string, peer: string, offsetSec: number, coordinates: Coordinates = { lat: 52, lng: 13 }): Sighting {
  return {
    sighting_id: id,
    owner_user_id: owner,
    peer_user_id: peer,
    peer_pubkey_digest: 'd'.repeat(64),
    rssi_peak: -60,
    dwell_sec: 30,
    ...coordinates,
    sighted_at: at(offsetSec).toISOString(),
    expires_at: at(offsetSec + limits.sightingExpiresSec).toISOString(),
    avatar_style: 'studio_ghibli',
    vibe_tags: [],
    face_visible: false,
  };
}
const byAlice = (id: string, offsetSec: number, coordinates?: Coordinates) => sighting(id, 'alice', 'bob', offsetSec, coordinates);
const byBob = (id: string, offsetSec: number, coordinates?: Coordinates) => sighting(id, 'bob', 'alice', offsetSec, coordinates);

const like = (s: Sighting, newMatchId = 'match_1'): EncounterPairCommand => ({
  kind: 'swipe',
  sighting: s,
  callerId: s.owner_user_id,
  decision: 'like',
  newMatchId,
  limits,
});
const dislike = (s: Sighting): EncounterPairCommand => ({ ...(like(s) as Extract<EncounterPairCommand, { kind: 'swipe' }>), decision: 'dislike' });
const approve = (callerId: string, text: string, matchId = 'match_1'): EncounterPairCommand => ({
  kind: 'approveIcebreaker',
  matchId,
  callerId,
  text,
  limits,
});
const decline = (callerId: string, reason?: string | null, matchId = 'match_1'): EncounterPairCommand => ({
  kind: 'declineIcebreaker',
  matchId,
  callerId,
  reason,
});

const { given, after, history } = deciderKit(encounterPairDecider, now);
type Decided = { events(): EncounterPairEvent[] };
/** The types of the events a command records. */
const types = (result: Decided) => result.events().map((e) => e.type);
/** The MatchBound a command records. */
const bound = (result: Decided): MatchBound['data'] => {
  const event = result.events().find((e): e is MatchBound => e.type === 'MatchBound');
  if (!event) throw new Error('no MatchBound');
  return event.data;
};

const s1 = byAlice('sight_a1', 0, { lat: 52, lng: 13 });
const s2 = byBob('sight_b1', 60, { lat: 54, lng: 15 });
/** The past of a fresh match: alice's like, then bob's. */
const matched = () => history(like(s1), like(s2));

describe('encounter pair', () => {
  describe('swipe', () => {
    it('given no swipes, when liking, then only SwipeLiked without a match is recorded (one-sided like)', () => {
      given().when(like(s1)).then({
        type: 'SwipeLiked',
        data: {
          sighting_id: 'sight_a1',
          owner_user_id: 'alice',
          peer_user_id: 'bob',
          sighted_at: s1.sighted_at,
          lat: 52,
          lng: 13,
          swiped_at: now.toISOString(),
          match_id: null,
        },
      });
    });

    it('given no swipes, when disliking, then SwipeDisliked is recorded', () => {
      given().when(dislike(s1)).then({
        type: 'SwipeDisliked',
        data: {
          sighting_id: 'sight_a1',
          owner_user_id: 'alice',
          peer_user_id: 'bob',
          sighted_at: s1.sighted_at,
          swiped_at: now.toISOString(),
        },
      });
    });

    it("given the caller's own earlier like, when liking again, then it is no reciprocal (no match)", () => {
      expect(types(given(...history(like(s1))).when(like(byAlice('sight_a2', 30))))).toEqual(['SwipeLiked']);
    });

    it('given a reciprocal like inside the window, when liking, then the match is created', () => {
      const [a, b] = ['sight_a1', 'sight_b1'];
      given(...history(like(s1))).when(like(s2, 'match_1')).then({
        type: 'SwipeLiked',
        data: {
          sighting_id: b,
          owner_user_id: 'bob',
          peer_user_id: 'alice',
          sighted_at: s2.sighted_at,
          lat: 54,
          lng: 15,
          swiped_at: now.toISOString(),
          match_id: 'match_1',
        },
      },
      {
        type: 'MatchBound',
        data: {
          match_id: 'match_1',
          context_type: 'ble',
          context_id: `ble_${createHash('sha256').update(`${a}:${b}`).digest('hex').slice(0, 32)}`,
          user_a_id: 'alice',
          user_b_id: 'bob',
          sighting_ids: [a, b],
          lat: 53,
          lng: 14,
          encounter_count: 1,
          bond_level: 1,
          is_mutual_aware: true,
          created: true,
          first_at: now.toISOString(),
          latest_at: now.toISOString(),
          icebreaker_a_status: 'pending',
          icebreaker_b_status: 'pending',
          map_pin_visible: true,
        },
      });
    });

    it("given a reciprocal like sighted later than the caller's sighting, when liking, then it binds too (either direction)", () => {
      expect(types(given(...history(like(s2))).when(like(byAlice('sight_a9', 120))))).toEqual(['SwipeLiked', 'MatchBound']);
    });

    it.each([
      ['before', -300],
      ['after', 300],
    ])('given a reciprocal like exactly the window %s, when liking, then it binds (inclusive)', (_label, offset) => {
      expect(types(given(...history(like(s1))).when(like(byBob('sight_b2', offset))))).toEqual(['SwipeLiked', 'MatchBound']);
    });

    it.each([
      ['before', -301],
      ['after', 301],
    ])('given a reciprocal like one second outside the window %s, when liking, then nothing binds', (_label, offset) => {
      given(...history(like(s1)))
        .when(like(byBob('sight_b2', offset)))
        .then(expect.objectContaining({ type: 'SwipeLiked', data: expect.objectContaining({ match_id: null }) }));
    });

    it('given a configured window of 10 s, when the reciprocal is 11 s away, then nothing binds', () => {
      const command = { ...(like(byBob('sight_b2', 11)) as Extract<EncounterPairCommand, { kind: 'swipe' }>) };
      command.limits = { ...limits, matchWindowSec: 10 };
      expect(types(given(...history(like(s1))).when(command))).toEqual(['SwipeLiked']);
    });

    it('given a reciprocal dislike, when liking, then nothing binds', () => {
      expect(types(given(...history(dislike(s1))).when(like(s2)))).toEqual(['SwipeLiked']);
    });

    it("given a reciprocal dislike, when liking, then the answer equals the one without any peer swipe (the dislike is not revealed)", () => {
      expect(given(...history(dislike(s1))).when(like(s2)).events()).toEqual(given().when(like(s2)).events());
    });

    it('given several reciprocal likes in the window, when liking, then the closest in time is bound', () => {
      const past = history(like(byAlice('sight_far', -200)), like(byAlice('sight_near', 50)));
      expect(bound(given(...past).when(like(byBob('sight_b1', 0)))).sighting_ids).toEqual(['sight_b1', 'sight_near']);
    });

    it('given two reciprocal likes equally close, when liking, then the later one is bound', () => {
      const past = history(like(byAlice('sight_late', 40)), like(byAlice('sight_early', -40)));
      expect(bound(given(...past).when(like(byBob('sight_b1', 0)))).sighting_ids).toEqual(['sight_b1', 'sight_late']);
    });

    it('given interleaved likes (A, then B deciding on the state after A), then exactly one MatchBound results', () => {
      const likeA = given().when(like(s1, 'match_A')).events();
      const likeB = given(...likeA).when(like(s2, 'match_B'));
      expect(types({ events: () => [...likeA, ...likeB.events()] }).filter((type) => type === 'MatchBound')).toHaveLength(1);
      expect(bound(likeB)).toMatchObject({ match_id: 'match_B', created: true });
    });

    it('given the likes in the opposite order, when B likes first, then the match binds on A\'s like', () => {
      expect(bound(given(...history(like(s2))).when(like(s1, 'match_A')))).toMatchObject({ match_id: 'match_A', user_a_id: 'alice' });
    });

    it('given a like with or without a reciprocal, when comparing the SwipeLiked events, then only match_id differs (rule 4)', () => {
      const lonely = given().when(like(s2)).events()[0].data;
      const mutual = given(...history(like(s1))).when(like(s2)).events()[0].data;
      expect({ ...mutual, match_id: null }).toEqual(lonely);
    });
  });

  describe('re-binding', () => {
    const later = () => byAlice('sight_a2', 3000, { lat: 50, lng: 10 });
    const laterPeer = () => byBob('sight_b2', 3100, { lat: 52, lng: 12 });
    const rebound = () => bound(given(...history(like(s1), like(s2), like(later()))).when(like(laterPeer(), 'match_other'), at(4000)));

    it('given a match, when another mutual like binds, then the same row is re-bound (same id and context)', () => {
      const first = bound(given(...history(like(s1))).when(like(s2)));
      expect(rebound()).toMatchObject({ match_id: 'match_1', context_id: first.context_id, created: false });
    });

    it('given a match, when re-bound, then the count goes up, the bond level follows, and first_at stays', () => {
      expect(rebound()).toMatchObject({
        encounter_count: 2,
        bond_level: 1,
        first_at: now.toISOString(),
        latest_at: at(4000).toISOString(),
        sighting_ids: ['sight_a2', 'sight_b2'],
        is_mutual_aware: true,
      });
    });

    it('given a match re-bound many times, when evolving, then the bond level follows the count', () => {
      let past = matched();
      for (let i = 0; i < 4; i += 1) {
        const base = 10000 * (i + 1);
        for (const command of [like(byAlice(`a${i}`, base)), like(byBob(`b${i}`, base + 1))]) {
          past = [...past, ...given(...past).when(command, at(base + 2)).events()];
        }
      }
      expect(given(...past).state().match).toMatchObject({ encounterCount: 5, bondLevel: 3, matchId: 'match_1' });
    });

    it('given a sent icebreaker and a hidden pin, when re-bound, then both are kept', () => {
      const hidden = history(like(s1), like(s2), approve('alice', 'hi'), like(later())).map((e) =>
        e.type === 'MatchBound' ? { ...e, data: { ...e.data, map_pin_visible: false } } : e,
      );
      const rebinding = given(...hidden).when(like(laterPeer()), at(4000));
      expect(bound(rebinding)).toMatchObject({ icebreaker_a_status: 'sent', icebreaker_b_status: 'pending', map_pin_visible: false });
      expect(rebinding.state().match?.icebreakers.a).toMatchObject({ status: 'sent', text: 'hi' });
    });
  });

  describe('coordinates', () => {
    it('given both sightings with coordinates, when binding, then the match lies at their midpoint', () => {
      expect(bound(given(...history(like(s1))).when(like(s2)))).toMatchObject({ lat: 53, lng: 14 });
    });

    it('given one sighting without coordinates, when creating, then lat and lng are null', () => {
      const noPlace = byBob('sight_b1', 60, { lat: null, lng: null });
      expect(bound(given(...history(like(s1))).when(like(noPlace)))).toMatchObject({ lat: null, lng: null });
    });

    it('given a sighting with only lat, when creating, then lat and lng are null', () => {
      const half = byBob('sight_b1', 60, { lat: 54, lng: null });
      expect(bound(given(...history(like(s1))).when(like(half)))).toMatchObject({ lat: null, lng: null });
    });

    it('given a located match, when re-bound without coordinates, then the previous coordinates stay', () => {
      const past = history(like(s1), like(s2), like(byAlice('sight_a2', 3000, { lat: null, lng: null })));
      expect(bound(given(...past).when(like(byBob('sight_b2', 3010))))).toMatchObject({ lat: 53, lng: 14 });
    });

    it('given a located match, when re-bound with new coordinates, then the new midpoint is used', () => {
      const past = history(like(s1), like(s2), like(byAlice('sight_a2', 3000, { lat: 40, lng: 0 })));
      expect(bound(given(...past).when(like(byBob('sight_b2', 3010, { lat: 42, lng: 2 }))))).toMatchObject({ lat: 41, lng: 1 });
    });
  });

  describe('swipe errors, in order', () => {
    it("given nothing, when swiping someone else's sighting, then 404 sighting not found", () => {
      given().when({ ...(like(s1) as Extract<EncounterPairCommand, { kind: 'swipe' }>), callerId: 'bob' }).thenRefused(
        'not_found',
        'sighting not found',
      );
    });

    it("given an expired, swiped sighting of someone else, when swiping it, then 404 comes first", () => {
      const command = { ...(like(s1) as Extract<EncounterPairCommand, { kind: 'swipe' }>), callerId: 'mallory' };
      given(...history(like(s1))).when(command, at(limits.sightingExpiresSec + 10)).thenRefused('not_found', 'sighting not found');
    });

    it('given a sighting, when swiping exactly at expires_at, then 410 sighting expired', () => {
      given().when(like(s1), at(limits.sightingExpiresSec)).thenRefused('gone', 'sighting expired');
    });

    it('given a sighting, when swiping one millisecond before expires_at, then it is accepted', () => {
      const time = new Date(at(limits.sightingExpiresSec).getTime() - 1);
      expect(types(given().when(like(s1), time))).toEqual(['SwipeLiked']);
    });

    it('given an expired, already swiped sighting, when swiping again, then 410 comes before 409', () => {
      given(...history(like(s1))).when(like(s1), at(limits.sightingExpiresSec)).thenRefused('gone', 'sighting expired');
    });

    it('given a liked sighting, when swiping it again, then 409 already swiped', () => {
      given(...history(like(s1))).when(dislike(s1)).thenRefused('conflict', 'already swiped');
    });

    it('given a disliked sighting, when liking it, then 409 already swiped', () => {
      given(...history(dislike(s1))).when(like(s1)).thenRefused('conflict', 'already swiped');
    });
  });

  describe('approve icebreaker', () => {
    it('given a match, when side a approves, then IcebreakerSent carries the trimmed text and both sides after it', () => {
      given(...matched()).when(approve('alice', '  Hi there!  ')).then({
        type: 'IcebreakerSent',
        data: {
          match_id: 'match_1',
          user_a_id: 'alice',
          user_b_id: 'bob',
          side: 'a',
          user_id: 'alice',
          icebreaker_a: { status: 'sent', text: 'Hi there!', sent_at: Math.floor(now.getTime() / 1000), decline_reason: null },
          icebreaker_b: { status: 'pending', text: null, sent_at: null, decline_reason: null },
          text: 'Hi there!',
          sent_at: now.toISOString(),
        },
      });
    });

    it('given a match, when bob approves, then it is side b', () => {
      expect(given(...matched()).when(approve('bob', 'hey')).events()[0].data).toMatchObject({
        side: 'b',
        user_id: 'bob',
        icebreaker_a: { status: 'pending' },
        icebreaker_b: { status: 'sent', text: 'hey' },
      });
    });

    it.each([['empty', ''], ['blank', '   \n ']])('given no match, when the text is %s, then 400 text required (before 404)', (_l, text) => {
      given().when(approve('mallory', text)).thenRefused('invalid', 'text required');
    });

    it('given no match, when the text is too long, then 413 names the limit (before 404)', () => {
      given().when(approve('mallory', 'x'.repeat(221))).thenRefused('too_large', 'text exceeds 220 chars');
    });

    it('given a match, when the text is exactly the limit in code points, then it is accepted', () => {
      expect(types(given(...matched()).when(approve('alice', '😀'.repeat(220))))).toEqual(['IcebreakerSent']);
    });

    it('given a match, when the text is over a configured limit of 5, then 413 names 5', () => {
      const command = { ...(approve('alice', 'abcdef') as Extract<EncounterPairCommand, { kind: 'approveIcebreaker' }>) };
      command.limits = { ...limits, draftMaxChars: 5 };
      given(...matched()).when(command).thenRefused('too_large', 'text exceeds 5 chars');
    });

    it('given a text, when checking it alone, then icebreakerText trims it or refuses it like approve does', () => {
      expect(icebreakerText('  hi  ', limits)).toBe('hi');
      expect(() => icebreakerText(' ', limits)).toThrow(new DomainError('invalid', 'text required'));
      expect(() => icebreakerText(42, limits)).toThrow(new DomainError('invalid', 'text required'));
      expect(() => icebreakerText('abc', { draftMaxChars: 2 })).toThrow(new DomainError('too_large', 'text exceeds 2 chars'));
    });

    it('given no match, when approving, then 404 match not found', () => {
      given(...history(like(s1))).when(approve('alice', 'hi')).thenRefused('not_found', 'match not found');
    });

    it('given a match, when approving another match id, then 404', () => {
      given(...matched()).when(approve('alice', 'hi', 'match_x')).thenRefused('not_found', 'match not found');
    });

    it('given a match, when a non-participant approves, then 404', () => {
      given(...matched()).when(approve('mallory', 'hi')).thenRefused('not_found', 'match not found');
    });

    it('given a sent side, when approving again, then 409 icebreaker already sent', () => {
      given(...history(like(s1), like(s2), approve('alice', 'hi'))).when(approve('alice', 'again')).thenRefused(
        'conflict',
        'icebreaker already sent',
      );
    });

    it('given a declined side, when approving, then 409 icebreaker already declined', () => {
      given(...history(like(s1), like(s2), decline('alice'))).when(approve('alice', 'hi')).thenRefused('conflict', 'icebreaker already declined');
    });

    it("given one side sent, when the other side approves, then it is accepted and both sides are in the event", () => {
      const data = given(...history(like(s1), like(s2), approve('alice', 'hi'))).when(approve('bob', 'yo')).events()[0].data;
      expect(data).toMatchObject({ icebreaker_a: { status: 'sent', text: 'hi' }, icebreaker_b: { status: 'sent', text: 'yo' } });
    });
  });

  describe('decline icebreaker', () => {
    it('given a pending side, when declining with a reason, then IcebreakerDeclined stores it', () => {
      given(...matched()).when(decline('bob', '  not now  ')).then({
        type: 'IcebreakerDeclined',
        data: {
          match_id: 'match_1',
          user_a_id: 'alice',
          user_b_id: 'bob',
          side: 'b',
          user_id: 'bob',
          icebreaker_a: { status: 'pending', text: null, sent_at: null, decline_reason: null },
          icebreaker_b: { status: 'declined', text: null, sent_at: null, decline_reason: 'not now' },
          reason: 'not now',
          declined_at: now.toISOString(),
        },
      });
    });

    it.each([
      ['missing', undefined],
      ['null', null],
      ['blank', '   '],
    ])('given a pending side, when the reason is %s, then decline_reason is null', (_l, reason) => {
      expect(given(...matched()).when(decline('alice', reason)).events()[0].data).toMatchObject({
        reason: null,
        icebreaker_a: { status: 'declined', decline_reason: null },
      });
    });

    it('given a pending side, when the reason is longer than 400 code points, then it is cut to 400', () => {
      const data = given(...matched()).when(decline('alice', 'é'.repeat(450))).events()[0].data;
      expect(data).toMatchObject({ reason: 'é'.repeat(400) });
    });

    it('given a sent side, when declining, then it is declined and keeps its text and sent_at', () => {
      expect(given(...history(like(s1), like(s2), approve('alice', 'hi'))).when(decline('alice', 'changed my mind')).events()[0].data).toMatchObject({
        icebreaker_a: {
          status: 'declined',
          text: 'hi',
          sent_at: Math.floor(now.getTime() / 1000),
          decline_reason: 'changed my mind',
        },
      });
    });

    it('given a declined side, when declining again, then nothing new is recorded', () => {
      given(...history(like(s1), like(s2), decline('alice'))).when(decline('alice', 'again')).thenNothing();
    });

    it('given no match, when declining, then 404 match not found', () => {
      given().when(decline('alice')).thenRefused('not_found', 'match not found');
    });

    it('given a match, when a non-participant declines, then 404', () => {
      given(...matched()).when(decline('mallory')).thenRefused('not_found', 'match not found');
    });

    it('given a match, when declining another match id, then 404', () => {
      given(...matched()).when(decline('alice', null, 'match_x')).thenRefused('not_found', 'match not found');
    });
  });

  describe('state and helpers', () => {
    it('given a match with a sent side, when viewing, then the SPEC match view is shown', () => {
      expect(pairMatchView(after(like(s1), like(s2), approve('bob', 'hey')))).toEqual({
        id: 'match_1',
        user_a: 'alice',
        user_b: 'bob',
        lat: 53,
        lng: 14,
        matched_at: Math.floor(now.getTime() / 1000),
        icebreaker_a_status: 'pending',
        icebreaker_b_status: 'sent',
        map_pin_visible: true,
      });
    });

    it('given no match, when viewing, then null', () => {
      expect(pairMatchView(after(like(s1)))).toBeNull();
    });

    it('given swipes, when evolving, then each is kept by sighting id', () => {
      expect(after(like(s1), dislike(s2)).swipes).toEqual({
        sight_a1: { decision: 'like', owner: 'alice', peer: 'bob', sightedAt: s1.sighted_at, lat: 52, lng: 13 },
        sight_b1: { decision: 'dislike', owner: 'bob', peer: 'alice', sightedAt: s2.sighted_at, lat: null, lng: null },
      });
    });

    it.each([
      [0, 1],
      [1, 1],
      [2, 1],
      [4, 1],
      [5, 3],
      [9, 3],
      [10, 5],
      [19, 5],
      [20, 7],
      [49, 7],
      [50, 8],
      [52, 10],
      [1000, 10],
    ])('bondLevel(%i) = %i', (count, level) => {
      expect(bondLevel(count)).toBe(level);
    });

    it('bleContextId does not depend on the order of the ids', () => {
      expect(bleContextId(['b', 'a'])).toBe(bleContextId(['a', 'b']));
      expect(bleContextId(['a', 'b'])).toMatch(/^ble_[0-9a-f]{32}$/);
    });
  });
});
