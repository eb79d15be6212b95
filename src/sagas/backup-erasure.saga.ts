/**
 * An erased account's backups go with it (docs/security.md, "Erasure"):
 * UserAnonymized → EraseUserBackups, which forgets the backups' metadata and
 * deletes their files. Idempotent, so a redelivered erasure is harmless.
 */
import { Injectable } from '@nestjs/common';
import type { ICommand } from '@nestjs/cqrs';
import type { RecordedEvent } from '../infrastructure/event-store/event-store.port';
import type { ProcessManager } from '../infrastructure/sagas/process-manager';
import { EraseUserBackups } from '../modules/sync/sync.commands';
import { reactions } from './support/reactions';

@Injectable()
export class BackupErasureSaga implements ProcessManager {
  readonly name = 'backupErasure';
  private readonly reactions = reactions({
    UserAnonymized: (event) =>
      new EraseUserBackups({ userId: event.data.user_id }, { actor: 'system:backup-erasure', correlationId: event.metadata.correlationId, causationId: event.metadata.eventId }),
  });
  readonly eventTypes = this.reactions.eventTypes;

  react(event: RecordedEvent): ICommand[] {
    return this.reactions.react(event);
  }
}
