/**
 * The catalogue of every event the service records: the union of each
 * aggregate's event union. Projections and sagas are typed against it, so a
 * handler for an event type that does not exist, or a misspelt field of one
 * that does, fails to compile (docs/events.md describes each one).
 */
import type { A2aTaskEvent } from './a2a/a2a-task';
import type { ApiKeyEvent } from './accounts/api-key';
import type { AdUnitEvent } from './ads/ad-unit';
import type { AgentEvent } from './agents/agent';
import type { AgentActivityEvent } from './agents/agent-activity';
import type { BotMessageEvent } from './agents/bot-message';
import type { SharedRecipeEvent } from './agents/shared-recipe';
import type { TaskEvent } from './agents/task';
import type { ClaimEvent } from './accounts/claim';
import type { UserEvent } from './accounts/user.events';
import type { ChatEvent } from './chat/chat.events';
import type { ScheduledPromptEvent } from './chat/scheduled-prompt';
import type { ApiUsageEvent } from './compute/api-usage';
import type { ComputeReportEvent } from './compute/compute-report';
import type { NodeComputeEvent } from './compute/node-compute';
import type { PeerNodeEvent } from './compute/peer-node';
import type { RevenueEntryEvent } from './compute/revenue-entry';
import type { SettlementEvent } from './compute/settlement';
import type { ContestEntryEvent } from './contest/contest-entry';
import type { ContestWindowEvent } from './contest/contest-window';
import type { ScoringEventEvent } from './contest/scoring-event';
import type { WalletEvent } from './contest/wallet';
import type { ChallengeEntryEvent, ChallengeEvent } from './gamification/challenges';
import type { OnboardingEvent } from './gamification/onboarding';
import type { RatingEvent } from './gamification/rating';
import type { UserAchievementsEvent } from './gamification/user-achievements';
import type { ContentEvent } from './content/content.events';
import type { FeedSubscriptionEvent } from './content/feed-subscription';
import type { EncounterEvent } from './encounter/encounter.events';
import type { CodingEvent } from './engine/coding';
import type { ModelLifecycleEvent } from './engine/model-lifecycle';
import type { RuntimeToolEvent } from './engine/runtime-tool';
import type { SkillEvent } from './engine/skill';
import type { FederationNodeEvent } from './federation/federation-node';
import type { FederatedPostEvent } from './federation/federated-post';
import type { FederationFollowEvent } from './federation/federation-follow';
import type { NetworkPeerEvent } from './federation/network-peer';
import type { SyncQueueEvent } from './federation/sync-queue';
import type { SyncReceiptEvent } from './federation/sync-receipt';
import type { GoalEvent } from './goals/goal';
import type { ListingEvent } from './marketplace/listing';
import type { IntegrityChallengeEvent } from './integrity/integrity-challenge';
import type { NodeStandingEvent } from './integrity/node-standing';
import type { RegistryNodeEvent } from './integrity/registry-node';
import type { FleetNodeEvent } from './fleet/fleet-node';
import type { ProvisioningEvent } from './fleet/provisioning';
import type { MissedConnectionEvent } from './proximity/missed-connections';
import type { ProximityPairEvent } from './proximity/proximity-pair';
import type { SocialEncounterEvent } from './proximity/social-encounter';
import type { UserLocationEvent } from './proximity/user-location';
import type { FollowEvent } from './social/follow';
import type { DeviceBindingEvent } from './sync/device-binding';
import type { UserBackupsEvent } from './sync/user-backups';
import type { NotificationInboxEvent } from './social/notification-inbox';
import type { ReferralEvent } from './referrals/referral';
import type { ReferralCodeEvent } from './referrals/referral-code';
import type { ExperimentEvent } from './experiments/experiment';

export type AnyDomainEvent =
  | UserEvent
  | ClaimEvent
  | ApiKeyEvent
  | ChatEvent
  | ScheduledPromptEvent
  | NodeComputeEvent
  | PeerNodeEvent
  | ComputeReportEvent
  | SettlementEvent
  | RevenueEntryEvent
  | ApiUsageEvent
  | ContestEntryEvent
  | ContestWindowEvent
  | ScoringEventEvent
  | WalletEvent
  | EncounterEvent
  | GoalEvent
  | A2aTaskEvent
  | AgentEvent
  | TaskEvent
  | SharedRecipeEvent
  | AgentActivityEvent
  | BotMessageEvent
  | IntegrityChallengeEvent
  | NodeStandingEvent
  | RegistryNodeEvent
  | FleetNodeEvent
  | ProvisioningEvent
  | ContentEvent
  | FeedSubscriptionEvent
  | ListingEvent
  | FollowEvent
  | SocialEncounterEvent
  | UserLocationEvent
  | ProximityPairEvent
  | MissedConnectionEvent
  | NotificationInboxEvent
  | ReferralCodeEvent
  | ReferralEvent
  | RuntimeToolEvent
  | ModelLifecycleEvent
  | CodingEvent
  | SkillEvent
  | FederationNodeEvent
  | RatingEvent
  | OnboardingEvent
  | UserAchievementsEvent
  | ChallengeEvent
  | ChallengeEntryEvent
  | DeviceBindingEvent
  | UserBackupsEvent
  | ExperimentEvent
  | AdUnitEvent
  | SyncQueueEvent
  | SyncReceiptEvent
  | FederatedPostEvent
  | FederationFollowEvent
  | NetworkPeerEvent;

export type DomainEventType = AnyDomainEvent['type'];

/** The event of the catalogue with this type tag. */
export type DomainEventOf<T extends DomainEventType> = Extract<AnyDomainEvent, { type: T }>;
