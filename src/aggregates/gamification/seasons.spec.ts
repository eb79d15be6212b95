import { inSeason, seasonById, seasonOf } from './seasons';

describe('seasons', () => {
  it('given an instant, then its season is the calendar quarter of UTC', () => {
    expect(seasonOf(new Date('2026-12-07T12:00:00Z'))).toEqual({
      id: '2026-q4',
      name: 'Harvest 2026',
      description: expect.any(String),
      theme: 'harvest',
      starts_at: '2026-10-01T00:00:00.000Z',
      ends_at: '2026-12-31T23:59:59.999Z',
    });
    expect(seasonOf(new Date('2027-01-01T00:00:00Z')).id).toBe('2027-q1');
    expect(seasonOf(new Date('2026-03-31T23:59:59.999Z')).id).toBe('2026-q1');
  });

  it('given an id, then seasonById gives the same season back; anything else null', () => {
    expect(seasonById('2026-q2')).toEqual(seasonOf(new Date('2026-05-15T00:00:00Z')));
    for (const id of ['2026-q5', '2026-Q1', 'current', '26-q1', '2026-q1x']) expect(seasonById(id)).toBeNull();
  });

  it('then its window holds its first and last millisecond and nothing outside', () => {
    const q1 = seasonById('2026-q1')!;
    expect(inSeason(q1, new Date(q1.starts_at))).toBe(true);
    expect(inSeason(q1, new Date(q1.ends_at))).toBe(true);
    expect(inSeason(q1, new Date(Date.parse(q1.ends_at) + 1))).toBe(false);
  });
});
