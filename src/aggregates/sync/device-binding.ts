/**
 * A user's binding of one device (social-routes §19), stream
 * `deviceBinding-<bindingId>` where the binding id is derived from the pair
 * (user, device_id): one stream per (user, device), so concurrent links of
 * one device by one user serialize on its revision and make one binding.
 * A second link updates the binding and reactivates it; an unlink marks it
 * inactive (the binding stays, to be relinked).
 */
import { createHash } from 'node:crypto';
import type { Decider } from '../shared/decider';
import { DomainError, assertNever } from '../shared/domain-error';

export const DEVICE_NOT_FOUND = 'Device not found';

/** What a client may set on a binding. */
export interface DeviceFields {
  device_name: string | null;
  platform: string;
  form_factor: string;
  capabilities: Record<string, unknown>;
}

export interface DeviceBinding extends DeviceFields {
  id: string;
  user_id: string;
  device_id: string;
  linked_at: string;
  last_sync_at: string | null;
  is_active: boolean;
}

export type DeviceBindingEvent =
  | { type: 'DeviceLinked'; data: DeviceFields & { binding_id: string; user_id: string; device_id: string; at: string } }
  | { type: 'DeviceRelinked'; data: DeviceFields & { binding_id: string; user_id: string; at: string } }
  | { type: 'DeviceUnlinked'; data: { binding_id: string; user_id: string; at: string } };

export type DeviceBindingState = { status: 'none' } | { status: 'bound'; binding: DeviceBinding };

export type DeviceBindingCommand =
  | {
      kind: 'link';
      userId: string;
      deviceId: string;
      /** the fields the request gave; on a first link the omitted ones take their defaults, on a relink they stay */
      fields: Partial<DeviceFields>;
    }
  | { kind: 'unlink'; userId: string };

export const DEVICE_DEFAULTS: DeviceFields = { device_name: null, platform: 'web', form_factor: 'phone', capabilities: {} };

/** `dev_` + 24 hex characters of SHA-256(user id, device id): the same pair always names the same binding. */
export const deviceBindingId = (userId: string, deviceId: string): string =>
  `dev_${createHash('sha256').update(userId).update('\u0000').update(deviceId).digest('hex').slice(0, 24)}`;
export const deviceBindingStreamId = (bindingId: string): string => `deviceBinding-${bindingId}`;

const initialState: DeviceBindingState = { status: 'none' };

function evolve(state: DeviceBindingState, event: DeviceBindingEvent): DeviceBindingState {
  switch (event.type) {
    case 'DeviceLinked': {
      const { binding_id, user_id, device_id, at, ...fields } = event.data;
      return { status: 'bound', binding: { id: binding_id, user_id, device_id, ...fields, linked_at: at, last_sync_at: null, is_active: true } };
    }
    case 'DeviceRelinked': {
      if (state.status === 'none') return state;
      const { device_name, platform, form_factor, capabilities } = event.data;
      return { status: 'bound', binding: { ...state.binding, device_name, platform, form_factor, capabilities, is_active: true } };
    }
    case 'DeviceUnlinked':
      if (state.status === 'none') return state;
      return { status: 'bound', binding: { ...state.binding, is_active: false } };
    default:
      return assertNever(event);
  }
}

const sameFields = (a: DeviceFields, b: DeviceFields): boolean =>
  a.device_name === b.device_name && a.platform === b.platform && a.form_factor === b.form_factor && JSON.stringify(a.capabilities) === JSON.stringify(b.capabilities);

function decide(command: DeviceBindingCommand, state: DeviceBindingState, now: Date): DeviceBindingEvent[] {
  const at = now.toISOString();
  switch (command.kind) {
    case 'link': {
      const bindingId = deviceBindingId(command.userId, command.deviceId);
      if (state.status === 'none') {
        return [{ type: 'DeviceLinked', data: { binding_id: bindingId, user_id: command.userId, device_id: command.deviceId, ...DEVICE_DEFAULTS, ...command.fields, at } }];
      }
      const { device_name, platform, form_factor, capabilities } = state.binding;
      const fields: DeviceFields = { device_name, platform, form_factor, capabilities, ...command.fields };
      if (state.binding.is_active && sameFields(fields, state.binding)) return [];
      return [{ type: 'DeviceRelinked', data: { binding_id: bindingId, user_id: command.userId, ...fields, at } }];
    }
    case 'unlink':
      // another user's binding, or one already unlinked, is not among the caller's devices
      if (state.status === 'none' || state.binding.user_id !== command.userId || !state.binding.is_active) throw new DomainError('not_found', DEVICE_NOT_FOUND);
      return [{ type: 'DeviceUnlinked', data: { binding_id: state.binding.id, user_id: command.userId, at } }];
    default:
      return assertNever(command);
  }
}

export const deviceBindingDecider: Decider<DeviceBindingState, DeviceBindingCommand, DeviceBindingEvent> = { initialState, evolve, decide };
