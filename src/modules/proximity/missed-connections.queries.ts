/**
 * Reads of the missed connections (social-routes §13). A radius lookup reads
 * the geohash cells of the precision that covers the radius, and their
 * neighbours, by indexed equality (missed-connections.projection.ts), then
 * keeps what the exact distance allows. No view carries the coordinates:
 * a list says how far, as `distance_label`.
 */
import { Inject, Injectable } from '@nestjs/common';
import { cellAndNeighbours, coveringPrecision, distanceLabel, distanceMeters, type LatLon } from '../../aggregates/proximity/geo';
import { READ_STORE, type ReadStore } from '../../infrastructure/read-store/read-store.port';
import {
  cellField,
  MISSED_CONNECTION_RESPONSES,
  MISSED_CONNECTIONS,
  type MissedConnectionDoc,
  type MissedConnectionResponseDoc,
} from '../../projections/proximity/missed-connections.projection';
import type { UserDoc } from '../../projections/accounts/users.projection';
import { AccountsQueries } from '../accounts/accounts.queries';
import { escapeHtml } from '../common/html-escape';
import type { Page } from '../common/paging';
import type { MissedSort } from './missed-connections.requests';

export const SUGGEST_RADIUS_M = 5000;
const SUGGESTIONS = 10;

/** The post as shown: every field but its place (coordinates and cells). */
export type MissedConnectionView = Pick<
  MissedConnectionDoc,
  'user_id' | 'location_name' | 'description' | 'was_at' | 'is_active' | 'response_count' | 'created_at' | 'expires_at'
> & { id: string };
export type NearbyMissedConnection = MissedConnectionView & { distance_label: string };
export interface PersonCard {
  id: string;
  username: string;
  display_name: string;
  avatar_url: string | null;
}
export interface MissedResponseView {
  id: string;
  missed_connection_id: string;
  responder_id: string;
  message: string;
  status: string;
  created_at: string;
}
export type MissedConnectionDetail = MissedConnectionView & {
  user: PersonCard | null;
  responses: Array<MissedResponseView & { responder: PersonCard | null }>;
  is_owner: boolean;
};

export const missedConnectionView = (doc: MissedConnectionDoc): MissedConnectionView => ({
  id: doc._id,
  user_id: doc.user_id,
  location_name: escapeHtml(doc.location_name),
  description: escapeHtml(doc.description),
  was_at: doc.was_at,
  is_active: doc.is_active,
  response_count: doc.response_count,
  created_at: doc.created_at,
  expires_at: doc.expires_at,
});

export const missedResponseView = (doc: MissedConnectionResponseDoc): MissedResponseView => ({
  id: doc._id,
  missed_connection_id: doc.missed_connection_id,
  responder_id: doc.responder_id,
  message: escapeHtml(doc.message),
  status: doc.status,
  created_at: doc.created_at,
});

const personCard = (user: UserDoc | undefined): PersonCard | null =>
  user ? { id: user.id, username: user.username, display_name: escapeHtml(user.display_name), avatar_url: user.avatar_url } : null;

const SORTS: Record<MissedSort, (x: { doc: MissedConnectionDoc; meters: number }, y: { doc: MissedConnectionDoc; meters: number }) => number> = {
  recent: (x, y) => (x.doc.created_at < y.doc.created_at ? 1 : x.doc.created_at > y.doc.created_at ? -1 : 0),
  nearest: (x, y) => x.meters - y.meters,
  responses: (x, y) => y.doc.response_count - x.doc.response_count || SORTS.recent(x, y),
};

@Injectable()
export class MissedConnectionQueries {
  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    private readonly accounts: AccountsQueries,
  ) {}

  private posts() {
    return this.store.collection<MissedConnectionDoc>(MISSED_CONNECTIONS);
  }

  /** A post by id, or null. */
  post(id: string): Promise<MissedConnectionDoc | null> {
    return this.posts().findOne({ _id: id });
  }

  /** A response by id, or null. */
  async response(id: string): Promise<MissedResponseView | null> {
    const doc = await this.store.collection<MissedConnectionResponseDoc>(MISSED_CONNECTION_RESPONSES).findOne({ _id: id });
    return doc ? missedResponseView(doc) : null;
  }

  /** Active, unexpired posts within the radius, with their distance: the covering cells by indexed equality, then the exact distance. */
  private async within(point: LatLon, radiusMeters: number, now: Date): Promise<Array<{ doc: MissedConnectionDoc; meters: number }>> {
    // the coarsest indexed cell is precision 2 (a radius wider than it covers is refused by the controller)
    const precision = Math.max(2, coveringPrecision(point, radiusMeters));
    const docs = await this.posts().find({ [cellField(precision)]: { $in: cellAndNeighbours(point, precision) }, expires_at: { $gt: now.toISOString() }, is_active: true });
    return docs.flatMap((doc) => {
      if (doc.lat === null || doc.lon === null) return [];
      const meters = distanceMeters(point, { lat: doc.lat, lon: doc.lon });
      return meters <= radiusMeters ? [{ doc, meters }] : [];
    });
  }

  /** GET /encounters/missed-connections: a page of the active posts within the radius, sorted, each with its distance label. */
  async near(point: LatLon, radiusMeters: number, sort: MissedSort, page: Page, now: Date): Promise<{ items: NearbyMissedConnection[]; total: number }> {
    const found = (await this.within(point, radiusMeters, now)).sort(SORTS[sort]);
    const items = found.slice(page.offset, page.offset + page.limit).map(({ doc, meters }) => ({ ...missedConnectionView(doc), distance_label: distanceLabel(meters) }));
    return { items, total: found.length };
  }

  /** GET /encounters/missed-connections/mine: the caller's posts, inactive ones included, newest first. */
  async mine(userId: string, page: Page): Promise<{ items: MissedConnectionView[]; total: number }> {
    const [docs, total] = await Promise.all([
      this.posts().find({ user_id: userId }, { sort: { created_at: -1 }, skip: page.offset, limit: page.limit }),
      this.posts().countDocuments({ user_id: userId }),
    ]);
    return { items: docs.map(missedConnectionView), total };
  }

  /** GET /encounters/missed-connections/{id}: the post, its poster, its responses (oldest first) with their responders, and whether the caller posted it. */
  async detail(doc: MissedConnectionDoc, callerId: string): Promise<MissedConnectionDetail> {
    const responses = await this.store
      .collection<MissedConnectionResponseDoc>(MISSED_CONNECTION_RESPONSES)
      .find({ missed_connection_id: doc._id }, { sort: { created_at: 1 } });
    const users = await this.accounts.usersByIds([doc.user_id, ...responses.map((r) => r.responder_id)]);
    return {
      ...missedConnectionView(doc),
      user: personCard(users.get(doc.user_id)),
      responses: responses.map((r) => ({ ...missedResponseView(r), responder: personCard(users.get(r.responder_id)) })),
      is_owner: doc.user_id === callerId,
    };
  }

  /** GET /encounters/missed-connections/suggest-locations: the names of active posts within 5 km, most used first, up to 10. */
  async suggestLocations(point: LatLon, now: Date): Promise<Array<{ name: string; count: number }>> {
    const counts = new Map<string, number>();
    for (const { doc } of await this.within(point, SUGGEST_RADIUS_M, now)) counts.set(doc.location_name, (counts.get(doc.location_name) ?? 0) + 1);
    return [...counts]
      .sort(([a, x], [b, y]) => y - x || a.localeCompare(b))
      .slice(0, SUGGESTIONS)
      .map(([name, count]) => ({ name: escapeHtml(name), count }));
  }
}
