/**
 * A user's encrypted backups (social-routes §19), stream `userBackups-<userId>`:
 * the metadata of each backup made (never the passphrase, the key or the
 * plaintext; the ciphertext lives in a file, see docs/security.md) and each
 * restore. The stream decides which backups the user may restore: another
 * user's backup id is not in it.
 */
import type { Decider } from '../shared/decider';
import { DomainError, assertNever } from '../shared/domain-error';

export const NO_BACKUPS = 'No backups found';
export const BACKUP_NOT_FOUND = 'Backup not found';

/** The scrypt parameters a backup's key was derived with (recorded so that old backups stay readable if the defaults change). */
export interface KdfParams {
  N: number;
  r: number;
  p: number;
  key_length: number;
}

export interface BackupMetadata {
  backup_id: string;
  user_id: string;
  /** SHA-256 of the stored file (salt, IV, tag and ciphertext), hex: an integrity check that reveals nothing of the plaintext */
  content_hash: string;
  /** bytes of the stored file */
  size_bytes: number;
  cipher: 'aes-256-gcm';
  kdf: 'scrypt';
  kdf_params: KdfParams;
  /** what the backup holds */
  counts: { profile: boolean; posts: number; comments: number; votes: number };
  created_at: string;
}

export interface RestoreCounts {
  profile: boolean;
  posts: number;
  comments: number;
  votes: number;
}

export type UserBackupsEvent =
  | { type: 'BackupCreated'; data: BackupMetadata }
  | { type: 'BackupRestored'; data: RestoreCounts & { backup_id: string; user_id: string; at: string } }
  /** the user's account was erased: their backups are forgotten (and their files deleted) */
  | { type: 'BackupsErased'; data: { user_id: string; backup_ids: string[]; at: string } };

export interface UserBackupsState {
  /** oldest first */
  backups: readonly BackupMetadata[];
}

export type UserBackupsCommand =
  | { kind: 'record'; metadata: Omit<BackupMetadata, 'created_at'> }
  | { kind: 'recordRestore'; userId: string; backupId: string; restored: RestoreCounts }
  | { kind: 'erase'; userId: string };

export const userBackupsStreamId = (userId: string): string => `userBackups-${userId}`;

/** The backup a restore reads: the one named, or the latest. 400 without backups; 404 for an id not among the user's. */
export function backupToRestore(state: UserBackupsState, backupId: string | null): BackupMetadata {
  if (state.backups.length === 0) throw new DomainError('invalid', NO_BACKUPS);
  if (backupId === null) return state.backups[state.backups.length - 1];
  const found = state.backups.find((backup) => backup.backup_id === backupId);
  if (!found) throw new DomainError('not_found', BACKUP_NOT_FOUND);
  return found;
}

const initialState: UserBackupsState = { backups: [] };

function evolve(state: UserBackupsState, event: UserBackupsEvent): UserBackupsState {
  switch (event.type) {
    case 'BackupCreated':
      return { backups: [...state.backups, event.data] };
    case 'BackupRestored':
      return state;
    case 'BackupsErased':
      return { backups: [] };
    default:
      return assertNever(event);
  }
}

function decide(command: UserBackupsCommand, state: UserBackupsState, now: Date): UserBackupsEvent[] {
  const at = now.toISOString();
  switch (command.kind) {
    case 'record':
      if (state.backups.some((backup) => backup.backup_id === command.metadata.backup_id)) return [];
      return [{ type: 'BackupCreated', data: { ...command.metadata, created_at: at } }];
    case 'recordRestore':
      backupToRestore(state, command.backupId);
      return [{ type: 'BackupRestored', data: { backup_id: command.backupId, user_id: command.userId, ...command.restored, at } }];
    case 'erase':
      if (state.backups.length === 0) return [];
      return [{ type: 'BackupsErased', data: { user_id: command.userId, backup_ids: state.backups.map((backup) => backup.backup_id), at } }];
    default:
      return assertNever(command);
  }
}

export const userBackupsDecider: Decider<UserBackupsState, UserBackupsCommand, UserBackupsEvent> = { initialState, evolve, decide };
