/**
 * Encounter reads: the discoverable lookup by current pubkey, match rows and
 * per-user match views. Filters are built from server-side values only
 * (digests, user ids from the token, ids checked against a pattern).
 */
import { Inject, Injectable } from '@nestjs/common';
import type { MatchView } from '../../aggregates/encounter/encounter-messages';
import { EVENT_STORE, type EventStore } from '../../infrastructure/event-store/event-store.port';
import { ReadYourWrites } from '../../infrastructure/projections/read-your-writes';
import { READ_STORE, type ReadStore } from '../../infrastructure/read-store/read-store.port';
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

const MATCH_ID = /^match_[A-Za-z0-9]{1,64}$/;

@Injectable()
export class EncounterQueries {
  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    private readonly readYourWrites: ReadYourWrites,
  ) {}

  profileByPubkeyDigest(digest: string): Promise<EncounterProfileDoc | null> {
    return this.store.collection<EncounterProfileDoc>(ENCOUNTER_PROFILES).findOne(byCurrentPubkeyDigest(digest));
  }

  profileOf(userId: string): Promise<EncounterProfileDoc | null> {
    return this.store.collection<EncounterProfileDoc>(ENCOUNTER_PROFILES).findOne({ _id: String(userId) });
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
}
