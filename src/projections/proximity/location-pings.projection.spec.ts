import { applyAll, recorded } from '../../../test/support/projection-kit';
import { EmbeddedReadStore } from '../../infrastructure/read-store/embedded/embedded-read-store';
import { LOCATION_PINGS, locationPingsProjection } from './location-pings.projection';

const at = '2026-11-23T10:00:00.000Z';
const pinged = (lat: number) =>
  recorded('LocationPinged', { user_id: 'ann', lat, lon: 11.5, accuracy: null, device_id: null, geohash: 'u281z7', at, expires_at: '2026-11-24T10:00:00.000Z' });

describe('location_pings read model', () => {
  let store: EmbeddedReadStore;
  beforeEach(() => {
    store = new EmbeddedReadStore({ file: null });
  });
  afterEach(() => store.close());

  const doc = () => store.collection(LOCATION_PINGS).findOne({ _id: 'ann' });

  it('given two pings, then the user has one document: the last ping with its cell', async () => {
    await applyAll(locationPingsProjection, store, pinged(48.1), pinged(48.2));
    expect(await doc()).toMatchObject({ user_id: 'ann', lat: 48.2, lon: 11.5, geohash: 'u281z7' });
  });

  it('given a ping, when sharing is turned off or the account is erased, then no coordinates or cell remain', async () => {
    await applyAll(locationPingsProjection, store, pinged(48.1), recorded('LocationSharingSet', { user_id: 'ann', enabled: false, at }));
    expect(await doc()).toMatchObject({ lat: null, lon: null, geohash: null, expires_at: null });
    await applyAll(locationPingsProjection, store, pinged(48.3), recorded('LocationSharingSet', { user_id: 'ann', enabled: true, at }));
    expect(await doc()).toMatchObject({ lat: 48.3 });
  });
});
