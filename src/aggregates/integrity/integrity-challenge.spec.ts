import { deciderKit } from '../../../test/support/decider-kit';
import { ALREADY_PROCESSED, UNKNOWN_CHALLENGE, integrityChallengeDecider, type IntegrityChallengeCommand } from './integrity-challenge';

const NOW = new Date('2026-11-23T10:00:00.000Z');
const AT = NOW.toISOString();
const { given, history } = deciderKit(integrityChallengeDecider, NOW);

const issue: IntegrityChallengeCommand = { kind: 'issue', challengeId: 'c1', challengerNodeId: 'node-a', targetNodeId: 'node-b', challengeType: 'code_hash_check', nonce: 'n-123456', issuedBy: 'admin-1' };
const issued = history(issue);
const answer = (overrides: Partial<Extract<IntegrityChallengeCommand, { kind: 'evaluate' }>> = {}): IntegrityChallengeCommand => ({
  kind: 'evaluate',
  respondingNodeId: 'node-b',
  response: { nonce: 'n-123456', code_hash: 'abc' },
  signatureValid: true,
  ...overrides,
});
const evaluated = (passed: boolean, details: string, response: Record<string, unknown> = { nonce: 'n-123456', code_hash: 'abc' }, respondingNodeId = 'node-b') => ({
  type: 'IntegrityChallengeEvaluated' as const,
  data: { challenge_id: 'c1', responding_node_id: respondingNodeId, passed, details, response, evaluated_at: AT },
});

describe('an integrity challenge', () => {
  it('given nothing, when issued, then it is pending for its target with its nonce', () =>
    given()
      .when(issue)
      .then({
        type: 'IntegrityChallengeIssued',
        data: { challenge_id: 'c1', challenger_node_id: 'node-a', target_node_id: 'node-b', challenge_type: 'code_hash_check', challenge_nonce: 'n-123456', issued_by: 'admin-1', issued_at: AT },
      }));

  it('given an issued challenge, when issued again, then it is refused', () => given(...issued).when(issue).thenRefused('conflict', 'Challenge already exists'));

  it('given a pending challenge, when the target answers with the nonce and a valid signature, then it passes', () =>
    given(...issued).when(answer()).then(evaluated(true, 'nonce and signature verified')));

  it('given a pending challenge, when another node answers, then it fails naming both nodes', () =>
    given(...issued)
      .when(answer({ respondingNodeId: 'node-c' }))
      .then(evaluated(false, 'response from node-c, but the challenge went to node-b', undefined, 'node-c')));

  it('given a pending challenge, when the nonce differs, then it fails on the nonce', () =>
    given(...issued)
      .when(answer({ response: { nonce: 'other' } }))
      .then(evaluated(false, 'nonce mismatch', { nonce: 'other' })));

  it('given a pending challenge, when the signature is not valid, then it fails on the signature', () =>
    given(...issued).when(answer({ signatureValid: false })).then(evaluated(false, 'signature mismatch')));

  it('given nothing, when a response comes, then it is refused as unknown', () => given().when(answer()).thenRefused('not_found', UNKNOWN_CHALLENGE));

  it('given an evaluated challenge, when a second response comes, then it is refused as already processed', () =>
    given(...history(issue, answer())).when(answer()).thenRefused('conflict', ALREADY_PROCESSED));
});
