/**
 * Everything two users decide about each other (stream
 * `encounterPair-<userA>_<userB>`, ids sorted; SPEC §2.6, §3, §4.7 rules 1–5):
 * both users' swipes, the pair's single match row and both icebreaker sides.
 *
 * A mutual like is an invariant over two users, so both likes land in this one
 * stream: two concurrent likes serialize on its revision, and whichever is
 * decided second sees the first and binds the match exactly once.
 *
 * Match rule (rule 2): a like binds when this stream holds a reciprocal like
 * (owner = the sighting's peer, peer = the caller) whose sighted_at lies within
 * the match window of the caller's sighting, inclusive, either direction. A
 * reciprocal dislike never binds. Re-binding (rule 3) keeps the pair's one row:
 * same match_id and context_id, encounter_count + 1, bond level from the count.
 *
 * Privacy (rules 1, 4): the swipe events are told only to their owner (see
 * encounter-messages.ts); the SwipeLiked/SwipeDisliked shapes do not depend
 * on the peer's decision except through match_id.
 */
import { createHash } from 'node:crypto';
import type { Decider } from '../shared/decider';
import { DomainError, assertNever } from '../shared/domain-error';
import { DECLINE_REASON_MAX_CHARS, type EncounterLimits } from './encounter-limits';
import type { MatchView } from './encounter-messages';
import { epochSeconds } from './encounter-messages';
import {
  sortedPair,
  type EncounterPairEvent,
  type Icebreaker,
  type IcebreakerStatus,
  type MatchBound,
  type Side,
  type SightingRecorded,
  type SwipeDecision,
} from './encounter.events';

export interface PairSwipe {
  decision: SwipeDecision;
  owner: string;
  peer: string;
  sightedAt: string;
  lat: number | null;
  lng: number | null;
}

export interface PairMatch {
  matchId: string;
  contextId: string;
  userA: string;
  userB: string;
  firstAt: string;
  latestAt: string;
  encounterCount: number;
  bondLevel: number;
  lat: number | null;
  lng: number | null;
  /** the two sightings of the latest binding, sorted */
  sightingIds: [string, string];
  icebreakers: { a: Icebreaker; b: Icebreaker };
  mapPinVisible: boolean;
}

export interface EncounterPairState {
  /** by sighting id */
  swipes: Record<string, PairSwipe>;
  match: PairMatch | null;
}

export type EncounterPairCommand =
  | {
      kind: 'swipe';
      sighting: SightingRecorded['data'];
      callerId: string;
      decision: SwipeDecision;
      /** used only when this like creates the pair's match */
      newMatchId: string;
      limits: EncounterLimits;
    }
  | { kind: 'approveIcebreaker'; matchId: string; callerId: string; text: string; limits: EncounterLimits }
  | { kind: 'declineIcebreaker'; matchId: string; callerId: string; reason?: string | null };

export const PENDING_ICEBREAKER: Icebreaker = { status: 'pending', text: null, sent_at: null, decline_reason: null };

/** Bond level after `count` encounters: at least 1, rising with the count, at most 10. */
export function bondLevel(count: number): number {
  let curve: number;
  if (count < 2) curve = 0;
  else if (count < 5) curve = 1;
  else if (count < 10) curve = 3;
  else if (count < 20) curve = 5;
  else if (count < 50) curve = 7;
  else curve = Math.min(10, 7 + (count - 49));
  return Math.max(1, curve);
}

/** context_id of a ble match: derived from the pair of sighting ids, so the same pair yields the same id. */
export function bleContextId(sightingIds: readonly string[]): string {
  const sorted = [...sightingIds].sort();
  return `ble_${createHash('sha256').update(sorted.join(':'), 'utf8').digest('hex').slice(0, 32)}`;
}

function codePoints(text: string): number {
  return [...text].length;
}

function cut(text: string, maxCodePoints: number): string {
  const points = [...text];
  return points.length <= maxCodePoints ? text : points.slice(0, maxCodePoints).join('');
}

/**
 * The opener text as approved: trimmed, non-empty (400 `text required`), at
 * most draftMaxChars code points (413 `text exceeds <n> chars`). Exported so
 * the caller can refuse a bad text before looking the match up.
 */
export function icebreakerText(text: unknown, limits: Pick<EncounterLimits, 'draftMaxChars'>): string {
  const trimmed = typeof text === 'string' ? text.trim() : '';
  if (trimmed === '') throw new DomainError('invalid', 'text required');
  if (codePoints(trimmed) > limits.draftMaxChars) {
    throw new DomainError('too_large', `text exceeds ${limits.draftMaxChars} chars`);
  }
  return trimmed;
}

/** The side of `userId` in the match, or null when not a participant. Side a sorts first. */
export function sideOf(match: Pick<PairMatch, 'userA' | 'userB'>, userId: string): Side | null {
  if (userId === match.userA) return 'a';
  if (userId === match.userB) return 'b';
  return null;
}

/** The match view of SPEC §2.6 for the pair's match, or null when none. */
export function pairMatchView(state: EncounterPairState): MatchView | null {
  const m = state.match;
  if (!m) return null;
  return {
    id: m.matchId,
    user_a: m.userA,
    user_b: m.userB,
    lat: m.lat,
    lng: m.lng,
    matched_at: epochSeconds(m.firstAt),
    icebreaker_a_status: m.icebreakers.a.status,
    icebreaker_b_status: m.icebreakers.b.status,
    map_pin_visible: m.mapPinVisible,
  };
}

interface Reciprocal {
  sightingId: string;
  swipe: PairSwipe;
  distanceMs: number;
  sightedMs: number;
}

/**
 * The reciprocal like for the caller's sighting: owner = its peer, peer = the
 * caller, decision like, sighted within the window (inclusive). Several: the
 * closest in time; a tie: the later one (then the greater id, to stay total).
 */
function findReciprocal(state: EncounterPairState, sighting: SightingRecorded['data'], windowSec: number): Reciprocal | null {
  const mine = Date.parse(sighting.sighted_at);
  let best: Reciprocal | null = null;
  for (const [sightingId, swipe] of Object.entries(state.swipes)) {
    if (swipe.decision !== 'like' || swipe.owner !== sighting.peer_user_id || swipe.peer !== sighting.owner_user_id) continue;
    const sightedMs = Date.parse(swipe.sightedAt);
    const distanceMs = Math.abs(sightedMs - mine);
    if (distanceMs > windowSec * 1000) continue;
    const candidate = { sightingId, swipe, distanceMs, sightedMs };
    if (
      best === null ||
      distanceMs < best.distanceMs ||
      (distanceMs === best.distanceMs &&
        (sightedMs > best.sightedMs || (sightedMs === best.sightedMs && sightingId > best.sightingId)))
    ) {
      best = candidate;
    }
  }
  return best;
}

function midpoint(
  x: { lat: number | null; lng: number | null },
  y: { lat: number | null; lng: number | null },
): { lat: number; lng: number } | null {
  if (x.lat === null || x.lng === null || y.lat === null || y.lng === null) return null;
  return { lat: (x.lat + y.lat) / 2, lng: (x.lng + y.lng) / 2 };
}

function notFound(): DomainError {
  return new DomainError('not_found', 'match not found');
}

/** The match and the caller's side, or 404 when no match, another id, or the caller is not in it. */
function participant(state: EncounterPairState, matchId: string, callerId: string): { match: PairMatch; side: Side } {
  const match = state.match;
  if (!match || match.matchId !== matchId) throw notFound();
  const side = sideOf(match, callerId);
  if (!side) throw notFound();
  return { match, side };
}

function withSide(match: PairMatch, side: Side, icebreaker: Icebreaker): { icebreaker_a: Icebreaker; icebreaker_b: Icebreaker } {
  return {
    icebreaker_a: side === 'a' ? icebreaker : { ...match.icebreakers.a },
    icebreaker_b: side === 'b' ? icebreaker : { ...match.icebreakers.b },
  };
}

function decideSwipe(
  command: Extract<EncounterPairCommand, { kind: 'swipe' }>,
  state: EncounterPairState,
  now: Date,
): EncounterPairEvent[] {
  const { sighting, callerId, limits } = command;
  if (sighting.owner_user_id !== callerId) throw new DomainError('not_found', 'sighting not found');
  if (now.getTime() >= Date.parse(sighting.expires_at)) throw new DomainError('gone', 'sighting expired');
  if (Object.prototype.hasOwnProperty.call(state.swipes, sighting.sighting_id)) {
    throw new DomainError('conflict', 'already swiped');
  }
  const base = {
    sighting_id: sighting.sighting_id,
    owner_user_id: sighting.owner_user_id,
    peer_user_id: sighting.peer_user_id,
    sighted_at: sighting.sighted_at,
    swiped_at: now.toISOString(),
  };
  if (command.decision === 'dislike') return [{ type: 'SwipeDisliked', data: base }];

  const liked = { ...base, lat: sighting.lat, lng: sighting.lng };
  const reciprocal = findReciprocal(state, sighting, limits.matchWindowSec);
  if (!reciprocal) return [{ type: 'SwipeLiked', data: { ...liked, match_id: null } }];

  const sightingIds = [sighting.sighting_id, reciprocal.sightingId].sort() as [string, string];
  const [userA, userB] = sortedPair(sighting.owner_user_id, sighting.peer_user_id);
  const point = midpoint(sighting, reciprocal.swipe);
  const previous = state.match;
  const count = previous ? previous.encounterCount + 1 : 1;
  const bound: MatchBound['data'] = {
    match_id: previous ? previous.matchId : command.newMatchId,
    context_type: 'ble',
    context_id: previous ? previous.contextId : bleContextId(sightingIds),
    user_a_id: userA,
    user_b_id: userB,
    sighting_ids: sightingIds,
    lat: point ? point.lat : previous ? previous.lat : null,
    lng: point ? point.lng : previous ? previous.lng : null,
    encounter_count: count,
    bond_level: previous ? bondLevel(count) : 1,
    is_mutual_aware: true,
    created: previous === null,
    first_at: previous ? previous.firstAt : now.toISOString(),
    latest_at: now.toISOString(),
    icebreaker_a_status: previous ? previous.icebreakers.a.status : 'pending',
    icebreaker_b_status: previous ? previous.icebreakers.b.status : 'pending',
    map_pin_visible: previous ? previous.mapPinVisible : true,
  };
  return [
    { type: 'SwipeLiked', data: { ...liked, match_id: bound.match_id } },
    { type: 'MatchBound', data: bound },
  ];
}

function decideApprove(
  command: Extract<EncounterPairCommand, { kind: 'approveIcebreaker' }>,
  state: EncounterPairState,
  now: Date,
): EncounterPairEvent[] {
  const text = icebreakerText(command.text, command.limits);
  const { match, side } = participant(state, command.matchId, command.callerId);
  const status: IcebreakerStatus = match.icebreakers[side].status;
  if (status === 'sent') throw new DomainError('conflict', 'icebreaker already sent');
  if (status === 'declined') throw new DomainError('conflict', 'icebreaker already declined');
  const icebreaker: Icebreaker = { status: 'sent', text, sent_at: Math.floor(now.getTime() / 1000), decline_reason: null };
  return [
    {
      type: 'IcebreakerSent',
      data: {
        match_id: match.matchId,
        user_a_id: match.userA,
        user_b_id: match.userB,
        side,
        user_id: command.callerId,
        ...withSide(match, side, icebreaker),
        text,
        sent_at: now.toISOString(),
      },
    },
  ];
}

function decideDecline(
  command: Extract<EncounterPairCommand, { kind: 'declineIcebreaker' }>,
  state: EncounterPairState,
  now: Date,
): EncounterPairEvent[] {
  const { match, side } = participant(state, command.matchId, command.callerId);
  const current = match.icebreakers[side];
  if (current.status === 'declined') return [];
  const trimmed = typeof command.reason === 'string' ? cut(command.reason.trim(), DECLINE_REASON_MAX_CHARS) : '';
  const reason = trimmed === '' ? null : trimmed;
  const icebreaker: Icebreaker = { status: 'declined', text: current.text, sent_at: current.sent_at, decline_reason: reason };
  return [
    {
      type: 'IcebreakerDeclined',
      data: {
        match_id: match.matchId,
        user_a_id: match.userA,
        user_b_id: match.userB,
        side,
        user_id: command.callerId,
        ...withSide(match, side, icebreaker),
        reason,
        declined_at: now.toISOString(),
      },
    },
  ];
}

function evolveMatch(previous: PairMatch | null, data: MatchBound['data']): PairMatch {
  const icebreakers =
    previous && !data.created
      ? previous.icebreakers
      : {
          a: { ...PENDING_ICEBREAKER, status: data.icebreaker_a_status },
          b: { ...PENDING_ICEBREAKER, status: data.icebreaker_b_status },
        };
  return {
    matchId: data.match_id,
    contextId: data.context_id,
    userA: data.user_a_id,
    userB: data.user_b_id,
    firstAt: data.first_at,
    latestAt: data.latest_at,
    encounterCount: data.encounter_count,
    bondLevel: data.bond_level,
    lat: data.lat,
    lng: data.lng,
    sightingIds: [...data.sighting_ids] as [string, string],
    icebreakers,
    mapPinVisible: data.map_pin_visible,
  };
}

export const encounterPairDecider: Decider<EncounterPairState, EncounterPairCommand, EncounterPairEvent> = {
  initialState: { swipes: {}, match: null },
  evolve(state, event) {
    switch (event.type) {
      case 'SwipeLiked':
      case 'SwipeDisliked': {
        const d = event.data;
        const coordinates = event.type === 'SwipeLiked' ? { lat: event.data.lat, lng: event.data.lng } : { lat: null, lng: null };
        const swipe: PairSwipe = {
          decision: event.type === 'SwipeLiked' ? 'like' : 'dislike',
          owner: d.owner_user_id,
          peer: d.peer_user_id,
          sightedAt: d.sighted_at,
          ...coordinates,
        };
        return { ...state, swipes: { ...state.swipes, [d.sighting_id]: swipe } };
      }
      case 'MatchBound':
        return { ...state, match: evolveMatch(state.match, event.data) };
      case 'IcebreakerSent':
      case 'IcebreakerDeclined':
        if (!state.match) return state;
        return {
          ...state,
          match: { ...state.match, icebreakers: { a: { ...event.data.icebreaker_a }, b: { ...event.data.icebreaker_b } } },
        };
      default:
        return assertNever(event);
    }
  },
  decide(command, state, now) {
    switch (command.kind) {
      case 'swipe':
        return decideSwipe(command, state, now);
      case 'approveIcebreaker':
        return decideApprove(command, state, now);
      case 'declineIcebreaker':
        return decideDecline(command, state, now);
      default:
        return assertNever(command);
    }
  },
};
