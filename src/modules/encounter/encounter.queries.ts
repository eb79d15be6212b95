/**
 * Encounter reads, from read models only: the discoverable preference and the
 * lookup by current pubkey (encounter profiles), match rows and per-user match
 * views, consents, and the icebreaker draft built from them. Filters are built
 * from server-side values only (digests, user ids from the token, ids checked
 * against a pattern).
 */
import { Inject, Injectable, Logger } from '@nestjs/common';
import { allowsCloudDrafting } from '../../aggregates/encounter/consent';
import {
  discoverableDecider,
  discoverablePreference,
  type DiscoverablePreference,
  discoverableView,
  type DiscoverableView,
} from '../../aggregates/encounter/discoverable';
import { DEFAULT_AVATAR_STYLE } from '../../aggregates/encounter/encounter-limits';
import type { MatchView } from '../../aggregates/encounter/encounter-messages';
import { draftIcebreaker, type IcebreakerDraft } from '../../aggregates/encounter/icebreaker-draft';
import { DomainError } from '../../aggregates/shared/domain-error';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import { Clock } from '../../infrastructure/clock';
import { EVENT_STORE, type EventStore } from '../../infrastructure/event-store/event-store.port';
import { ReadYourWrites } from '../../infrastructure/projections/read-your-writes';
import { READ_STORE, type ReadStore } from '../../infrastructure/read-store/read-store.port';
import { activeConsentsOf, ENCOUNTER_CONSENTS, type EncounterConsentDoc } from '../../projections/encounter/consents.projection';
import {
  ENCOUNTER_MATCH_VIEWS,
  ENCOUNTER_MATCHES,
  type EncounterMatchDoc,
  type EncounterMatchViewDoc,
  type MapPin,
  mapPinsOfUser,
  matchesOfUser,
  toMapPin,
  toMatchView,
} from '../../projections/encounter/encounter-matches.projection';
import {
  byCurrentPubkeyDigest,
  ENCOUNTER_PROFILES,
  type EncounterProfileDoc,
} from '../../projections/encounter/encounter-profiles.projection';
import type { ConsentReply } from './encounter.commands';

const MATCH_ID = /^match_[A-Za-z0-9]{1,64}$/;

export const CONSENT_REQUIRED = 'cloud drafting consent required (consent type cloud_capability, scope * or encounter_icebreaker)';

/** The stored preference in the decider's terms, so the view is computed by the one function the decider uses. */
function preferenceOf(doc: EncounterProfileDoc): DiscoverablePreference {
  return {
    enabled: doc.enabled,
    expiresAt: doc.expires_at,
    toggleCount: doc.toggle_count_24h,
    windowStart: doc.toggle_window_start,
    profile: { age_claim_18: doc.age_claim_18, face_visible: doc.face_visible, avatar_style: doc.avatar_style, vibe_tags: doc.vibe_tags },
  };
}

@Injectable()
export class EncounterQueries {
  private readonly logger = new Logger('EncounterQueries');

  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly readYourWrites: ReadYourWrites,
    private readonly clock: Clock,
  ) {}

  profileByPubkeyDigest(digest: string): Promise<EncounterProfileDoc | null> {
    return this.store.collection<EncounterProfileDoc>(ENCOUNTER_PROFILES).findOne(byCurrentPubkeyDigest(digest));
  }

  profileOf(userId: string): Promise<EncounterProfileDoc | null> {
    return this.store.collection<EncounterProfileDoc>(ENCOUNTER_PROFILES).findOne({ _id: String(userId) });
  }

  /** GET /encounter/discoverable: the stored preference as of now (expiry is a matter of the clock). */
  async discoverableOf(userId: string): Promise<DiscoverableView> {
    const doc = await this.profileOf(userId);
    return discoverableView(doc ? preferenceOf(doc) : discoverablePreference(discoverableDecider.initialState), this.clock.now());
  }

  /**
   * The match row with this id when `userId` is one of its two users, else
   * null (never tells a non-participant that the match exists). A match the
   * caller heard of (a message from another node) may not be projected here
   * yet: on a miss the projections are given until the log's head once.
   */
  async matchFor(matchId: string, userId: string): Promise<EncounterMatchDoc | null> {
    if (!MATCH_ID.test(matchId)) return null;
    const matches = this.store.collection<EncounterMatchDoc>(ENCOUNTER_MATCHES);
    let match = await matches.findOne({ _id: matchId });
    if (!match) {
      await this.readYourWrites.waitFor(await this.events.headPosition(), ['MatchBound']);
      match = await matches.findOne({ _id: matchId });
    }
    return match && (match.user_a_id === userId || match.user_b_id === userId) ? match : null;
  }

  async matchesOf(userId: string): Promise<MatchView[]> {
    const { filter, options } = matchesOfUser(userId);
    const docs = await this.store.collection<EncounterMatchViewDoc>(ENCOUNTER_MATCH_VIEWS).find(filter, options);
    return docs.map(toMatchView);
  }

  async mapPinsOf(userId: string): Promise<MapPin[]> {
    const { filter, options } = mapPinsOfUser(userId);
    const docs = await this.store.collection<EncounterMatchViewDoc>(ENCOUNTER_MATCH_VIEWS).find(filter, options);
    return docs.map(toMapPin);
  }

  /** GET consent: the user's active consents, by type, then scope, and whether they allow cloud drafting. */
  async consentsOf(userId: string): Promise<ConsentReply> {
    const { filter, options } = activeConsentsOf(userId);
    const docs = await this.store.collection<EncounterConsentDoc>(ENCOUNTER_CONSENTS).find(filter, options);
    const consents = docs.map((d) => ({ consent_type: d.consent_type, scope: d.scope, granted_at: d.granted_at }));
    return { cloud_data_consent: allowsCloudDrafting(consents), consents };
  }

  /**
   * The opener draft for a match (SPEC §4.7 draft, original-system facts for
   * the reply shape). On a central-tier node the draft needs the caller's
   * cloud-drafting consent (rule 11); elsewhere no consent check applies. The
   * draft is built from the match's context (both users' vibe tags and avatar
   * styles) by the template engine; it is not stored: approve is what records
   * an opener.
   */
  async icebreakerDraft(userId: string, matchId: string): Promise<IcebreakerDraft> {
    if (this.config.nodeTier === 'central' && !(await this.consentsOf(userId)).cloud_data_consent) {
      throw new DomainError('forbidden', CONSENT_REQUIRED);
    }
    const match = await this.matchFor(matchId, userId);
    if (!match) throw new DomainError('not_found', 'match not found');
    const peerId = match.user_a_id === userId ? match.user_b_id : match.user_a_id;
    try {
      const [self, peer] = await Promise.all([this.profileOf(userId), this.profileOf(peerId)]);
      return draftIcebreaker({
        matchId,
        self: { avatar_style: self?.avatar_style ?? DEFAULT_AVATAR_STYLE, vibe_tags: self?.vibe_tags ?? [] },
        peer: { avatar_style: peer?.avatar_style ?? DEFAULT_AVATAR_STYLE, vibe_tags: peer?.vibe_tags ?? [] },
        maxChars: this.config.encounter.draftMaxChars,
      });
    } catch (error) {
      this.logger.error(`draft for ${matchId} failed: ${error instanceof Error ? error.message : String(error)}`);
      throw new DomainError('internal', 'draft_failed');
    }
  }
}
