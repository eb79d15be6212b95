/**
 * Delivery of encounter messages to users (SPEC §6): the notifier (event
 * store → bus, where the background work runs), the per-process stream
 * service (bus → open SSE connections, on every HTTP process), the SSE route,
 * and the inbox read model that makes streams resumable (kept for
 * SVC_ENCOUNTER_INBOX_RETENTION_DAYS).
 */
import { Module } from '@nestjs/common';
import { AccountsModule } from '../../accounts/accounts.module';
import { EncounterNotifier } from './encounter-notifier';
import { EncounterStreamController } from './encounter-stream.controller';
import { EncounterStreamService } from './encounter-stream.service';
import { InboxRetention } from './inbox-retention';

@Module({
  imports: [AccountsModule],
  controllers: [EncounterStreamController],
  providers: [EncounterNotifier, EncounterStreamService, InboxRetention],
  exports: [EncounterStreamService],
})
export class EncounterStreamModule {}
