/**
 * Bodies of the sync routes (social-routes §19), read in the contract's
 * order of checks, each with the JSON Schema of what it accepts.
 */
import type { DeviceFields } from '../../aggregates/sync/device-binding';
import { invalid, nameOf, objectBody } from '../common/body-fields';

const DEVICE_ID_MAX = 200;
const DEVICE_NAME_MAX = 200;
const LABEL_MAX = 50;
/** the capabilities object, as JSON text */
const CAPABILITIES_MAX = 4096;
export const PASSPHRASE_MIN = 8;
const PASSPHRASE_MAX = 1024;
const BACKUP_ID_MAX = 64;

export const PASSPHRASE_TOO_SHORT = `Passphrase must be at least ${PASSPHRASE_MIN} characters`;
export const PASSPHRASE_REQUIRED = 'Passphrase is required';

export const LINK_DEVICE_BODY_SCHEMA = {
  type: 'object',
  required: ['device_id'],
  properties: {
    device_id: { type: 'string', pattern: '\\S', maxLength: DEVICE_ID_MAX },
    device_name: { anyOf: [{ type: 'string', maxLength: DEVICE_NAME_MAX }, { type: 'null' }] },
    platform: { anyOf: [{ type: 'string', pattern: '\\S', maxLength: LABEL_MAX }, { type: 'null' }], description: 'default web' },
    form_factor: { anyOf: [{ type: 'string', pattern: '\\S', maxLength: LABEL_MAX }, { type: 'null' }], description: 'default phone' },
    capabilities: { anyOf: [{ type: 'object' }, { type: 'null' }], description: `default {}; at most ${CAPABILITIES_MAX} characters as JSON` },
  },
};

export interface LinkDeviceRequest {
  deviceId: string;
  /** only the fields the body gave */
  fields: Partial<DeviceFields>;
}

function label(value: unknown, field: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || value.trim() === '' || [...value].length > LABEL_MAX) throw invalid(`${field} must be a string of 1 to ${LABEL_MAX} characters`);
  return nameOf(value.trim(), field);
}

/** 400 `device_id is required`, then the optional fields' types and lengths. */
export function linkDeviceRequest(raw: unknown): LinkDeviceRequest {
  const body = objectBody(raw);
  const deviceId = body.device_id;
  if (deviceId === undefined || deviceId === null || (typeof deviceId === 'string' && deviceId.trim() === '')) throw invalid('device_id is required');
  if (typeof deviceId !== 'string' || [...deviceId].length > DEVICE_ID_MAX) throw invalid(`device_id must be a string of at most ${DEVICE_ID_MAX} characters`);
  const fields: Partial<DeviceFields> = {};
  if (body.device_name !== undefined) {
    if (body.device_name !== null && (typeof body.device_name !== 'string' || [...body.device_name].length > DEVICE_NAME_MAX)) {
      throw invalid(`device_name must be a string of at most ${DEVICE_NAME_MAX} characters`);
    }
    fields.device_name = body.device_name === null ? null : nameOf(body.device_name, 'device_name');
  }
  const platform = label(body.platform, 'platform');
  if (platform !== undefined) fields.platform = platform;
  const formFactor = label(body.form_factor, 'form_factor');
  if (formFactor !== undefined) fields.form_factor = formFactor;
  if (body.capabilities !== undefined && body.capabilities !== null) {
    const capabilities = body.capabilities;
    if (typeof capabilities !== 'object' || Array.isArray(capabilities)) throw invalid('capabilities must be an object');
    if (JSON.stringify(capabilities).length > CAPABILITIES_MAX) throw invalid(`capabilities must be at most ${CAPABILITIES_MAX} characters as JSON`);
    fields.capabilities = capabilities as Record<string, unknown>;
  }
  return { deviceId: deviceId.trim(), fields };
}

export const BACKUP_BODY_SCHEMA = {
  type: 'object',
  required: ['passphrase'],
  properties: { passphrase: { type: 'string', minLength: PASSPHRASE_MIN, maxLength: PASSPHRASE_MAX, description: 'never stored; the key is derived from it' } },
};

/** 400 `Passphrase must be at least 8 characters` (also when missing or not a string). */
export function backupRequest(raw: unknown): { passphrase: string } {
  const passphrase = objectBody(raw).passphrase;
  if (typeof passphrase !== 'string' || [...passphrase].length < PASSPHRASE_MIN) throw invalid(PASSPHRASE_TOO_SHORT);
  if ([...passphrase].length > PASSPHRASE_MAX) throw invalid(`Passphrase must be at most ${PASSPHRASE_MAX} characters`);
  return { passphrase };
}

export const RESTORE_BODY_SCHEMA = {
  type: 'object',
  required: ['passphrase'],
  properties: {
    passphrase: { type: 'string', minLength: 1, maxLength: PASSPHRASE_MAX },
    backup_id: { anyOf: [{ type: 'string', minLength: 1, maxLength: BACKUP_ID_MAX }, { type: 'null' }], description: 'default: the latest backup' },
  },
};

/** 400 `Passphrase is required`; backup_id a string when given. */
export function restoreRequest(raw: unknown): { passphrase: string; backupId: string | null } {
  const body = objectBody(raw);
  const passphrase = body.passphrase;
  if (typeof passphrase !== 'string' || passphrase === '') throw invalid(PASSPHRASE_REQUIRED);
  if ([...passphrase].length > PASSPHRASE_MAX) throw invalid(`Passphrase must be at most ${PASSPHRASE_MAX} characters`);
  const backupId = body.backup_id ?? null;
  if (backupId !== null && (typeof backupId !== 'string' || backupId === '' || backupId.length > BACKUP_ID_MAX)) throw invalid(`backup_id must be a string of 1 to ${BACKUP_ID_MAX} characters`);
  return { passphrase, backupId };
}
