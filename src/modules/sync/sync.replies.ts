/** Reply schemas of the sync routes (social-routes §19) for the OpenAPI document. */
import { bool, int, obj, oneOf, orNull, str } from '../common/openapi';

export const DEVICE_BINDING = obj({
  id: str({ description: 'the binding id (dev_…): the same for one user and device_id' }),
  user_id: str(),
  device_id: str(),
  device_name: orNull(str()),
  platform: str(),
  form_factor: str(),
  capabilities: obj({}, [], { additionalProperties: true }),
  linked_at: str({ format: 'date-time' }),
  last_sync_at: orNull(str({ format: 'date-time' })),
  is_active: bool(),
});

export const BACKUP_CREATED = obj({ backup_id: str(), content_hash: str({ description: 'SHA-256 of the stored ciphertext file, hex' }), size_bytes: int() });

export const BACKUP_METADATA = obj({
  backup_id: str(),
  user_id: str(),
  content_hash: str(),
  size_bytes: int(),
  cipher: oneOf(['aes-256-gcm']),
  kdf: oneOf(['scrypt']),
  kdf_params: obj({ N: int(), r: int(), p: int(), key_length: int() }),
  counts: obj({ profile: bool(), posts: int(), comments: int(), votes: int() }),
  created_at: str({ format: 'date-time' }),
  restore_count: int(),
  last_restored_at: orNull(str({ format: 'date-time' })),
});

export const RESTORE_COUNTS = obj({ profile: bool({ description: 'the profile fields were set back' }), posts: int(), comments: int(), votes: int() });
