/**
 * Where backup ciphertexts live: `DATA_DIR/backups/<user>/<backup_id>.bin`.
 * A file, not a read-store document: read models are rebuilt from the event
 * log (`projections:rebuild`, a version bump) and a document holding the
 * blob would be dropped with them, while the BackupCreated event carries
 * only metadata, never the ciphertext (docs/security.md, "Backups"). A file
 * is written to a temporary name and renamed, so a reader never sees half
 * of one; it survives a restart like the embedded stores under DATA_DIR.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/config';

const SAFE_SEGMENT = /^[A-Za-z0-9_-]{1,128}$/;

/** A path segment from an id: the id when it is plain, else a hash of it (no `..`, no separators). */
const segment = (id: string): string => (SAFE_SEGMENT.test(id) ? id : `h_${createHash('sha256').update(id).digest('hex').slice(0, 32)}`);

@Injectable()
export class BackupFiles {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  private dirOf(userId: string): string {
    return join(this.config.dataDir, 'backups', segment(userId));
  }

  async write(userId: string, backupId: string, bytes: Buffer): Promise<void> {
    const dir = this.dirOf(userId);
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const file = join(dir, `${segment(backupId)}.bin`);
    const temporary = `${file}.${process.pid}.tmp`;
    await writeFile(temporary, bytes, { mode: 0o600 });
    await rename(temporary, file);
  }

  /** Deletes every backup file of the user (an erased account); nothing to delete is fine. */
  async eraseAll(userId: string): Promise<void> {
    await rm(this.dirOf(userId), { recursive: true, force: true });
  }

  /** The file's bytes, or null when it is missing. */
  async read(userId: string, backupId: string): Promise<Buffer | null> {
    try {
      return await readFile(join(this.dirOf(userId), `${segment(backupId)}.bin`));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }
}
