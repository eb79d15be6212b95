/**
 * Every process manager and background worker of the service, in one place
 * (docs/architecture.md, "Process side"). Modules never import sagas; sagas
 * import the modules whose commands and services they use. Each worker runs
 * only where the background work runs (PlatformLifecycle.runsBackgroundWork():
 * PROJECTIONS=inline, or `npm run worker`); the process managers and the
 * timers that append events (goal timeouts, the prompt scheduler, model
 * eviction) and the hive results listener not on a regional node, which
 * replays central's log and writes nothing of its own
 * (PlatformLifecycle.writesInBackground()).
 *
 * Process managers: SagaRunner feeds them recorded events at least once and
 * awaits their commands before the `sagas` checkpoint moves.
 * - ContestScoringSaga: ContestJoined, ScoringEventReported, RecipePublished → AwardSpark.
 * - AgentEvolutionSaga: TaskCompleted (an agent assignee) → CreditAgentXp.
 * - SocialRewardsSaga: PostPublished, CommentPosted, PostVoted, CommentVoted, ProximityRevealed (matched), MissedConnectionResponseAccepted → GrantReward (§21.3, §13).
 * - GoalDispatchSaga: GoalAccepted, SubtaskFailed(will_retry) → DispatchSubtasks.
 * - OnboardingSaga: OnboardingStepCompleted, OnboardingCompleted → GrantReward (the step's reward, the 50 spark bonus);
 *   UserFollowed, CommunityJoined, PostVoted, CommentVoted, CommentPosted, PostPublished → CompleteOnboardingStep.
 * - EncounterRecordingSaga: CommentPosted (on someone else's post), ProximityRevealed (matched), MissedConnectionResponseAccepted → RecordSocialEncounter.
 * - ReferralActivationSaga: ReferralCreated, PostPublished, CommentPosted, PostVoted, CommentVoted → CheckReferralActivation.
 * - ExperimentPublicationSaga: ExperimentProposed → PublishPost (the linked post, deterministic id) and GrantReward experiment_proposed; ExperimentVoteCast/Revised → GrantReward experiment_voted, experiment_suggestion (§17).
 * - AdRevenueSaga: AdImpressionRecorded → RecordRevenue (stream `ad`), ShareAdRevenue (the node operator's share); AdUnitCompleted → ReleaseAdBudget.
 * - AchievementsSaga: the events that earn achievements (posts, comments, votes, follows, joins, agents, tasks, recipes, ratings,
 *   referrals, matches, boosts, check-ins, onboarding, upvote rewards) → CountAchievementProgress / ObserveAchievementStat / ObserveLevel;
 *   AchievementUnlocked, ChallengeRewardClaimed → GrantReward (once per source).
 * - BackupErasureSaga: UserAnonymized → EraseUserBackups (the metadata forgotten, the files deleted).
 * - SyncQueueSaga: PostPublished (not in a private community), on a node with SYNC_PARENT_URL → EnqueueSyncItem (sync_post).
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
 * - FeedPoller: every FEED_POLL_INTERVAL_MS, the auto-import feed subscriptions → PublishPost (deterministic ids), RecordFeedPoll; not on a regional node.
 * - ReferralActivationSweeper: hourly, pending referrals of accounts turning 3 days old → CheckReferralActivation (not on a regional node).
 * - SyncSender: every SYNC_INTERVAL_MS, on a node with SYNC_PARENT_URL, the sync queue's due items → StartSyncBatch, a signed POST
 *   to the parent's /hierarchy/sync, SettleSyncBatch (not on a regional node replaying a log).
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
import { ContentModule } from '../modules/content/content.module';
import { ContestModule } from '../modules/contest/contest.module';
import { GoalsModule } from '../modules/goals/goals.module';
import { ProximityModule } from '../modules/proximity/proximity.module';
import { ReferralsModule } from '../modules/referrals/referrals.module';
import { AdsModule } from '../modules/ads/ads.module';
import { AdRevenueSaga } from './ad-revenue.saga';
import { AchievementsSaga } from './achievements.saga';
import { AgentEvolutionSaga } from './agent-evolution.saga';
import { BackupErasureSaga } from './backup-erasure.saga';
import { ContestScoringSaga } from './contest-scoring.saga';
import { EncounterRecordingSaga } from './encounter-recording.saga';
import { OnboardingSaga } from './onboarding.saga';
import { SocialRewardsSaga } from './social-rewards.saga';
import { EncounterInboxSweeper } from './encounter-inbox.sweeper';
import { EncounterNotificationRelay } from './encounter-notifications.relay';
import { FeedPoller } from './feed-poller.sweeper';
import { GoalDispatchSaga } from './goal-dispatch.saga';
import { GoalTimeoutSweeper } from './goal-timeouts.sweeper';
import { HiveResultsListener } from './hive-results.listener';
import { HiveTaskRelay } from './hive-tasks.relay';
import { HiveWorker } from './hive-worker.listener';
import { ModelEvictionSweeper } from './model-eviction.sweeper';
import { PeerGossipListener } from './peer-gossip.listener';
import { PeerGossipRelay } from './peer-gossip.relay';
import { PromptScheduler } from './scheduled-prompts.scheduler';
import { ReferralActivationSaga } from './referral-activation.saga';
import { ExperimentPublicationSaga } from './experiment-publication.saga';
import { ReferralActivationSweeper } from './referral-activation.sweeper';
import { SocialNotificationRelay } from './social-notifications.relay';
import { SyncQueueSaga } from './sync-queue.saga';
import { SyncSender } from './sync-sender.sweeper';
import { isFinalRefusal } from './support/final-refusal';

const PROCESS_MANAGERS: readonly Type<ProcessManager>[] = [
  ContestScoringSaga,
  GoalDispatchSaga,
  AgentEvolutionSaga,
  SocialRewardsSaga,
  EncounterRecordingSaga,
  OnboardingSaga,
  ReferralActivationSaga,
  ExperimentPublicationSaga,
  AdRevenueSaga,
  AchievementsSaga,
  BackupErasureSaga,
  SyncQueueSaga,
];

const RELAYS: readonly Type<EventRelay>[] = [HiveTaskRelay, EncounterNotificationRelay, PeerGossipRelay, SocialNotificationRelay];

const WORKERS = [
  HiveWorker,
  HiveResultsListener,
  PeerGossipListener,
  GoalTimeoutSweeper,
  PromptScheduler,
  EncounterInboxSweeper,
  ModelEvictionSweeper,
  FeedPoller,
  ReferralActivationSweeper,
  SyncSender,
];

@Module({
  imports: [CommonModule, AgentsModule, ContentModule, ContestModule, GoalsModule, ProximityModule, ReferralsModule, ChatModule, ScheduleModule, ComputeModule, EngineModule, AdsModule],
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
