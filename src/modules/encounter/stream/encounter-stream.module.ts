/**
 * Delivery of encounter messages to users (SPEC §6): the per-process stream
 * service (bus → open SSE connections, on every HTTP process) and the SSE
 * route. The notification relay (event store → bus) and the inbox sweeper
 * (SVC_ENCOUNTER_INBOX_RETENTION_DAYS) run where the background work runs,
 * in SagasModule; the inbox read model makes streams resumable.
 */
import { Module } from '@nestjs/common';
import { AccountsModule } from '../../accounts/accounts.module';
import { EncounterStreamController } from './encounter-stream.controller';
import { EncounterStreamService } from './encounter-stream.service';

@Module({
  imports: [AccountsModule],
  controllers: [EncounterStreamController],
  providers: [EncounterStreamService],
  exports: [EncounterStreamService],
})
export class EncounterStreamModule {}
