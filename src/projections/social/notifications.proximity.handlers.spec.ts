import { recorded } from '../../../test/support/projection-kit';
import { notificationsOf } from './notification-rules';

describe('proximity notification rules', () => {
  it('given a proximity match, then both users are told, naming neither the other nor a place', () => {
    const event = recorded('ProximityMatched', {
      match_id: 'pm1',
      user_a_id: 'ann',
      user_b_id: 'bob',
      distance_bucket: '~50m away',
      detected_at: '2026-11-23T10:00:00.000Z',
      expires_at: '2026-11-23T14:00:00.000Z',
    });
    const told = notificationsOf(event);
    expect(told.map((n) => [n.user_id, n.type, n.source_user_id, n.target_type, n.target_id])).toEqual([
      ['ann', 'proximity_match', null, 'proximity_match', 'pm1'],
      ['bob', 'proximity_match', null, 'proximity_match', 'pm1'],
    ]);
    expect(told[0].message).not.toMatch(/bob|ann/);
  });
});
