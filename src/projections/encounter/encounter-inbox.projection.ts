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
import { encounterMessagesFor, type EncounterTopic, userTopic } from '../../aggregates/encounter/encounter-messages';
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
}

/** The event types that send messages (encounterMessagesFor returns [] for the others). */
type MessageEventType = 'MatchBound' | 'IcebreakerSent' | 'IcebreakerDeclined' | 'SightingRecorded' | 'SwipeLiked' | 'SwipeDisliked';

export function inboxId(userId: string, position: number): string {
  return `${userId}:${position}`;
}

/** The inbox documents of one recorded event. */
export function inboxDocsOf(event: RecordedOf<MessageEventType>): EncounterInboxDoc[] {
  return encounterMessagesFor(event).map((m) => ({
    _id: inboxId(m.userId, event.position),
    user_id: m.userId,
    position: event.position,
    topic: m.topic,
    user_topic: userTopic(m.topic, m.userId),
    payload: m.payload,
    at: event.metadata.occurredAt,
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

export const encounterInboxProjection = defineProjection({
  name: ENCOUNTER_INBOX_PROJECTION,
  version: 1,
  collections: [ENCOUNTER_INBOX],
  indexes: [{ collection: ENCOUNTER_INBOX, spec: { keys: { user_id: 1, position: 1 } } }],
  on: {
    MatchBound: deliver,
    IcebreakerSent: deliver,
    IcebreakerDeclined: deliver,
    SightingRecorded: deliver,
    SwipeLiked: deliver,
    SwipeDisliked: deliver,
  } satisfies { [T in MessageEventType]: ProjectionHandler<T> },
});

/** The event types that send messages: the ones the inbox applies. */
export const MESSAGE_EVENT_TYPES: readonly string[] = encounterInboxProjection.eventTypes;
