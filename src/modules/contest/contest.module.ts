/** Hive contest: entries, scoring events, spark wallets, leaderboards. */
import { Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import { CONTEST_CONFIG, type ContestConfig } from '../../config/contest.config';
import { AccountsModule } from '../accounts/accounts.module';
import { CommonModule } from '../common/common.module';
import { ContestController } from './contest.controller';
import { CONTEST_COMMAND_HANDLERS } from './contest.handlers';
import { ContestQueries } from './contest.queries';

@Module({
  imports: [CommonModule, AccountsModule],
  controllers: [ContestController],
  providers: [
    { provide: CONTEST_CONFIG, inject: [APP_CONFIG], useFactory: (config: AppConfig): ContestConfig => config.contest },
    ContestQueries,
    ...CONTEST_COMMAND_HANDLERS,
  ],
  exports: [ContestQueries, CONTEST_CONFIG],
})
export class ContestModule {}
