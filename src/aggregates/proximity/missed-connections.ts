/**
 * The missed connections of one poster (social-routes §13), stream
 * `missedConnections-<posterId>`: the posts ("I saw you at …"), their
 * responses and the accepted ones. The poster's stream is the one
 * consistency boundary of every rule here:
 * - at most 3 posts per UTC day: concurrent creates of one user serialize on
 *   it, so a fourth is refused however they interleave;
 * - one response per user and post, never to one's own post, active and
 *   unexpired posts only: concurrent responses to one post serialize too;
 * - only the poster accepts, only a pending response.
 * A post lives 7 days from its creation. Accepting a response records an
 * encounter (context `missed_connection`) and pays 5 pulse to each side
 * (encounter-recording.saga.ts, social-rewards.saga.ts), each once per response.
 * Exact coordinates are kept for distances only; no reply carries them.
 */
import { DomainError, assertNever } from '../shared/domain-error';
import type { Decider } from '../shared/decider';
import { geohash } from './geo';
import { coordinates } from './user-location';

export const MISSED_CONNECTION_LIFETIME_MS = 7 * 24 * 3600_000;
export const WAS_AT_WINDOW_MS = 7 * 24 * 3600_000;
export const POSTS_PER_DAY = 3;

export const MISSED_CONNECTION_NOT_FOUND = 'Missed connection not found';
export const NOT_YOUR_MISSED_CONNECTION = 'Not your missed connection';
export const WAS_AT_IN_FUTURE = 'was_at cannot be in the future';
export const WAS_AT_TOO_OLD = 'was_at must be within the past 7 days';
export const DAILY_LIMIT = `You can post at most ${POSTS_PER_DAY} missed connections per day`;
export const OWN_POST = 'You cannot respond to your own missed connection';
export const NOT_ACTIVE = 'This missed connection is no longer active';
export const ALREADY_RESPONDED = 'You have already responded to this missed connection';
export const RESPONSE_NOT_FOUND = 'Response not found';
export const RESPONSE_NOT_PENDING = 'Only a pending response can be accepted';

export type ResponseStatus = 'pending' | 'accepted';

export type MissedConnectionEvent =
  | {
      type: 'MissedConnectionPosted';
      data: {
        missed_connection_id: string;
        user_id: string;
        lat: number;
        lon: number;
        geohash: string;
        location_name: string;
        description: string;
        was_at: string;
        created_at: string;
        expires_at: string;
      };
    }
  | { type: 'MissedConnectionWithdrawn'; data: { missed_connection_id: string; user_id: string; at: string } }
  | {
      type: 'MissedConnectionResponded';
      data: { response_id: string; missed_connection_id: string; poster_id: string; responder_id: string; message: string; status: 'pending'; created_at: string };
    }
  | {
      type: 'MissedConnectionResponseAccepted';
      data: { response_id: string; missed_connection_id: string; poster_id: string; responder_id: string; location_name: string; at: string };
    };

export interface MissedResponse {
  responseId: string;
  responderId: string;
  message: string;
  status: ResponseStatus;
  createdAt: string;
}

export interface MissedPost {
  id: string;
  posterId: string;
  locationName: string;
  description: string;
  wasAt: string;
  createdAt: string;
  expiresAt: string;
  active: boolean;
  /** by response id */
  responses: Readonly<Record<string, MissedResponse>>;
}

export interface MissedConnectionsState {
  /** by missed connection id */
  posts: Readonly<Record<string, MissedPost>>;
}

export type MissedConnectionCommand =
  | {
      kind: 'post';
      posterId: string;
      lat: number;
      lon: number;
      locationName: string;
      description: string;
      /** ISO 8601, UTC */
      wasAt: string;
      newId: string;
    }
  | { kind: 'withdraw'; missedConnectionId: string; callerId: string }
  | { kind: 'respond'; missedConnectionId: string; responderId: string; message: string; newResponseId: string }
  | { kind: 'accept'; missedConnectionId: string; responseId: string; callerId: string };

export const missedConnectionsStreamId = (posterId: string): string => `missedConnections-${posterId}`;

function post(state: MissedConnectionsState, id: string): MissedPost {
  const found = state.posts[id];
  if (!found) throw new DomainError('invalid', MISSED_CONNECTION_NOT_FOUND);
  return found;
}

const utcDay = (iso: string): string => iso.slice(0, 10);

function create(state: MissedConnectionsState, command: Extract<MissedConnectionCommand, { kind: 'post' }>, now: Date): MissedConnectionEvent[] {
  const { lat, lon } = coordinates(command.lat, command.lon);
  const wasAt = Date.parse(command.wasAt);
  if (wasAt > now.getTime()) throw new DomainError('invalid', WAS_AT_IN_FUTURE);
  if (now.getTime() - wasAt > WAS_AT_WINDOW_MS) throw new DomainError('invalid', WAS_AT_TOO_OLD);
  const at = now.toISOString();
  const today = Object.values(state.posts).filter((p) => utcDay(p.createdAt) === utcDay(at)).length;
  if (today >= POSTS_PER_DAY) throw new DomainError('invalid', DAILY_LIMIT);
  return [
    {
      type: 'MissedConnectionPosted',
      data: {
        missed_connection_id: command.newId,
        user_id: command.posterId,
        lat,
        lon,
        geohash: geohash({ lat, lon }),
        location_name: command.locationName,
        description: command.description,
        was_at: new Date(wasAt).toISOString(),
        created_at: at,
        expires_at: new Date(now.getTime() + MISSED_CONNECTION_LIFETIME_MS).toISOString(),
      },
    },
  ];
}

function respond(state: MissedConnectionsState, command: Extract<MissedConnectionCommand, { kind: 'respond' }>, now: Date): MissedConnectionEvent[] {
  const target = post(state, command.missedConnectionId);
  if (target.posterId === command.responderId) throw new DomainError('invalid', OWN_POST);
  if (!target.active || Date.parse(target.expiresAt) <= now.getTime()) throw new DomainError('invalid', NOT_ACTIVE);
  if (Object.values(target.responses).some((r) => r.responderId === command.responderId)) throw new DomainError('invalid', ALREADY_RESPONDED);
  return [
    {
      type: 'MissedConnectionResponded',
      data: {
        response_id: command.newResponseId,
        missed_connection_id: target.id,
        poster_id: target.posterId,
        responder_id: command.responderId,
        message: command.message,
        status: 'pending',
        created_at: now.toISOString(),
      },
    },
  ];
}

function accept(state: MissedConnectionsState, command: Extract<MissedConnectionCommand, { kind: 'accept' }>, now: Date): MissedConnectionEvent[] {
  const target = post(state, command.missedConnectionId);
  if (target.posterId !== command.callerId) throw new DomainError('invalid', NOT_YOUR_MISSED_CONNECTION);
  const response = target.responses[command.responseId];
  if (!response) throw new DomainError('invalid', RESPONSE_NOT_FOUND);
  if (response.status !== 'pending') throw new DomainError('invalid', RESPONSE_NOT_PENDING);
  return [
    {
      type: 'MissedConnectionResponseAccepted',
      data: {
        response_id: response.responseId,
        missed_connection_id: target.id,
        poster_id: target.posterId,
        responder_id: response.responderId,
        location_name: target.locationName,
        at: now.toISOString(),
      },
    },
  ];
}

function withPost(state: MissedConnectionsState, id: string, change: (p: MissedPost) => MissedPost): MissedConnectionsState {
  const found = state.posts[id];
  return found ? { posts: { ...state.posts, [id]: change(found) } } : state;
}

export const missedConnectionsDecider: Decider<MissedConnectionsState, MissedConnectionCommand, MissedConnectionEvent> = {
  initialState: { posts: {} },
  evolve(state, event) {
    switch (event.type) {
      case 'MissedConnectionPosted': {
        const d = event.data;
        const created: MissedPost = {
          id: d.missed_connection_id,
          posterId: d.user_id,
          locationName: d.location_name,
          description: d.description,
          wasAt: d.was_at,
          createdAt: d.created_at,
          expiresAt: d.expires_at,
          active: true,
          responses: {},
        };
        return { posts: { ...state.posts, [created.id]: created } };
      }
      case 'MissedConnectionWithdrawn':
        return withPost(state, event.data.missed_connection_id, (p) => ({ ...p, active: false }));
      case 'MissedConnectionResponded': {
        const d = event.data;
        const response: MissedResponse = { responseId: d.response_id, responderId: d.responder_id, message: d.message, status: 'pending', createdAt: d.created_at };
        return withPost(state, d.missed_connection_id, (p) => ({ ...p, responses: { ...p.responses, [d.response_id]: response } }));
      }
      case 'MissedConnectionResponseAccepted': {
        const d = event.data;
        return withPost(state, d.missed_connection_id, (p) =>
          p.responses[d.response_id] ? { ...p, responses: { ...p.responses, [d.response_id]: { ...p.responses[d.response_id], status: 'accepted' } } } : p,
        );
      }
      default:
        return assertNever(event);
    }
  },
  decide(command, state, now) {
    switch (command.kind) {
      case 'post':
        return create(state, command, now);
      case 'withdraw': {
        const target = post(state, command.missedConnectionId);
        if (target.posterId !== command.callerId) throw new DomainError('invalid', NOT_YOUR_MISSED_CONNECTION);
        if (!target.active) return [];
        return [{ type: 'MissedConnectionWithdrawn', data: { missed_connection_id: target.id, user_id: target.posterId, at: now.toISOString() } }];
      }
      case 'respond':
        return respond(state, command, now);
      case 'accept':
        return accept(state, command, now);
      default:
        return assertNever(command);
    }
  },
};
