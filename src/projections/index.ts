/** Every read model of the service: what the app runs and what `projections:rebuild` can rebuild. */
import type { ProjectionDefinition } from '../infrastructure/projections/projection';
import { a2aAgentsProjection } from './a2a/a2a-agents.projection';
import { a2aTasksProjection } from './a2a/a2a-tasks.projection';
import { agentProfilesProjection } from './agents/agent-profiles.projection';
import { recipesProjection } from './agents/recipes.projection';
import { skillBadgesProjection } from './agents/skill-badges.projection';
import { tasksProjection } from './agents/tasks.projection';
import { accountStatsProjection } from './accounts/account-stats.projection';
import { adsProjection } from './ads/ads.projection';
import { apiKeysProjection } from './accounts/api-keys.projection';
import { apiTokensProjection } from './accounts/api-tokens.projection';
import { revokedTokensProjection } from './accounts/revoked-tokens.projection';
import { usersProjection } from './accounts/users.projection';
import { chatSpendProjection } from './chat/chat-spend.projection';
import { scheduledPromptsProjection } from './chat/scheduled-prompts.projection';
import { computeProviderProjection } from './compute/compute-provider.projection';
import { computeSettingsProjection } from './compute/compute-settings.projection';
import { revenueProjection } from './compute/revenue.projection';
import { contestLeaderboardProjection } from './contest/contest-leaderboard.projection';
import { resonanceWalletsProjection } from './resonance/wallets.projection';
import { encounterConsentsProjection } from './encounter/consents.projection';
import { encounterInboxProjection } from './encounter/encounter-inbox.projection';
import { encounterMatchesProjection } from './encounter/encounter-matches.projection';
import { encounterProfilesProjection } from './encounter/encounter-profiles.projection';
import { codingRunsProjection } from './engine/coding-runs.projection';
import { engineModelsProjection } from './engine/engine-models.projection';
import { engineToolsProjection } from './engine/engine-tools.projection';
import { skillsProjection } from './engine/skills.projection';
import { federationNodesProjection } from './federation/federation-nodes.projection';
import { achievementsProjection } from './gamification/achievements.projection';
import { challengesProjection } from './gamification/challenges.projection';
import { federatedPostsProjection } from './federation/federated-posts.projection';
import { federationFollowsProjection } from './federation/federation-follows.projection';
import { networkPeersProjection } from './federation/network-peers.projection';
import { syncQueueProjection } from './federation/sync-queue.projection';
import { onboardingProjection } from './gamification/onboarding.projection';
import { seasonStandingsProjection } from './gamification/season-standings.projection';
import { ratingsProjection } from './gamification/ratings.projection';
import { goalsProjection } from './goals/goals.projection';
import { integrityChallengesProjection } from './integrity/integrity-challenges.projection';
import { nodeStandingsProjection } from './integrity/node-standings.projection';
import { integrityAlertsProjection } from './integrity/integrity-alerts.projection';
import { registryNodesProjection } from './integrity/registry-nodes.projection';
import { fleetNodesProjection } from './fleet/fleet-nodes.projection';
import { provisionedNodesProjection } from './fleet/provisioned-nodes.projection';
import { apiKeyUsageProjection } from './compute/api-key-usage.projection';
import { commentsProjection } from './content/comments.projection';
import { communitiesProjection } from './content/communities.projection';
import { feedSubscriptionsProjection } from './content/feed-subscriptions.projection';
import { postsProjection } from './content/posts.projection';
import { reportsProjection } from './content/reports.projection';
import { votesProjection } from './content/votes.projection';
import { followsProjection } from './social/follows.projection';
import { listingsProjection } from './marketplace/listings.projection';
import { socialEncountersProjection } from './proximity/social-encounters.projection';
import { locationPingsProjection } from './proximity/location-pings.projection';
import { proximityMatchesProjection } from './proximity/proximity-matches.projection';
import { missedConnectionsProjection } from './proximity/missed-connections.projection';
import { notificationsProjection } from './social/notifications.projection';
import { referralsProjection } from './referrals/referrals.projection';
import { backupsProjection } from './sync/backups.projection';
import { deviceBindingsProjection } from './sync/device-bindings.projection';
import { experimentsProjection } from './experiments/experiments.projection';

export const ALL_PROJECTIONS: readonly ProjectionDefinition[] = [
  usersProjection,
  revokedTokensProjection,
  apiKeysProjection,
  apiTokensProjection,
  accountStatsProjection,
  contestLeaderboardProjection,
  resonanceWalletsProjection,
  computeSettingsProjection,
  computeProviderProjection,
  revenueProjection,
  encounterProfilesProjection,
  encounterMatchesProjection,
  encounterInboxProjection,
  encounterConsentsProjection,
  scheduledPromptsProjection,
  goalsProjection,
  chatSpendProjection,
  a2aAgentsProjection,
  a2aTasksProjection,
  integrityChallengesProjection,
  nodeStandingsProjection,
  integrityAlertsProjection,
  registryNodesProjection,
  fleetNodesProjection,
  provisionedNodesProjection,
  apiKeyUsageProjection,
  postsProjection,
  votesProjection,
  commentsProjection,
  communitiesProjection,
  reportsProjection,
  feedSubscriptionsProjection,
  listingsProjection,
  followsProjection,
  socialEncountersProjection,
  locationPingsProjection,
  proximityMatchesProjection,
  missedConnectionsProjection,
  notificationsProjection,
  referralsProjection,
  agentProfilesProjection,
  tasksProjection,
  recipesProjection,
  skillBadgesProjection,
  engineToolsProjection,
  engineModelsProjection,
  codingRunsProjection,
  skillsProjection,
  federationNodesProjection,
  ratingsProjection,
  onboardingProjection,
  achievementsProjection,
  challengesProjection,
  seasonStandingsProjection,
  deviceBindingsProjection,
  backupsProjection,
  experimentsProjection,
  adsProjection,
  syncQueueProjection,
  federatedPostsProjection,
  federationFollowsProjection,
  networkPeersProjection,
];
