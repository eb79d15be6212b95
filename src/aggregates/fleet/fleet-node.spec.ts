import { deciderKit } from '../../../test/support/decider-kit';
import { ALREADY_REGIONAL, type FleetNodeCommand, fleetNodeDecider, KEY_MISMATCH, NODE_NOT_FOUND, NOT_REGIONAL } from './fleet-node';

const NOW = new Date('2026-12-07T12:00:00.000Z');
const AT = NOW.toISOString();
const { given, history } = deciderKit(fleetNodeDecider, NOW);
const KEY = 'a'.repeat(64);

const registerLocal = (regionId: string | null = 'reg-1'): FleetNodeCommand => ({
  kind: 'register',
  nodeId: 'local-1',
  tier: 'local',
  publicKey: KEY,
  regionName: null,
  certificate: null,
  computeInfo: { cpu_cores: 4 },
  geoInfo: {},
  regionId,
  by: 'node:local-1',
});
const promote: FleetNodeCommand = { kind: 'promote', nodeId: 'local-1', regionName: 'north', by: 'node:central', commandId: 'cmd-1' };
const demote: FleetNodeCommand = { kind: 'demote', nodeId: 'local-1', reason: 'retired', by: 'node:central', commandId: 'cmd-2' };

describe('a fleet node', () => {
  it('given nothing, when a local node registers with a region, then it is registered and assigned', () =>
    expect(given().when(registerLocal()).events().map((e) => e.type)).toEqual(['FleetNodeRegistered', 'FleetNodeRegionAssigned']));

  it('given a registered node, when another key registers its id, then it is refused', () =>
    given(...history(registerLocal())).when({ ...registerLocal(), publicKey: 'b'.repeat(64) } as FleetNodeCommand).thenRefused('conflict', KEY_MISMATCH));

  it('given an unknown node, when promoted, then it is refused as not found', () => given().when(promote).thenRefused('not_found', NODE_NOT_FOUND));

  it('given a local node, when promoted, then it is regional and tier_promote is queued with restart_required', () =>
    given(...history(registerLocal()))
      .when(promote)
      .then(
        { type: 'FleetNodePromoted', data: { node_id: 'local-1', from_tier: 'local', to_tier: 'regional', region_name: 'north', promoted_by: 'node:central', command_id: 'cmd-1', promoted_at: AT } },
        {
          type: 'FleetCommandQueued',
          data: {
            command_id: 'cmd-1',
            target_node_id: 'local-1',
            cmd_type: 'tier_promote',
            params: { new_tier: 'regional', region_name: 'north', restart_required: true },
            issued_by: 'node:central',
            signature: null,
            created_at: AT,
          },
        },
      ));

  it('given a regional node, when promoted again, then 400 already regional', () => given(...history(registerLocal(), promote)).when(promote).thenRefused('invalid', ALREADY_REGIONAL));

  it('given a regional node, when demoted, then it is flat, its certificate cleared, and tier_demote queued', () => {
    const result = given(...history(registerLocal(), promote)).when(demote);
    expect(result.events().map((e) => e.type)).toEqual(['FleetNodeDemoted', 'FleetCommandQueued']);
    expect(result.events()[1].data).toMatchObject({ cmd_type: 'tier_demote', params: { clear_certificate: true } });
    expect(result.state()).toMatchObject({ tier: 'flat', certificate: null });
  });

  it('given a node that is not regional, when demoted, then 400 not regional', () => given(...history(registerLocal())).when(demote).thenRefused('invalid', NOT_REGIONAL));

  it('given a node in a region, when assigned the same region, then nothing is recorded', () =>
    given(...history(registerLocal())).when({ kind: 'assign', nodeId: 'local-1', regionId: 'reg-1', reason: 'switch', by: 'node:local-1' }).thenNothing());

  it('given an unknown node, when it reports capacity, then 404', () => given().when({ kind: 'report', nodeId: 'x', computeInfo: {} }).thenRefused('not_found'));

  it('given a flat node, when upgraded, then it is central; upgrading again records nothing', () => {
    const upgrade: FleetNodeCommand = { kind: 'upgrade', nodeId: 'self', currentTier: 'flat', masterPublicKey: KEY, challenge: 'c' };
    expect(given().when(upgrade).state().tier).toBe('central');
    given(...history(upgrade)).when(upgrade).thenNothing();
  });
});
