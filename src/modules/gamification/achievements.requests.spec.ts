import { expectReaderAgreesWithSchema } from '../../../test/support/schema-agreement';
import { CHALLENGE_BODY_SCHEMA, challengeRequest, PROGRESS_BODY_SCHEMA, progressRequest } from './achievements.requests';

describe('the challenge routes’ body schemas agree with their readers', () => {
  it('given progress bodies, then the reader accepts exactly what the schema accepts', () => {
    expectReaderAgreesWithSchema(PROGRESS_BODY_SCHEMA, progressRequest, { valid: { increment: 2 }, candidates: { increment: [1000, 1001, 2.5] } });
  });

  it('given challenge bodies, then the reader accepts exactly what the schema accepts', () => {
    expectReaderAgreesWithSchema(CHALLENGE_BODY_SCHEMA, challengeRequest, {
      valid: { title: 'Marathon', ends_at: '2027-01-01T00:00:00Z' },
      candidates: {
        ends_at: ['2027-01-01T00:00:00.000Z', '2027-01-01T00:00+02:00', '2027-01-01', 'tomorrow'],
        starts_at: ['2026-12-01T00:00:00Z', '2026-12-01'],
        challenge_type: ['daily', 'weekly', 'special', 'monthly'],
        criteria: [{ target: 3 }, { target: 0 }, { action: 'post' }, { target: 2.5 }],
        reward_spark: [0, 10, -1, 1e7],
        title: ['t'.repeat(200), 't'.repeat(201)],
      },
    });
  });

  it('given no increment, then 1', () => expect(progressRequest(undefined)).toBe(1));
});
