/**
 * The opener draft for a match (SPEC §4.7 draft, original-system facts for
 * the reply shape). On a central-tier node the draft needs the caller's
 * cloud-drafting consent (rule 11), checked on the consent stream itself;
 * elsewhere no consent check applies. The draft is built from the match's
 * context (both users' vibe tags and avatar styles) by the template engine;
 * it is not stored: approve is what records an opener.
 */
import { Inject, Injectable, InternalServerErrorException, Logger } from '@nestjs/common';
import { consentDecider, hasCloudDraftingConsent } from '../../aggregates/encounter/consent';
import { consentStreamId } from '../../aggregates/encounter/encounter.events';
import { DEFAULT_AVATAR_STYLE } from '../../aggregates/encounter/encounter-limits';
import { draftIcebreaker, type IcebreakerDraft } from '../../aggregates/encounter/icebreaker-draft';
import { DomainError } from '../../aggregates/shared/domain-error';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import { CommandExecutor } from '../common/command-executor';
import { EncounterQueries } from './encounter.queries';

export const CONSENT_REQUIRED = 'cloud drafting consent required (consent type cloud_capability, scope * or encounter_icebreaker)';

@Injectable()
export class IcebreakerDrafting {
  private readonly logger = new Logger('IcebreakerDrafting');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly executor: CommandExecutor,
    private readonly queries: EncounterQueries,
  ) {}

  async draft(userId: string, matchId: string): Promise<IcebreakerDraft> {
    if (this.config.nodeTier === 'central') {
      const { state } = await this.executor.load(consentDecider, consentStreamId(userId));
      if (!hasCloudDraftingConsent(state)) throw new DomainError('forbidden', CONSENT_REQUIRED);
    }
    const match = await this.queries.matchFor(matchId, userId);
    if (!match) throw new DomainError('not_found', 'match not found');
    const peerId = match.user_a_id === userId ? match.user_b_id : match.user_a_id;
    try {
      const [self, peer] = await Promise.all([this.queries.profileOf(userId), this.queries.profileOf(peerId)]);
      return draftIcebreaker({
        matchId,
        self: { avatar_style: self?.avatar_style ?? DEFAULT_AVATAR_STYLE, vibe_tags: self?.vibe_tags ?? [] },
        peer: { avatar_style: peer?.avatar_style ?? DEFAULT_AVATAR_STYLE, vibe_tags: peer?.vibe_tags ?? [] },
        maxChars: this.config.encounter.draftMaxChars,
      });
    } catch (error) {
      this.logger.error(`draft for ${matchId} failed: ${error instanceof Error ? error.message : String(error)}`);
      throw new InternalServerErrorException('draft_failed');
    }
  }
}
