/**
 * Every process manager and background worker of the service, in one place
 * (docs/architecture.md, "Process side"). Modules never import sagas; sagas
 * import the modules whose commands and services they use.
 *
 * Process managers (SagaRunner feeds them recorded events at least once and
 * awaits their commands before the `sagas` checkpoint moves):
 * - ContestScoringSaga: ContestJoined, ScoringEventReported, RecipePublished → AwardSpark.
 * - GoalDispatchSaga: GoalAccepted, SubtaskFailed(will_retry) → DispatchSubtasks.
 */
import { Module, type OnModuleInit } from '@nestjs/common';
import { SagaRunner } from '../infrastructure/sagas/saga-runner';
import { ContestModule } from '../modules/contest/contest.module';
import { ContestScoringSaga } from './contest-scoring.saga';
import { GoalDispatchSaga } from './goal-dispatch.saga';
import { isFinalRefusal } from './support/final-refusal';

@Module({
  imports: [ContestModule],
  providers: [ContestScoringSaga, GoalDispatchSaga],
})
export class SagasModule implements OnModuleInit {
  constructor(
    private readonly runner: SagaRunner,
    private readonly contestScoring: ContestScoringSaga,
    private readonly goalDispatch: GoalDispatchSaga,
  ) {}

  onModuleInit(): void {
    this.runner.register({ processManagers: [this.contestScoring, this.goalDispatch], isRefusal: isFinalRefusal });
  }
}
