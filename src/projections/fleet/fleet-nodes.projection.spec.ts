import { EmbeddedReadStore } from '../../infrastructure/read-store/embedded/embedded-read-store';
import { applyAll, recorded } from '../../../test/support/projection-kit';
import { FLEET_COMMANDS, FLEET_NODES, type FleetCommandDoc, type FleetNodeDoc, fleetNodesProjection as projection } from './fleet-nodes.projection';

const streamId = 'fleetNode-local-1';
const AT = '2026-12-07T12:00:00.000Z';
const registered = recorded(
  'FleetNodeRegistered',
  { node_id: 'local-1', tier: 'local', public_key: 'a'.repeat(64), region_name: null, certificate: null, compute_info: { cpu_cores: 2 }, geo_info: {}, registered_at: AT },
  { streamId },
);
const assigned = recorded('FleetNodeRegionAssigned', { node_id: 'local-1', region_id: 'reg-1', previous_region_id: null, reason: 'registration', requested_by: 'node:local-1', assigned_at: AT }, { streamId });
const promoted = recorded(
  'FleetNodePromoted',
  { node_id: 'local-1', from_tier: 'local', to_tier: 'regional', region_name: 'South', promoted_by: 'node:op', command_id: 'c1', promoted_at: '2026-12-07T12:05:00.000Z' },
  { streamId },
);
const queued = recorded(
  'FleetCommandQueued',
  { command_id: 'c1', target_node_id: 'local-1', cmd_type: 'tier_promote', params: { restart_required: true }, issued_by: 'node:op', signature: null, created_at: '2026-12-07T12:05:00.000Z' },
  { streamId },
);

describe('fleetNodes projection', () => {
  it('given a registration, an assignment and a promotion, replayed, then the node is regional in its region and the command is queued once', async () => {
    const store = new EmbeddedReadStore({ file: null });
    await applyAll(projection, store, registered, assigned, promoted, queued, registered, assigned, promoted, queued);
    expect(await store.collection<FleetNodeDoc>(FLEET_NODES).findOne({ _id: 'local-1' })).toMatchObject({
      tier: 'regional',
      region_id: 'reg-1',
      region_name: 'South',
      registered_at: AT,
      last_seen_at: AT,
      promoted_at: '2026-12-07T12:05:00.000Z',
    });
    expect(await store.collection<FleetCommandDoc>(FLEET_COMMANDS).countDocuments({})).toBe(1);
    expect(await store.collection<FleetCommandDoc>(FLEET_COMMANDS).findOne({ _id: 'c1' })).toMatchObject({ cmd_type: 'tier_promote', status: 'queued' });
  });
});
