import { applyAll, recorded } from '../../../test/support/projection-kit';
import { EmbeddedReadStore } from '../../infrastructure/read-store/embedded/embedded-read-store';
import { MISSED_CONNECTION_RESPONSES, MISSED_CONNECTIONS, missedConnectionsProjection } from './missed-connections.projection';

const at = '2026-11-23T10:00:00.000Z';
const posted = (id: string, userId = 'ann') =>
  recorded('MissedConnectionPosted', {
    missed_connection_id: id,
    user_id: userId,
    lat: 52.52,
    lon: 13.405,
    geohash: 'u33dc0',
    location_name: 'Cafe',
    description: 'Red scarf',
    was_at: at,
    created_at: at,
    expires_at: '2026-11-30T10:00:00.000Z',
  });
const responded = (responseId: string) =>
  recorded('MissedConnectionResponded', { response_id: responseId, missed_connection_id: 'mc1', poster_id: 'ann', responder_id: 'bob', message: 'me', status: 'pending', created_at: at });

describe('missed_connections read model', () => {
  let store: EmbeddedReadStore;
  beforeEach(() => {
    store = new EmbeddedReadStore({ file: null });
  });
  afterEach(() => store.close());

  const doc = (id = 'mc1') => store.collection(MISSED_CONNECTIONS).findOne({ _id: id });

  it('given a post, then it is active with no responses and its cell at each precision, 6 down to 2', async () => {
    await applyAll(missedConnectionsProjection, store, posted('mc1'));
    expect(await doc()).toMatchObject({ user_id: 'ann', is_active: true, response_count: 0, cell6: 'u33dc0', cell5: 'u33dc', cell4: 'u33d', cell3: 'u33', cell2: 'u3' });
  });

  it('given two responses and one accepted, then the post counts 2 and the accepted one says so', async () => {
    await applyAll(
      missedConnectionsProjection,
      store,
      posted('mc1'),
      responded('r1'),
      responded('r2'),
      recorded('MissedConnectionResponseAccepted', { response_id: 'r1', missed_connection_id: 'mc1', poster_id: 'ann', responder_id: 'bob', location_name: 'Cafe', at }),
    );
    expect(await doc()).toMatchObject({ response_count: 2 });
    expect(await store.collection(MISSED_CONNECTION_RESPONSES).findOne({ _id: 'r1' })).toMatchObject({ status: 'accepted', missed_connection_id: 'mc1' });
    expect(await store.collection(MISSED_CONNECTION_RESPONSES).findOne({ _id: 'r2' })).toMatchObject({ status: 'pending' });
  });

  it('given a withdrawn post, then it is inactive', async () => {
    await applyAll(missedConnectionsProjection, store, posted('mc1'), recorded('MissedConnectionWithdrawn', { missed_connection_id: 'mc1', user_id: 'ann', at }));
    expect(await doc()).toMatchObject({ is_active: false });
  });

  it('given posts of two users, when one account is erased, then only its posts lose their coordinates and cells', async () => {
    await applyAll(
      missedConnectionsProjection,
      store,
      posted('mc1'),
      posted('mc2', 'bob'),
      recorded('UserAnonymized', { user_id: 'ann', username: 'deleted', display_name: 'Deleted', requested_by: 'ann', at }),
    );
    expect(await doc()).toMatchObject({ lat: null, lon: null, cell6: null, cell5: null, cell2: null });
    expect(await doc('mc2')).toMatchObject({ lat: 52.52, cell6: 'u33dc0' });
  });

  it('given a post, when its poster turns location sharing off, then it loses its coordinates and cells; turning it on changes nothing', async () => {
    await applyAll(
      missedConnectionsProjection,
      store,
      posted('mc1'),
      recorded('LocationSharingSet', { user_id: 'ann', enabled: true, at }),
    );
    expect(await doc()).toMatchObject({ lat: 52.52, cell6: 'u33dc0' });
    await applyAll(missedConnectionsProjection, store, recorded('LocationSharingSet', { user_id: 'ann', enabled: false, at }));
    expect(await doc()).toMatchObject({ lat: null, lon: null, cell6: null, cell4: null });
  });
});
