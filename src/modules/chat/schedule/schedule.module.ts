/**
 * `/time_agent`: durable scheduled prompts (issue 7 item 5). The controller
 * records schedules; the scheduler (src/sagas/scheduled-prompts.scheduler.ts,
 * in SagasModule) runs due ones through ChatModule's ChatPipeline where the
 * background work runs. docs/chat-scheduler.md.
 */
import { Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../../config/config';
import { AccountsModule } from '../../accounts/accounts.module';
import { CommonModule } from '../../common/common.module';
import { ChatModule } from '../chat.module';
import { SchedulePromptHandler } from './schedule.handlers';
import { ScheduleQueries } from './schedule.queries';
import { SCHEDULE_SETTINGS, scheduleSettingsOf } from './schedule-settings';
import { TimeAgentController } from './time-agent.controller';

@Module({
  imports: [CommonModule, AccountsModule, ChatModule],
  controllers: [TimeAgentController],
  providers: [
    { provide: SCHEDULE_SETTINGS, inject: [APP_CONFIG], useFactory: (config: AppConfig) => scheduleSettingsOf(config) },
    SchedulePromptHandler,
    ScheduleQueries,
  ],
  exports: [ScheduleQueries, SCHEDULE_SETTINGS],
})
export class ScheduleModule {}
