import { applyAll, recorded } from '../../../test/support/projection-kit';
import { EmbeddedReadStore } from '../../infrastructure/read-store/embedded/embedded-read-store';
import { DEVICE_BINDINGS, deviceBindingsProjection } from './device-bindings.projection';

const at = '2026-11-24T10:00:00.000Z';
const fields = { device_name: null, platform: 'web', form_factor: 'phone', capabilities: {} };

describe('device_bindings read model', () => {
  let store: EmbeddedReadStore;
  beforeEach(() => {
    store = new EmbeddedReadStore({ file: null });
  });
  afterEach(() => store.close());

  it('given a link, an unlink and a relink with a name, then one active binding with the name and the first link time', async () => {
    await applyAll(
      deviceBindingsProjection,
      store,
      recorded('DeviceLinked', { binding_id: 'dev_1', user_id: 'ann', device_id: 'p', ...fields, at }),
      recorded('DeviceUnlinked', { binding_id: 'dev_1', user_id: 'ann', at: '2026-11-24T11:00:00.000Z' }),
      recorded('DeviceRelinked', { binding_id: 'dev_1', user_id: 'ann', ...fields, device_name: 'Pocket', at: '2026-11-24T12:00:00.000Z' }),
    );
    expect(await store.collection(DEVICE_BINDINGS).find({ user_id: 'ann' })).toEqual([
      expect.objectContaining({ id: 'dev_1', device_id: 'p', device_name: 'Pocket', linked_at: at, last_sync_at: null, is_active: true }),
    ]);
  });
});
