/**
 * The hive: this node's share of other nodes' work and the delivery of its
 * own hive tasks (docs/goals-and-hive.md).
 * - HiveWorker: takes tasks from `svc.hive.tasks` while the compute settings allow.
 * - HiveTaskRelay: SubtaskDispatched / ExpertRunRequested → `svc.hive.tasks`.
 * - HiveResultsListener: `svc.hive.results` → goal and conversation commands.
 * The LLM port comes from ChatModule (one LanguageModel per process); the
 * effective compute settings from ComputeModule's ComputeQueries.
 */
import { Module } from '@nestjs/common';
import { HiveResultsListener } from '../../sagas/hive-results.listener';
import { HiveTaskRelay } from '../../sagas/hive-task-relay';
import { ChatModule } from '../chat/chat.module';
import { ComputeModule } from '../compute/compute.module';
import { HiveWorker } from './hive-worker';

@Module({
  imports: [ChatModule, ComputeModule],
  providers: [
    HiveWorker,
    HiveTaskRelay,
    HiveResultsListener,
  ],
  exports: [ChatModule],
})
export class HiveModule {}
