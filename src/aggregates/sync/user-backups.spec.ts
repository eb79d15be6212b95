import { deciderKit } from '../../../test/support/decider-kit';
import { BACKUP_NOT_FOUND, backupToRestore, NO_BACKUPS, type UserBackupsCommand, userBackupsDecider } from './user-backups';

const t0 = new Date('2026-11-24T10:00:00.000Z');
const { given, history, after } = deciderKit(userBackupsDecider, t0);
const metadata = (backupId: string) => ({
  backup_id: backupId,
  user_id: 'ann',
  content_hash: 'ab',
  size_bytes: 10,
  cipher: 'aes-256-gcm' as const,
  kdf: 'scrypt' as const,
  kdf_params: { N: 32768, r: 8, p: 1, key_length: 32 },
  counts: { profile: true, posts: 1, comments: 0, votes: 0 },
});
const record = (backupId: string): UserBackupsCommand => ({ kind: 'record', metadata: metadata(backupId) });
const restored = { profile: false, posts: 1, comments: 0, votes: 0 };

describe('user backups', () => {
  it('given two backups, when the account is erased, then BackupsErased names both, and after it there is nothing to restore', () => {
    given(...history(record('bk_1'), record('bk_2')))
      .when({ kind: 'erase', userId: 'ann' })
      .then({ type: 'BackupsErased', data: { user_id: 'ann', backup_ids: ['bk_1', 'bk_2'], at: t0.toISOString() } });
    expect(() => backupToRestore(after(record('bk_1'), { kind: 'erase', userId: 'ann' }), null)).toThrow(NO_BACKUPS);
  });

  it('given no backups, when the account is erased, then nothing', () => given().when({ kind: 'erase', userId: 'ann' }).thenNothing());

  it('given no backups, when one is recorded, then BackupCreated carries its metadata and time', () =>
    given().when(record('bk_1')).then({ type: 'BackupCreated', data: { ...metadata('bk_1'), created_at: t0.toISOString() } }));

  it('given a recorded backup, when the same id is recorded again, then nothing', () => given(...history(record('bk_1'))).when(record('bk_1')).thenNothing());

  it('given two backups, when choosing what to restore, then the named one, or the latest by default', () => {
    const state = after(record('bk_1'), record('bk_2'));
    expect(backupToRestore(state, null).backup_id).toBe('bk_2');
    expect(backupToRestore(state, 'bk_1').backup_id).toBe('bk_1');
  });

  it('given no backups, when restoring, then 400 No backups found; an id not among them is 404 Backup not found', () => {
    given().when({ kind: 'recordRestore', userId: 'ann', backupId: 'bk_1', restored }).thenRefused('invalid', NO_BACKUPS);
    given(...history(record('bk_1')))
      .when({ kind: 'recordRestore', userId: 'ann', backupId: 'bk_other', restored })
      .thenRefused('not_found', BACKUP_NOT_FOUND);
  });

  it('given a backup, when its restore is recorded, then BackupRestored carries the counts', () =>
    given(...history(record('bk_1')))
      .when({ kind: 'recordRestore', userId: 'ann', backupId: 'bk_1', restored })
      .then({ type: 'BackupRestored', data: { backup_id: 'bk_1', user_id: 'ann', ...restored, at: t0.toISOString() } }));
});
