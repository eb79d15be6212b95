/** Reads of the proximity context (social-routes §13): the encounter rows of a user, per pair and per other user. */
import { Inject, Injectable } from '@nestjs/common';
import type { EncounterRow } from '../../aggregates/proximity/social-encounter';
import { READ_STORE, type ReadStore } from '../../infrastructure/read-store/read-store.port';
import { USERS, type UserDoc } from '../../projections/accounts/users.projection';
import { cellAndNeighbours, distanceMeters, type LatLon } from '../../aggregates/proximity/geo';
import { LOCATION_PINGS, type LocationPingDoc } from '../../projections/proximity/location-pings.projection';
import { PROXIMITY_MATCHES, type ProximityMatchDoc } from '../../projections/proximity/proximity-matches.projection';
import { SOCIAL_ENCOUNTERS, type SocialEncounterDoc } from '../../projections/proximity/social-encounters.projection';
import { AccountsQueries } from '../accounts/accounts.queries';
import { escapeHtml } from '../common/html-escape';

export type EncounterView = Omit<EncounterRow, 'encounter_id'> & { id: string };
export interface UserCard {
  id: string;
  username: string;
  display_name: string;
  avatar_url: string | null;
  user_type: string;
}
export type EncounterWithOther = EncounterView & { other_user: UserCard | null };
export interface EncounterSuggestion {
  user_id: string;
  username: string;
  display_name: string;
  avatar_url: string | null;
  user_type: string;
  total_encounters: number;
  shared_contexts: number;
  max_bond: number;
}
export interface EncounterBond {
  user_id: string;
  username: string;
  display_name: string;
  avatar_url: string | null;
  bond_level: number;
  total_encounters: number;
  latest_at: string;
}

export const MATCH_STATUSES = ['pending', 'revealed_a', 'revealed_b', 'matched', 'expired'] as const;
export type MatchStatus = (typeof MATCH_STATUSES)[number];
export interface MatchView {
  id: string;
  status: MatchStatus;
  distance_bucket: string;
  detected_at: string;
  expires_at: string;
  user_a?: UserCard | { id: string };
  user_b?: UserCard | { id: string };
  you_revealed?: boolean;
  other_revealed?: boolean;
}

/** How many of a user's rows the per-person summaries look at (the most recent ones). */
const SUMMARY_ROWS = 5000;
const SUGGESTIONS = 10;
const NEARBY = 20;
const ACTIVE_MS = 24 * 3600 * 1000;
const NEARBY_NOW_M = 500;
const MATCHES = 200;

export function encounterView(row: Omit<EncounterRow, 'is_mutual_aware'> & { is_mutual_aware?: boolean }): EncounterView {
  const { encounter_id, ...rest } = row;
  return {
    id: encounter_id,
    user_a_id: rest.user_a_id,
    user_b_id: rest.user_b_id,
    context_type: rest.context_type,
    context_id: rest.context_id,
    location_label: escapeHtml(rest.location_label),
    encounter_count: rest.encounter_count,
    bond_level: rest.bond_level,
    first_at: rest.first_at,
    latest_at: rest.latest_at,
    is_mutual_aware: rest.is_mutual_aware === true,
  };
}

export const userCard = (user: UserDoc): UserCard => ({
  id: user.id,
  username: user.username,
  display_name: escapeHtml(user.display_name),
  avatar_url: user.avatar_url,
  user_type: user.user_type,
});

/** The person fields of a suggestion or bond entry. */
const personOf = (user: UserDoc) => ({ user_id: user.id, username: user.username, display_name: escapeHtml(user.display_name), avatar_url: user.avatar_url });

const otherOf = (row: Pick<EncounterRow, 'user_a_id' | 'user_b_id'>, userId: string): string => (row.user_a_id === userId ? row.user_b_id : row.user_a_id);

@Injectable()
export class ProximityQueries {
  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    private readonly accounts: AccountsQueries,
  ) {}

  private encounters() {
    return this.store.collection<SocialEncounterDoc>(SOCIAL_ENCOUNTERS);
  }

  private rowsOf(userId: string, limit: number): Promise<SocialEncounterDoc[]> {
    return this.encounters().find({ $or: [{ user_a_id: userId }, { user_b_id: userId }] }, { sort: { latest_at: -1 }, limit });
  }

  /** The row with this id, or null. */
  encounter(encounterId: string): Promise<SocialEncounterDoc | null> {
    return this.encounters().findOne({ _id: encounterId });
  }

  /** GET /encounters: the caller's rows, latest first, each with the other user. */
  async encountersOf(userId: string, limit: number): Promise<EncounterWithOther[]> {
    const rows = await this.rowsOf(userId, limit);
    const users = await this.accounts.usersByIds(rows.map((row) => otherOf(row, userId)));
    return rows.map((row) => {
      const other = users.get(otherOf(row, userId));
      return { ...encounterView(row), other_user: other ? userCard(other) : null };
    });
  }

  /** GET /encounters/{user_id}: the rows of the caller's pair with that user, latest first. */
  async between(userId: string, otherId: string): Promise<EncounterView[]> {
    const [a, b] = userId < otherId ? [userId, otherId] : [otherId, userId];
    const rows = await this.encounters().find({ user_a_id: a, user_b_id: b }, { sort: { latest_at: -1 } });
    return rows.map(encounterView);
  }

  /** The caller's rows summed per other user, with their accounts. */
  private async perPerson(userId: string) {
    const rows = await this.rowsOf(userId, SUMMARY_ROWS);
    const people = new Map<string, { total: number; contexts: number; maxBond: number; latestAt: string }>();
    for (const row of rows) {
      const other = otherOf(row, userId);
      const seen = people.get(other) ?? { total: 0, contexts: 0, maxBond: 0, latestAt: row.latest_at };
      people.set(other, {
        total: seen.total + row.encounter_count,
        contexts: seen.contexts + 1,
        maxBond: Math.max(seen.maxBond, row.bond_level),
        latestAt: seen.latestAt > row.latest_at ? seen.latestAt : row.latest_at,
      });
    }
    const users = await this.accounts.usersByIds(people.keys());
    return [...people].flatMap(([id, summary]) => {
      const user = users.get(id);
      return user ? [{ user, ...summary }] : [];
    });
  }

  /** GET /encounters/suggestions: people met at least twice in all, most encounters first, up to 10. */
  async suggestions(userId: string): Promise<EncounterSuggestion[]> {
    return (await this.perPerson(userId))
      .filter((person) => person.total >= 2)
      .sort((x, y) => y.total - x.total || (x.latestAt < y.latestAt ? 1 : -1))
      .slice(0, SUGGESTIONS)
      .map(({ user, total, contexts, maxBond }) => ({
        ...personOf(user),
        user_type: user.user_type,
        total_encounters: total,
        shared_contexts: contexts,
        max_bond: maxBond,
      }));
  }

  /** GET /encounters/bonds: one entry per person whose bond reached 1, highest bond first. */
  async bonds(userId: string): Promise<EncounterBond[]> {
    return (await this.perPerson(userId))
      .filter((person) => person.maxBond >= 1)
      .sort((x, y) => y.maxBond - x.maxBond || y.total - x.total)
      .map(({ user, total, maxBond, latestAt }) => ({ ...personOf(user), bond_level: maxBond, total_encounters: total, latest_at: latestAt }));
  }

  /** The caller's stored, unexpired location, or null. */
  async lastLocation(userId: string, now: Date): Promise<LatLon | null> {
    const ping = await this.store.collection<LocationPingDoc>(LOCATION_PINGS).findOne({ _id: userId });
    if (!ping || ping.lat === null || ping.lon === null || !ping.expires_at || ping.expires_at <= now.toISOString()) return null;
    return { lat: ping.lat, lon: ping.lon };
  }

  /**
   * Others whose live ping lies within `radiusMeters` (at most 500) of the point, nearest first: the
   * point's geohash cell and its neighbours by indexed equality, then the exact distance.
   */
  async pingsNear(point: LatLon, radiusMeters: number, exceptUserId: string, now: Date): Promise<Array<{ userId: string; meters: number }>> {
    const pings = await this.store
      .collection<LocationPingDoc>(LOCATION_PINGS)
      .find({ geohash: { $in: cellAndNeighbours(point) }, expires_at: { $gt: now.toISOString() } });
    return pings
      .flatMap((ping) => {
        if (ping.user_id === exceptUserId || ping.lat === null || ping.lon === null) return [];
        const meters = distanceMeters(point, { lat: ping.lat, lon: ping.lon });
        return meters <= radiusMeters ? [{ userId: ping.user_id, meters }] : [];
      })
      .sort((x, y) => x.meters - y.meters);
  }

  /** GET /encounters/nearby-now: how many others pinged within 500 m of the caller's last location. */
  async nearbyNow(userId: string, now: Date): Promise<{ nearby_count: number }> {
    const here = await this.lastLocation(userId, now);
    return { nearby_count: here ? (await this.pingsNear(here, NEARBY_NOW_M, userId, now)).length : 0 };
  }

  /** GET /encounters/location-settings. */
  async locationSettings(userId: string, now: Date): Promise<{ location_sharing_enabled: boolean; has_location: boolean }> {
    const [user, here] = await Promise.all([this.accounts.userById(userId), this.lastLocation(userId, now)]);
    return { location_sharing_enabled: user?.location_sharing_enabled === true, has_location: here !== null };
  }

  /** A match by id, or null. */
  match(matchId: string): Promise<ProximityMatchDoc | null> {
    return this.store.collection<ProximityMatchDoc>(PROXIMITY_MATCHES).findOne({ _id: matchId });
  }

  /** GET /encounters/proximity-matches: the caller's matches, newest first; expired ones only when asked for by status. */
  async matchesOf(userId: string, status: MatchStatus | null, now: Date): Promise<MatchView[]> {
    const docs = await this.store
      .collection<ProximityMatchDoc>(PROXIMITY_MATCHES)
      .find({ $or: [{ user_a_id: userId }, { user_b_id: userId }] }, { sort: { detected_at: -1 }, limit: MATCHES });
    const views = await Promise.all(docs.map((doc) => this.matchView(doc, userId, now)));
    return views.filter((view) => (status ? view.status === status : view.status !== 'expired'));
  }

  /** The match view (§13) as the caller sees it: the two profiles once matched, else who revealed. */
  async matchView(doc: ProximityMatchDoc, callerId: string, now: Date): Promise<MatchView> {
    const status = (doc.status !== 'matched' && doc.expires_at <= now.toISOString() ? 'expired' : doc.status) as MatchStatus;
    const base = { id: doc._id, status, distance_bucket: doc.distance_bucket, detected_at: doc.detected_at, expires_at: doc.expires_at };
    if (status === 'matched') {
      const users = await this.accounts.usersByIds([doc.user_a_id, doc.user_b_id]);
      const card = (id: string) => (users.has(id) ? userCard(users.get(id)!) : { id });
      return { ...base, user_a: card(doc.user_a_id), user_b: card(doc.user_b_id) };
    }
    const mine = callerId === doc.user_a_id ? doc.revealed_a : doc.revealed_b;
    const theirs = callerId === doc.user_a_id ? doc.revealed_b : doc.revealed_a;
    return { ...base, you_revealed: mine === true, other_revealed: theirs === true };
  }

  /** GET /encounters/nearby: up to 20 others of the caller's region active in the last 24 h; [] without a region. */
  async nearby(userId: string, now: Date): Promise<UserCard[]> {
    const caller = await this.accounts.userById(userId);
    if (!caller?.region_id) return [];
    const since = new Date(now.getTime() - ACTIVE_MS).toISOString();
    const users = await this.store
      .collection<UserDoc>(USERS)
      .find(
        { region_id: caller.region_id, last_active_at: { $gte: since }, _id: { $ne: userId }, is_banned: { $ne: true }, anonymized_at: null },
        { sort: { last_active_at: -1 }, limit: NEARBY },
      );
    return users.map(userCard);
  }
}
