/** Hive contest: entries, scoring events, spark wallets, leaderboards. */
import { Module } from '@nestjs/common';
import { CONTEST_CONFIG } from '../../config/contest.config';
import { AccountsModule } from '../accounts/accounts.module';
import { CommonModule } from '../common/common.module';
import { ContestController } from './contest.controller';
import { contestWindowProvider } from './contest-window.provider';
import { CONTEST_COMMAND_HANDLERS } from './contest.handlers';
import { ContestQueries } from './contest.queries';

@Module({
  imports: [CommonModule, AccountsModule],
  controllers: [ContestController],
  providers: [
    contestWindowProvider,
    ContestQueries,
    ...CONTEST_COMMAND_HANDLERS,
  ],
  exports: [ContestQueries, CONTEST_CONFIG],
})
export class ContestModule {}
