/** The commands of the sync context (social-routes §19): device bindings, encrypted backups and restores. */
import type { CommandInput } from '../../aggregates/shared/decider';
import type { DeviceBinding, DeviceBindingCommand } from '../../aggregates/sync/device-binding';
import type { RestoreCounts } from '../../aggregates/sync/user-backups';
import type { Role } from '../../aggregates/accounts/user.events';
import { DomainCommand } from '../common/domain-command';

/** Links a device to the user, or updates and reactivates the binding (`created: false`). */
export class LinkDevice extends DomainCommand<CommandInput<DeviceBindingCommand, 'link'>, { binding: DeviceBinding; created: boolean }> {}

/** Marks one of the user's bindings inactive; 404 `Device not found` for any other. */
export class UnlinkDevice extends DomainCommand<{ userId: string; bindingId: string }, void> {}

/** Encrypts the user's profile, posts, comments and votes under the passphrase and records the backup's metadata. */
export class CreateBackup extends DomainCommand<{ userId: string; passphrase: string }, { backup_id: string; content_hash: string; size_bytes: number }> {}

/** Re-applies what a backup holds and the user's data lacks, through the content and profile commands. */
export class RestoreBackup extends DomainCommand<{ userId: string; role: Role; passphrase: string; backupId: string | null }, RestoreCounts> {}

/** An erased account's backups: forgotten on the user's backups stream, their files deleted (idempotent). */
export class EraseUserBackups extends DomainCommand<{ userId: string }, void> {}
