/**
 * What each user is told about an encounter event (SPEC §6): per-user topics
 * `<topic>.<user_id>`, each delivered only to the user named in it.
 *
 * Privacy (SPEC §4.7 rules 1 and 4): a sighting and a swipe are told only to
 * the user who made them; nobody is ever told about another user's swipe.
 * Only a match and an icebreaker change reach both users of the pair.
 */
import { assertNever } from '../shared/domain-error';
import type { EncounterEvent, Icebreaker, IcebreakerStatus, MatchBound, Side } from './encounter.events';

export const ENCOUNTER_TOPICS = {
  sighting: 'com.svc.encounter.sighting',
  swipe: 'com.svc.encounter.swipe',
  match: 'com.svc.encounter.match',
  icebreaker: 'com.svc.encounter.icebreaker',
} as const;

export type EncounterTopic = (typeof ENCOUNTER_TOPICS)[keyof typeof ENCOUNTER_TOPICS];

/** The match view of SPEC §2.6, as returned to clients. */
export interface MatchView {
  id: string;
  user_a: string;
  user_b: string;
  lat: number | null;
  lng: number | null;
  /** epoch seconds of the first binding */
  matched_at: number | null;
  icebreaker_a_status: IcebreakerStatus;
  icebreaker_b_status: IcebreakerStatus;
  map_pin_visible: boolean;
}

export interface IcebreakerMessage {
  match_id: string;
  side: Side;
  status: IcebreakerStatus;
  icebreaker_a: Icebreaker;
  icebreaker_b: Icebreaker;
}

export interface EncounterMessage {
  /** the only user this message may reach */
  userId: string;
  /** the base topic; the per-user name is `${topic}.${userId}` */
  topic: EncounterTopic;
  payload: Record<string, unknown>;
}

export function userTopic(topic: EncounterTopic, userId: string): string {
  return `${topic}.${userId}`;
}

export function epochSeconds(iso: string | null): number | null {
  if (!iso) return null;
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? null : Math.floor(ms / 1000);
}

export function matchViewOf(data: MatchBound['data']): MatchView {
  return {
    id: data.match_id,
    user_a: data.user_a_id,
    user_b: data.user_b_id,
    lat: data.lat,
    lng: data.lng,
    matched_at: epochSeconds(data.first_at),
    icebreaker_a_status: data.icebreaker_a_status,
    icebreaker_b_status: data.icebreaker_b_status,
    map_pin_visible: data.map_pin_visible,
  };
}

function toBoth(userA: string, userB: string, topic: EncounterTopic, payload: Record<string, unknown>): EncounterMessage[] {
  return [
    { userId: userA, topic, payload },
    { userId: userB, topic, payload },
  ];
}

/** The messages one recorded encounter event sends; [] for events nobody is told about. */
export function encounterMessagesFor(event: EncounterEvent): EncounterMessage[] {
  switch (event.type) {
    case 'MatchBound':
      return toBoth(event.data.user_a_id, event.data.user_b_id, ENCOUNTER_TOPICS.match, { ...matchViewOf(event.data) });
    case 'IcebreakerSent':
    case 'IcebreakerDeclined': {
      const d = event.data;
      const message: IcebreakerMessage = {
        match_id: d.match_id,
        side: d.side,
        status: d.side === 'a' ? d.icebreaker_a.status : d.icebreaker_b.status,
        icebreaker_a: d.icebreaker_a,
        icebreaker_b: d.icebreaker_b,
      };
      return toBoth(d.user_a_id, d.user_b_id, ENCOUNTER_TOPICS.icebreaker, { ...message });
    }
    case 'SightingRecorded': {
      const d = event.data;
      return [
        {
          userId: d.owner_user_id,
          topic: ENCOUNTER_TOPICS.sighting,
          payload: {
            sighting_id: d.sighting_id,
            avatar_style: d.avatar_style,
            vibe_tags: d.vibe_tags,
            face_visible: d.face_visible,
            expires_at: d.expires_at,
          },
        },
      ];
    }
    case 'SwipeLiked':
      return [
        {
          userId: event.data.owner_user_id,
          topic: ENCOUNTER_TOPICS.swipe,
          payload: { sighting_id: event.data.sighting_id, decision: 'like', match_id: event.data.match_id },
        },
      ];
    case 'SwipeDisliked':
      return [
        {
          userId: event.data.owner_user_id,
          topic: ENCOUNTER_TOPICS.swipe,
          payload: { sighting_id: event.data.sighting_id, decision: 'dislike', match_id: null },
        },
      ];
    case 'DiscoverableEnabled':
    case 'DiscoverableDisabled':
    case 'PubkeyRegistered':
    case 'ConsentGranted':
    case 'ConsentRevoked':
      return [];
    default:
      return assertNever(event);
  }
}
