/**
 * `backups`: the metadata of each user's encrypted backups (social-routes
 * §19), by backup id: what GET /sync/backup/metadata lists, newest first.
 * The ciphertext is not here (it is a file under DATA_DIR, docs/security.md).
 */
import type { BackupMetadata } from '../../aggregates/sync/user-backups';
import type { Doc } from '../../infrastructure/read-store/read-store.port';
import { applyOnce } from '../support/apply-once';
import { defineProjection } from '../support/define-projection';

export const BACKUPS = 'backups';

export type BackupDoc = Doc & BackupMetadata & { restore_count: number; last_restored_at: string | null };

export const backupsProjection = defineProjection({
  name: 'backups',
  version: 1,
  collections: [BACKUPS],
  indexes: [{ collection: BACKUPS, spec: { keys: { user_id: 1, created_at: -1 } } }],
  on: {
    BackupCreated: (event, writer) => applyOnce(writer, BACKUPS, event.data.backup_id, event, { $set: { ...event.data, restore_count: 0, last_restored_at: null } }),
    BackupRestored: (event, writer) =>
      applyOnce(writer, BACKUPS, event.data.backup_id, event, { $inc: { restore_count: 1 }, $set: { last_restored_at: event.data.at } }, { upsert: false }),
    BackupsErased: (event, writer) => writer.write(BACKUPS, { deleteMany: { filter: { user_id: event.data.user_id } } }),
  },
});
