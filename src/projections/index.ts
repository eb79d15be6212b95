/** Every read model of the service: what the app runs and what `projections:rebuild` can rebuild. */
import type { ProjectionDefinition } from '../infrastructure/projections/projection';
import { accountStatsProjection } from './account-stats.projection';
import { apiKeysProjection } from './api-keys.projection';
import { computeEscrowsProjection } from './compute-escrows.projection';
import { computeProviderProjection } from './compute-provider.projection';
import { computeSettingsProjection } from './compute-settings.projection';
import { chatSpendProjection } from './chat-spend.projection';
import { contestLeaderboardProjection } from './contest-leaderboard.projection';
import { encounterConsentsProjection } from './encounter/consents.projection';
import { encounterInboxProjection } from './encounter-inbox.projection';
import { encounterMatchesProjection } from './encounter-matches.projection';
import { encounterProfilesProjection } from './encounter-profiles.projection';
import { goalsProjection } from './goals.projection';
import { revenueProjection } from './revenue.projection';
import { tradingProjection } from './trading.projection';
import { revokedTokensProjection } from './revoked-tokens.projection';
import { scheduledPromptsProjection } from './scheduled-prompts.projection';
import { usersProjection } from './users.projection';

export const ALL_PROJECTIONS: readonly ProjectionDefinition[] = [
  usersProjection,
  revokedTokensProjection,
  apiKeysProjection,
  accountStatsProjection,
  contestLeaderboardProjection,
  computeSettingsProjection,
  computeProviderProjection,
  revenueProjection,
  tradingProjection,
  computeEscrowsProjection,
  encounterProfilesProjection,
  encounterMatchesProjection,
  encounterInboxProjection,
  encounterConsentsProjection,
  scheduledPromptsProjection,
  goalsProjection,
  chatSpendProjection,
];
