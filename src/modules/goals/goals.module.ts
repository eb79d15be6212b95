/**
 * Goals: POST /goals and GET /goals/:id, the goal aggregate's command
 * handlers, the timeout sweep and the `goals` read model (the dispatch saga
 * is in SagasModule).
 * The hive (worker, task relay, results listener) comes with HiveModule,
 * which also brings the LLM port the planner uses.
 */
import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { CommonModule } from '../common/common.module';
import { HiveModule } from '../hive/hive.module';
import { GoalTimeouts } from './goal-timeouts';
import { GoalsController } from './goals.controller';
import { GOAL_COMMAND_HANDLERS } from './goals.handlers';
import { GoalsQueries } from './goals.queries';

@Module({
  imports: [CommonModule, AccountsModule, HiveModule],
  controllers: [GoalsController],
  providers: [GoalsQueries, ...GOAL_COMMAND_HANDLERS, GoalTimeouts],
})
export class GoalsModule {}
