/**
 * Events of the encounter flow (SPEC §2.6, §3, §4.7). Five kinds of stream:
 *
 * - `encounterDiscoverable-<userId>`: the user's discoverable preference and
 *   its toggles (DiscoverableEnabled / DiscoverableDisabled). Each event
 *   carries the toggle window after it, so expiry and the sliding 24 h window
 *   are decided from event times alone.
 * - `encounterPubkey-<digest>`: one rotating public key, by the SHA-256 of its
 *   lower-cased hex (PubkeyRegistered). A key belongs to one user for good, so
 *   nobody can take over another phone's key; the raw key is never stored.
 * - `sighting-<sightingId>`: one sighting, an immutable record (SightingRecorded).
 * - `encounterPair-<userA>_<userB>` (ids sorted): everything two users decide
 *   about each other (swipes, the match, both icebreaker sides). A mutual
 *   like is an invariant over two users, so it lives in one stream and
 *   concurrent likes serialize on its revision (DESIGN.md §3).
 * - `consent-<userId>`: consents given and revoked (ConsentGranted / ConsentRevoked).
 *
 * Events that users are told about (MatchBound, IcebreakerSent,
 * IcebreakerDeclined, SightingRecorded, SwipeLiked, SwipeDisliked) carry all
 * the state their message needs, so a message is a pure function of one event
 * (see encounter-messages.ts).
 */
import type { DomainEvent } from '../shared/decider';

/** The profile a discoverable user shows on a swipe card. */
export interface DiscoverableProfile {
  age_claim_18: boolean;
  face_visible: boolean;
  avatar_style: string;
  vibe_tags: string[];
}

/** The sliding toggle window after a toggle (SPEC §4.7 rule 8). */
export interface ToggleWindow {
  toggle_count_24h: number;
  toggle_window_start: string;
  last_toggle_at: string;
}

export type DiscoverableEnabled = DomainEvent<
  'DiscoverableEnabled',
  DiscoverableProfile &
    ToggleWindow & {
      user_id: string;
      enabled_at: string;
      expires_at: string;
      ttl_sec: number;
    }
>;

export type DiscoverableDisabled = DomainEvent<
  'DiscoverableDisabled',
  DiscoverableProfile & ToggleWindow & { user_id: string; disabled_at: string }
>;

export type DiscoverableEvent = DiscoverableEnabled | DiscoverableDisabled;

export type PubkeyRegistered = DomainEvent<
  'PubkeyRegistered',
  { user_id: string; pubkey_digest: string; registered_at: string }
>;

export type PubkeyEvent = PubkeyRegistered;

export type SightingRecorded = DomainEvent<
  'SightingRecorded',
  {
    sighting_id: string;
    owner_user_id: string;
    peer_user_id: string;
    peer_pubkey_digest: string;
    rssi_peak: number;
    dwell_sec: number;
    lat: number | null;
    lng: number | null;
    sighted_at: string;
    expires_at: string;
    /** the peer's card as shown to the owner */
    avatar_style: string;
    vibe_tags: string[];
    face_visible: boolean;
  }
>;

export type SightingEvent = SightingRecorded;

export type SwipeDecision = 'like' | 'dislike';
export type IcebreakerStatus = 'pending' | 'sent' | 'declined';
export type Side = 'a' | 'b';

/** One side's opener (SPEC §2.6 match payload). */
export interface Icebreaker {
  status: IcebreakerStatus;
  text: string | null;
  /** epoch seconds */
  sent_at: number | null;
  decline_reason: string | null;
}

export type SwipeLiked = DomainEvent<
  'SwipeLiked',
  {
    sighting_id: string;
    owner_user_id: string;
    peer_user_id: string;
    sighted_at: string;
    lat: number | null;
    lng: number | null;
    swiped_at: string;
    /** the match this like created or re-bound, null when none */
    match_id: string | null;
  }
>;

export type SwipeDisliked = DomainEvent<
  'SwipeDisliked',
  { sighting_id: string; owner_user_id: string; peer_user_id: string; sighted_at: string; swiped_at: string }
>;

/** A mutual like created the pair's match (created: true) or re-bound it. */
export type MatchBound = DomainEvent<
  'MatchBound',
  {
    match_id: string;
    context_type: 'ble';
    context_id: string;
    user_a_id: string;
    user_b_id: string;
    /** the two liked sightings of this binding, sorted */
    sighting_ids: [string, string];
    lat: number | null;
    lng: number | null;
    encounter_count: number;
    bond_level: number;
    is_mutual_aware: boolean;
    created: boolean;
    first_at: string;
    latest_at: string;
    icebreaker_a_status: IcebreakerStatus;
    icebreaker_b_status: IcebreakerStatus;
    map_pin_visible: boolean;
  }
>;

interface IcebreakerChange {
  match_id: string;
  user_a_id: string;
  user_b_id: string;
  side: Side;
  /** the user who acted (that side's user) */
  user_id: string;
  /** both sides after the change */
  icebreaker_a: Icebreaker;
  icebreaker_b: Icebreaker;
}

export type IcebreakerSent = DomainEvent<'IcebreakerSent', IcebreakerChange & { text: string; sent_at: string }>;

export type IcebreakerDeclined = DomainEvent<
  'IcebreakerDeclined',
  IcebreakerChange & { reason: string | null; declined_at: string }
>;

export type EncounterPairEvent = SwipeLiked | SwipeDisliked | MatchBound | IcebreakerSent | IcebreakerDeclined;

export type ConsentGranted = DomainEvent<
  'ConsentGranted',
  { user_id: string; consent_type: string; scope: string; granted_at: string }
>;

export type ConsentRevoked = DomainEvent<
  'ConsentRevoked',
  { user_id: string; consent_type: string; scope: string; revoked_at: string }
>;

export type ConsentEvent = ConsentGranted | ConsentRevoked;

export type EncounterEvent = DiscoverableEvent | PubkeyEvent | SightingEvent | EncounterPairEvent | ConsentEvent;

export const ENCOUNTER_EVENT_TYPES: readonly EncounterEvent['type'][] = [
  'DiscoverableEnabled',
  'DiscoverableDisabled',
  'PubkeyRegistered',
  'SightingRecorded',
  'SwipeLiked',
  'SwipeDisliked',
  'MatchBound',
  'IcebreakerSent',
  'IcebreakerDeclined',
  'ConsentGranted',
  'ConsentRevoked',
];

/** Stream categories whose events are private to the users in them: never relayed as integration events. */
export const PRIVATE_ENCOUNTER_CATEGORIES: readonly string[] = [
  'encounterDiscoverable',
  'encounterPubkey',
  'sighting',
  'encounterPair',
  'consent',
];

export function discoverableStreamId(userId: string): string {
  return `encounterDiscoverable-${userId}`;
}

export function pubkeyStreamId(digest: string): string {
  return `encounterPubkey-${digest}`;
}

export function sightingStreamId(sightingId: string): string {
  return `sighting-${sightingId}`;
}

/** The two user ids of a pair, sorted: side a is the first (SPEC §3). */
export function sortedPair(x: string, y: string): [string, string] {
  return x < y ? [x, y] : [y, x];
}

export function pairStreamId(x: string, y: string): string {
  const [a, b] = sortedPair(x, y);
  return `encounterPair-${a}_${b}`;
}

export function consentStreamId(userId: string): string {
  return `consent-${userId}`;
}
