import { expectReaderAgreesWithSchema } from '../../../test/support/schema-agreement';
import type { AuthUser } from '../accounts/auth/auth-user';
import {
  actingUserId,
  ADVANCE_BODY_SCHEMA,
  advanceRequest,
  AUTO_EVOLVE_BODY_SCHEMA,
  autoEvolveRequest,
  CONTRIBUTE_BODY_SCHEMA,
  contributeRequest,
  CREATE_BODY_SCHEMA,
  createRequest,
  DECIDE_BODY_SCHEMA,
  decideRequest,
  USER_BODY_SCHEMA,
  userRequest,
  VOTE_BODY_SCHEMA,
  voteRequest,
} from './experiments.requests';

describe('the experiment routes’ body schemas agree with their readers', () => {
  it('given create bodies', () =>
    expectReaderAgreesWithSchema(CREATE_BODY_SCHEMA, createRequest, {
      valid: { creator_id: 'u1', title: 'T', hypothesis: 'H', expected_outcome: 'E', intent_category: 'health', is_core_ip: true, parent_experiment_id: 'e-1' },
      candidates: { title: ['t'.repeat(300), 't'.repeat(301)], creator_id: ['steward', 'a b', 'a/b'] },
    }));

  it('given vote bodies', () =>
    expectReaderAgreesWithSchema(VOTE_BODY_SCHEMA, voteRequest, {
      valid: { voter_id: 'u1', vote_value: 2, reasoning: 'r', suggestion: 's', voter_type: 'agent', confidence: 0.5 },
      candidates: { voter_type: ['human', 'agent', 'robot'], reasoning: ['r'.repeat(5000), 'r'.repeat(5001)] },
    }));

  it('given contribute bodies', () =>
    expectReaderAgreesWithSchema(CONTRIBUTE_BODY_SCHEMA, contributeRequest, { valid: { user_id: 'u1', spark_amount: 5 }, candidates: { spark_amount: [1e9, 1e9 + 1, -5] } }));

  it('given advance bodies', () => expectReaderAgreesWithSchema(ADVANCE_BODY_SCHEMA, advanceRequest, { valid: { target_status: 'voting' }, candidates: { target_status: ['x'.repeat(32), 'x'.repeat(33)] } }));

  it('given decide bodies', () => expectReaderAgreesWithSchema(DECIDE_BODY_SCHEMA, decideRequest, { valid: { decision: 'adopt' } }));

  it('given user bodies', () => expectReaderAgreesWithSchema(USER_BODY_SCHEMA, userRequest, { valid: { user_id: 'u1' } }));

  it('given auto-evolve bodies', () =>
    expectReaderAgreesWithSchema(AUTO_EVOLVE_BODY_SCHEMA, autoEvolveRequest, {
      valid: { user_id: 'u1', max_experiments: 5, min_approval_score: 0.3 },
      candidates: { max_experiments: [50, 51, 2.5], min_approval_score: [-2, 2.5] },
    }));
});

describe('the acting user', () => {
  const ann = { id: 'ann', role: 'user' } as AuthUser;

  it('given a token, then its user, with or without the same body id', () => {
    expect(actingUserId(ann, null, 'voter_id', 'central')).toBe('ann');
    expect(actingUserId(ann, 'ann', 'voter_id', 'flat')).toBe('ann');
  });

  it('given a token and a body id naming someone else, then 403', () =>
    expect(() => actingUserId(ann, 'bob', 'voter_id', 'flat')).toThrow(expect.objectContaining({ kind: 'forbidden', message: 'voter_id must be the authenticated user' })));

  it('given no token on a flat node, then the body id (or null)', () => {
    expect(actingUserId(null, 'bob', 'voter_id', 'flat')).toBe('bob');
    expect(actingUserId(null, null, 'voter_id', 'flat')).toBeNull();
  });

  it.each(['regional', 'central'] as const)('given no token on a %s node, then 401 whatever the body names', (tier) =>
    expect(() => actingUserId(null, 'bob', 'voter_id', tier)).toThrow(expect.objectContaining({ kind: 'unauthenticated' })));
});
