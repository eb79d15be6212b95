import { deciderKit } from '../../../test/support/decider-kit';
import { type FederationNodeCommand, federationNodeDecider, type FederationNodeRegistered } from './federation-node';

const NOW = new Date('2026-11-23T10:00:00.000Z');
const AT = NOW.toISOString();
const { given, history } = deciderKit(federationNodeDecider, NOW);

const KEY = 'a'.repeat(64);
const register = (extra: Partial<Extract<FederationNodeCommand, { kind: 'register' }>> = {}): FederationNodeCommand => ({
  kind: 'register',
  nodeId: 'region-eu',
  publicKey: KEY,
  url: 'http://eu.example:6777',
  tier: 'regional',
  autoApprove: false,
  ...extra,
});
const approve: FederationNodeCommand = { kind: 'approve', nodeId: 'region-eu', by: 'admin-1' };
const registered: FederationNodeRegistered = { type: 'FederationNodeRegistered', data: { node_id: 'region-eu', public_key: KEY, url: 'http://eu.example:6777', tier: 'regional', registered_at: AT } };

describe('a federation node', () => {
  it('given an unknown node, when it registers, then it is registered and waits for approval', () => given().when(register()).then(registered));

  it('given central accepts nodes at once, when a node registers, then it is registered and approved', () =>
    given()
      .when(register({ autoApprove: true }))
      .then(registered, { type: 'FederationNodeApproved', data: { node_id: 'region-eu', approved_by: 'system:federation-auto-accept', approved_at: AT } }));

  it('given a registered node, when it registers again with the same details (every start), then nothing is recorded', () =>
    given(...history(register())).when(register()).thenNothing());

  it('given an approved node, when it registers with a new URL, then the new URL is recorded and the approval stays', () =>
    given(...history(register(), approve))
      .when(register({ url: 'http://eu2.example:6777' }))
      .then({ ...registered, data: { ...registered.data, url: 'http://eu2.example:6777' } }));

  it('given a registered node, when someone registers its id with another key, then it is refused', () =>
    given(...history(register())).when(register({ publicKey: 'b'.repeat(64) })).thenRefused('conflict', 'Node is registered with another key'));

  it('given a pending node, when an admin approves it, then it is approved', () =>
    given(...history(register())).when(approve).then({ type: 'FederationNodeApproved', data: { node_id: 'region-eu', approved_by: 'admin-1', approved_at: AT } }));

  it('given an approved node, when approved again, then nothing is recorded', () => given(...history(register(), approve)).when(approve).thenNothing());

  it('given an unknown node, when an admin approves it, then it is not found', () => given().when(approve).thenRefused('not_found', 'Node not found'));
});
