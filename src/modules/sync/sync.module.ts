/** The sync context (social-routes §19): a user's devices and encrypted backups of their own data. */
import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { CommonModule } from '../common/common.module';
import { BackupFiles } from './backup-files';
import { BackupsController } from './backups.controller';
import { CreateBackupHandler, EraseUserBackupsHandler, RestoreBackupHandler } from './backups.handlers';
import { DevicesController } from './devices.controller';
import { LinkDeviceHandler, UnlinkDeviceHandler } from './devices.handlers';
import { SyncQueries } from './sync.queries';

@Module({
  imports: [CommonModule, AccountsModule],
  controllers: [DevicesController, BackupsController],
  providers: [SyncQueries, BackupFiles, LinkDeviceHandler, UnlinkDeviceHandler, CreateBackupHandler, RestoreBackupHandler, EraseUserBackupsHandler],
})
export class SyncModule {}
