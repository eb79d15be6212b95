/**
 * `encounterInbox`: every message an encounter event sends a user (SPEC §6,
 * `encounterMessagesFor`), kept per user in `encounter_inbox` so that an SSE
 * client that reconnects with Last-Event-ID gets exactly what it missed, in
 * log order, and so that a live stream can fill what the bus did not deliver.
 *
 * One document per (user, event): `_id` `${userId}:${position}`. One event
 * never sends two messages to one user, so the id is unique; the document is
 * a pure function of the event, so a replay rewrites the same document
 * (an idempotent upsert by id, no position guard needed).
 */
import { ENCOUNTER_TOPICS, encounterMessagesFor, type EncounterTopic, userTopic } from '../../aggregates/encounter/encounter-messages';
import { ERASED_TEXT } from '../../aggregates/personal-data';
import type { ProjectionWriter } from '../../infrastructure/projections/projection';
import type { Doc, Filter, FindOptions } from '../../infrastructure/read-store/read-store.port';
import { defineProjection, type ProjectionHandler, type RecordedOf } from '../support/define-projection';

export const ENCOUNTER_INBOX = 'encounter_inbox';
export const ENCOUNTER_INBOX_PROJECTION = 'encounterInbox';

export interface EncounterInboxDoc extends Doc {
  user_id: string;
  /** global log position of the event: the SSE message id */
  position: number;
  /** base topic, e.g. com.svc.encounter.match */
  topic: EncounterTopic;
  /** `<topic>.<user_id>` */
  user_topic: string;
  payload: Record<string, unknown>;
  /** when the event was decided (metadata.occurredAt) */
  at: string;
  /** the match's two users, for a match or icebreaker message (an erasure finds what it must blank); null otherwise */
  pair_a: string | null;
  pair_b: string | null;
}

/** The event types that send messages (encounterMessagesFor returns [] for the others). */
type MessageEventType = 'MatchBound' | 'IcebreakerSent' | 'IcebreakerDeclined' | 'SightingRecorded' | 'SwipeLiked' | 'SwipeDisliked';

export function inboxId(userId: string, position: number): string {
  return `${userId}:${position}`;
}

/** The inbox documents of one recorded event. */
export function inboxDocsOf(event: RecordedOf<MessageEventType>): EncounterInboxDoc[] {
  const pair = 'user_a_id' in event.data ? { pair_a: event.data.user_a_id, pair_b: event.data.user_b_id } : { pair_a: null, pair_b: null };
  return encounterMessagesFor(event).map((m) => ({
    _id: inboxId(m.userId, event.position),
    user_id: m.userId,
    position: event.position,
    topic: m.topic,
    user_topic: userTopic(m.topic, m.userId),
    payload: m.payload,
    at: event.metadata.occurredAt,
    ...pair,
  }));
}

/** Query of a user's messages after a position, oldest first (index {user_id: 1, position: 1}). */
export function inboxAfter(userId: string, position: number, limit: number): { filter: Filter; options: FindOptions } {
  return {
    filter: { user_id: String(userId), position: { $gt: Number(position) } },
    options: { sort: { position: 1 }, limit },
  };
}

function deliver(event: RecordedOf<MessageEventType>, writer: ProjectionWriter): void {
  for (const doc of inboxDocsOf(event)) {
    const { _id, ...fields } = doc;
    writer.write(ENCOUNTER_INBOX, { updateOne: { filter: { _id }, update: { $set: fields }, upsert: true } });
  }
}

/**
 * An erased user's coordinates and icebreaker texts leave both users' inboxes, as the log reads once
 * their key is gone (personal-data.ts): a match's place (sealed for both) and their own side's text.
 */
function eraseUser(userId: string, writer: ProjectionWriter): void {
  for (const side of ['a', 'b'] as const) {
    const mine = { [`pair_${side}`]: userId };
    writer.write(ENCOUNTER_INBOX, { updateMany: { filter: { ...mine, topic: ENCOUNTER_TOPICS.match }, update: { $set: { 'payload.lat': null, 'payload.lng': null } } } });
    const text = `payload.icebreaker_${side}.text`;
    writer.write(ENCOUNTER_INBOX, { updateMany: { filter: { ...mine, topic: ENCOUNTER_TOPICS.icebreaker, [text]: { $ne: null } }, update: { $set: { [text]: ERASED_TEXT } } } });
  }
}

export const encounterInboxProjection = defineProjection({
  name: ENCOUNTER_INBOX_PROJECTION,
  version: 2,
  collections: [ENCOUNTER_INBOX],
  indexes: [{ collection: ENCOUNTER_INBOX, spec: { keys: { user_id: 1, position: 1 } } }],
  on: {
    MatchBound: deliver,
    IcebreakerSent: deliver,
    IcebreakerDeclined: deliver,
    SightingRecorded: deliver,
    SwipeLiked: deliver,
    SwipeDisliked: deliver,
    UserAnonymized: (event, writer) => eraseUser(event.data.user_id, writer),
  } satisfies { [T in MessageEventType]: ProjectionHandler<T> } & { UserAnonymized: ProjectionHandler<'UserAnonymized'> },
});

/** The event types that send messages: the ones the inbox applies, but the erasure. */
export const MESSAGE_EVENT_TYPES: readonly string[] = encounterInboxProjection.eventTypes.filter((type) => type !== 'UserAnonymized');
