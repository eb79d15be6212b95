import { deciderKit } from '../../../test/support/decider-kit';
import { nodeStandingDecider, type NodeStandingCommand } from './node-standing';

const NOW = new Date('2026-11-23T10:00:00.000Z');
const AT = NOW.toISOString();
const { given, history } = deciderKit(nodeStandingDecider, NOW);

const ban: NodeStandingCommand = { kind: 'ban', nodeId: 'node-b', reason: 'forged impressions', by: 'admin-1' };
const unban: NodeStandingCommand = { kind: 'unban', nodeId: 'node-b', reason: 'cleared', by: 'admin-1' };

describe('a node\'s standing', () => {
  it('given a node in good standing, when banned, then it is banned with a fraud score of 100', () =>
    given()
      .when(ban)
      .then({ type: 'NodeBanned', data: { node_id: 'node-b', reason: 'forged impressions', banned_by: 'admin-1', fraud_score: 100, banned_at: AT } }));

  it('given a banned node, when banned again, then nothing is recorded', () => given(...history(ban)).when(ban).thenNothing());

  it('given a banned node, when the ban is lifted, then its score is back to 0', () =>
    given(...history(ban))
      .when(unban)
      .then({ type: 'NodeUnbanned', data: { node_id: 'node-b', reason: 'cleared', unbanned_by: 'admin-1', fraud_score: 0, unbanned_at: AT } }));

  it('given a node that is not banned, when a ban is lifted, then nothing is recorded', () => given().when(unban).thenNothing());
});
