import { EmbeddedReadStore } from '../../infrastructure/read-store/embedded/embedded-read-store';
import { applyAll, recorded } from '../../../test/support/projection-kit';
import { FEDERATION_NODES, type FederationNodeDoc, federationNodesProjection as projection } from './federation-nodes.projection';

const streamId = 'federationNode-region-eu';
const registered = (url: string) =>
  recorded('FederationNodeRegistered', { node_id: 'region-eu', public_key: 'a'.repeat(64), url, tier: 'regional', registered_at: '2026-11-23T10:00:00.000Z' }, { streamId });
const approved = () =>
  recorded('FederationNodeApproved', { node_id: 'region-eu', approved_by: 'admin-1', approved_at: '2026-11-23T10:05:00.000Z' }, { streamId });
const doc = (store: EmbeddedReadStore) => store.collection<FederationNodeDoc>(FEDERATION_NODES).findOne({ _id: 'region-eu' });

describe('federationNodes projection', () => {
  it('given a registration, then the node is pending with its key and URL', async () => {
    const store = new EmbeddedReadStore({ file: null });
    await applyAll(projection, store, registered('http://eu.example'));
    expect(await doc(store)).toMatchObject({ status: 'pending', public_key: 'a'.repeat(64), url: 'http://eu.example', approved_at: null });
  });

  it('given an approval then a new URL, replayed, then the node stays approved with the new URL', async () => {
    const store = new EmbeddedReadStore({ file: null });
    const events = [registered('http://eu.example'), approved(), registered('http://eu2.example')];
    await applyAll(projection, store, ...events, ...events);
    expect(await doc(store)).toMatchObject({ status: 'approved', url: 'http://eu2.example', approved_by: 'admin-1', registered_at: '2026-11-23T10:00:00.000Z' });
  });
});
