/**
 * Every process manager and background worker of the service, in one place
 * (docs/architecture.md, "Process side"). Modules never import sagas; sagas
 * import the modules whose commands and services they use. Each worker runs
 * only where the background work runs (PlatformLifecycle.runsBackgroundWork():
 * PROJECTIONS=inline, or `npm run worker`).
 *
 * Process managers: SagaRunner feeds them recorded events at least once and
 * awaits their commands before the `sagas` checkpoint moves.
 * - ContestScoringSaga: ContestJoined, ScoringEventReported, RecipePublished → AwardSpark.
 * - AgentEvolutionSaga: TaskCompleted (an agent assignee) → CreditAgentXp.
 * - SocialRewardsSaga: PostPublished, CommentPosted, PostVoted, CommentVoted → GrantReward (§21.3).
 * - GoalDispatchSaga: GoalAccepted, SubtaskFailed(will_retry) → DispatchSubtasks.
 * - EncounterRecordingSaga: CommentPosted (on someone else's post), ProximityRevealed (matched) → RecordSocialEncounter.
 *
 * Relays (event store → bus; EventRelays runs them, each on its own checkpoint, moved once the bus took the batch):
 * - HiveTaskRelay: SubtaskDispatched, ExpertRunRequested → tasks on `svc.hive.tasks`.
 * - EncounterNotificationRelay: encounter events → per-user messages on the encounter topics.
 * - SocialNotificationRelay: new notifications → per-user messages on `com.svc.social`.
 * - PeerGossipRelay: this node's PeerNodeRecordUpdated, ComputeProviderJoined → `<prefix>.compute.peer-nodes`.
 *
 * Listeners (bus consumers):
 * - HiveWorker: tasks on `svc.hive.tasks` → the LLM port → results on `svc.hive.results`, while the compute settings allow.
 * - HiveResultsListener: results addressed to this node → CompleteSubtask, FailSubtask, RecordExpertAnswer.
 * - PeerGossipListener: peers' gossip → the `peer_nodes` read model.
 *
 * Timers:
 * - GoalTimeoutSweeper: this node's goals in flight → ExpireSubtasks (deadline passed), DispatchSubtasks (safety net).
 * - PromptScheduler: due `/time_agent` prompts → claimed, run through the chat pipeline, completed or failed.
 * - EncounterInboxSweeper: hourly, deletes inbox messages older than the retention.
 * - ModelEvictionSweeper: VRAM pressure past ENGINE_EVICTION_THRESHOLD → EvictModel (the lowest-priority loaded model).
 */
import { Module, type OnModuleInit, type Type } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { EventRelays, type EventRelay } from '../infrastructure/bus/event-relay';
import type { ProcessManager } from '../infrastructure/sagas/process-manager';
import { SagaRunner } from '../infrastructure/sagas/saga-runner';
import { AgentsModule } from '../modules/agents/agents.module';
import { ChatModule } from '../modules/chat/chat.module';
import { ScheduleModule } from '../modules/chat/schedule/schedule.module';
import { CommonModule } from '../modules/common/common.module';
import { ComputeModule } from '../modules/compute/compute.module';
import { EngineModule } from '../modules/engine/engine.module';
import { ContestModule } from '../modules/contest/contest.module';
import { GoalsModule } from '../modules/goals/goals.module';
import { ProximityModule } from '../modules/proximity/proximity.module';
import { AgentEvolutionSaga } from './agent-evolution.saga';
import { ContestScoringSaga } from './contest-scoring.saga';
import { EncounterRecordingSaga } from './encounter-recording.saga';
import { SocialRewardsSaga } from './social-rewards.saga';
import { EncounterInboxSweeper } from './encounter-inbox.sweeper';
import { EncounterNotificationRelay } from './encounter-notifications.relay';
import { GoalDispatchSaga } from './goal-dispatch.saga';
import { GoalTimeoutSweeper } from './goal-timeouts.sweeper';
import { HiveResultsListener } from './hive-results.listener';
import { HiveTaskRelay } from './hive-tasks.relay';
import { HiveWorker } from './hive-worker.listener';
import { ModelEvictionSweeper } from './model-eviction.sweeper';
import { PeerGossipListener } from './peer-gossip.listener';
import { PeerGossipRelay } from './peer-gossip.relay';
import { PromptScheduler } from './scheduled-prompts.scheduler';
import { SocialNotificationRelay } from './social-notifications.relay';
import { isFinalRefusal } from './support/final-refusal';

const PROCESS_MANAGERS: readonly Type<ProcessManager>[] = [ContestScoringSaga, GoalDispatchSaga, AgentEvolutionSaga, SocialRewardsSaga, EncounterRecordingSaga];

const RELAYS: readonly Type<EventRelay>[] = [HiveTaskRelay, EncounterNotificationRelay, PeerGossipRelay, SocialNotificationRelay];

const WORKERS = [
  HiveWorker,
  HiveResultsListener,
  PeerGossipListener,
  GoalTimeoutSweeper,
  PromptScheduler,
  EncounterInboxSweeper,
  ModelEvictionSweeper,
];

@Module({
  imports: [CommonModule, AgentsModule, ContestModule, GoalsModule, ProximityModule, ChatModule, ScheduleModule, ComputeModule, EngineModule],
  providers: [...PROCESS_MANAGERS, ...RELAYS, ...WORKERS],
})
export class SagasModule implements OnModuleInit {
  constructor(
    private readonly runner: SagaRunner,
    private readonly relays: EventRelays,
    private readonly moduleRef: ModuleRef,
  ) {}

  onModuleInit(): void {
    const processManagers: ProcessManager[] = PROCESS_MANAGERS.map((type) => this.moduleRef.get(type));
    this.runner.register({ processManagers, isRefusal: isFinalRefusal });
    this.relays.register(...RELAYS.map((type) => this.moduleRef.get(type)));
  }
}
