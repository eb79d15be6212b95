/**
 * `device_bindings`: one document per binding of a device to a user
 * (social-routes §19), by binding id, the binding record as served; a user's
 * active bindings are one indexed read.
 */
import type { DeviceBinding } from '../../aggregates/sync/device-binding';
import type { Doc } from '../../infrastructure/read-store/read-store.port';
import { applyOnce } from '../support/apply-once';
import { defineProjection } from '../support/define-projection';

export const DEVICE_BINDINGS = 'device_bindings';

export type DeviceBindingDoc = Doc & DeviceBinding;

export const deviceBindingsProjection = defineProjection({
  name: 'device_bindings',
  version: 1,
  collections: [DEVICE_BINDINGS],
  indexes: [{ collection: DEVICE_BINDINGS, spec: { keys: { user_id: 1, is_active: 1, linked_at: -1 } } }],
  on: {
    DeviceLinked: (event, writer) => {
      const { binding_id, at, ...rest } = event.data;
      applyOnce(writer, DEVICE_BINDINGS, binding_id, event, { $set: { id: binding_id, ...rest, linked_at: at, last_sync_at: null, is_active: true } });
    },
    DeviceRelinked: (event, writer) => {
      const { binding_id, device_name, platform, form_factor, capabilities } = event.data;
      applyOnce(writer, DEVICE_BINDINGS, binding_id, event, { $set: { device_name, platform, form_factor, capabilities, is_active: true } }, { upsert: false });
    },
    DeviceUnlinked: (event, writer) => applyOnce(writer, DEVICE_BINDINGS, event.data.binding_id, event, { $set: { is_active: false } }, { upsert: false }),
  },
});
