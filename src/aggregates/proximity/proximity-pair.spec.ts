import { deciderKit } from '../../../test/support/decider-kit';
import { proximityPairDecider, proximityPairStreamId, type ProximityPairCommand } from './proximity-pair';

const t0 = new Date('2026-11-23T10:00:00.000Z');
const at = (sec: number) => new Date(t0.getTime() + sec * 1000);
const { given, history } = deciderKit(proximityPairDecider, t0);
const detect = (meters = 40, id = 'pm1'): ProximityPairCommand => ({ kind: 'detect', userIds: ['bob', 'ann'], distanceMeters: meters, newMatchId: id });

describe('proximity pair', () => {
  it('given no match, when the pair is seen 40 m apart, then a match of the sorted pair lives 4 h', () =>
    given()
      .when(detect())
      .then({
        type: 'ProximityMatched',
        data: { match_id: 'pm1', user_a_id: 'ann', user_b_id: 'bob', distance_bucket: '~50m away', detected_at: t0.toISOString(), expires_at: at(4 * 3600).toISOString() },
      }));

  it('given more than 100 m, then no match', () => given().when(detect(101)).thenNothing());

  it('given a match under 4 h old, then no new match; at 4 h a new one', () => {
    const past = history(detect());
    given(...past).when(detect(40, 'pm2'), at(4 * 3600 - 1)).thenNothing();
    expect(given(...past).when(detect(80, 'pm2'), at(4 * 3600)).events()[0].data).toMatchObject({ match_id: 'pm2', distance_bucket: '~100m away' });
  });

  it('the pair has one stream whoever pinged', () => expect(proximityPairStreamId('bob', 'ann')).toBe(proximityPairStreamId('ann', 'bob')));
});

describe('proximity reveal', () => {
  const reveal = (callerId: string, matchId = 'pm1'): ProximityPairCommand => ({ kind: 'reveal', matchId, callerId });
  const matched = history(detect());

  it('given a pending match, when one side reveals, then its side is revealed; when the other does, then matched', () => {
    const first = given(...matched).when(reveal('bob')).events();
    expect(first.map((e) => e.data)).toEqual([{ match_id: 'pm1', user_a_id: 'ann', user_b_id: 'bob', by: 'bob', status: 'revealed_b', at: t0.toISOString() }]);
    expect(given(...matched, ...first).when(reveal('ann')).events()[0].data).toMatchObject({ status: 'matched', by: 'ann' });
  });

  it.each([
    ['an unknown match', [] as string[], reveal('ann', 'other'), 'Match not found or expired'],
    ['someone outside the pair', [], reveal('eve'), 'Not your match'],
    ['a side that already revealed', ['ann'], reveal('ann'), 'Already revealed'],
    ['a matched pair', ['ann', 'bob'], reveal('ann'), 'Already matched'],
  ])('given %s, when revealing, then 400 with its text', (_name, revealed, command, message) => {
    const past = history(detect(), ...revealed.map((who) => reveal(who)));
    given(...past).when(command).thenRefused('invalid', message);
  });

  it('given a match 4 h old, when revealing, then it has expired', () => given(...matched).when(reveal('ann'), at(4 * 3600)).thenRefused('invalid', 'Match not found or expired'));
});
