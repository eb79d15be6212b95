/**
 * Goals: POST /goals and GET /goals/:id and the goal aggregate's command
 * handlers. ChatModule brings the LLM port the planner uses. The dispatch
 * saga, the timeout sweep and the hive's relay, worker and results listener
 * are in SagasModule.
 */
import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { ChatModule } from '../chat/chat.module';
import { CommonModule } from '../common/common.module';
import { GoalsController } from './goals.controller';
import { GOAL_COMMAND_HANDLERS } from './goals.handlers';
import { GoalsQueries } from './goals.queries';

@Module({
  imports: [CommonModule, AccountsModule, ChatModule],
  controllers: [GoalsController],
  providers: [GoalsQueries, ...GOAL_COMMAND_HANDLERS],
  exports: [GoalsQueries],
})
export class GoalsModule {}
