import { expectReaderAgreesWithSchema } from '../../../test/support/schema-agreement';
import { RATING_BODY_SCHEMA, ratingRequest, STEP_BODY_SCHEMA, stepRequest } from './gamification.requests';

describe('the gamification routes’ body schemas agree with their readers', () => {
  it('given rating bodies, then the reader accepts exactly what the schema accepts', () => {
    expectReaderAgreesWithSchema(RATING_BODY_SCHEMA, ratingRequest, {
      valid: { rated_id: 'u1', context_type: 'post', context_id: 'p1', dimension: 'skill', score: 4, comment: 'good' },
      candidates: {
        score: [1, 5, 6, 0, 2.5, '4'],
        dimension: ['skill', 'usefulness', 'reliability', 'creativity', 'charm'],
        context_type: ['c'.repeat(100), 'c'.repeat(101)],
        comment: ['c'.repeat(2000), 'c'.repeat(2001)],
      },
    });
  });

  it('given complete-step bodies, then the reader accepts exactly what the schema accepts', () => {
    expectReaderAgreesWithSchema(STEP_BODY_SCHEMA, stepRequest, { valid: { step: 'welcome' } });
  });
});
