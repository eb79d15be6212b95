/**
 * Which fields of which events are personal data (issue 17, item 4:
 * crypto-shredding), whose they are, and what they read as once their owner
 * is erased. The event store encrypts each listed field at append time with
 * a key of its subject (infrastructure/personal-data); erasing a person
 * deletes the key, and from then on every reader of the log (aggregates,
 * projections, rebuilds, audit queries) sees the `erased` value instead.
 *
 * Two keys per person, two purposes:
 * - `personal`: the e-mail address, coordinates, encounter and icebreaker
 *   texts, prompts and answers: deleted by DELETE /users/{id}/data;
 * - `content`: the bodies of their posts and comments: deleted when the
 *   erasure request also asks for the content (`erase_content`).
 *
 * A field owned by two people (the place two users matched at) lists one
 * entry per owner: it is sealed twice, and either erasure shreds it.
 *
 * Pure data: the catalogue names event types and paths as the events define
 * them (docs/events.md); adding a personal field to an event means adding it
 * here.
 */

export type KeyPurpose = 'personal' | 'content';
export const KEY_PURPOSES: readonly KeyPurpose[] = ['personal', 'content'];

/** Where the subject's user id is found. */
export type SubjectRef =
  /** a field of the event's data (a dotted path) */
  | { field: string }
  /** the first capture group of a pattern over the stream id (`conversation-<userId>/<promptId>`) */
  | { stream: RegExp }
  /** a field of the first event of the event's stream (an edit names its post, the post its author) */
  | { streamHead: string };

export interface PersonalField {
  /** dotted path inside the event's data; a missing path is left alone */
  path: string;
  subject: SubjectRef;
  purpose: KeyPurpose;
  /** what the field reads as once the subject's key is gone */
  erased: unknown;
}

/** Text once its owner is erased: what an author's deletion shows too. */
export const ERASED_TEXT = '[deleted]';

const of = (purpose: KeyPurpose, subject: SubjectRef, fields: Record<string, unknown>): PersonalField[] =>
  Object.entries(fields).map(([path, erased]) => ({ path, subject, purpose, erased }));
const personal = (subject: SubjectRef, fields: Record<string, unknown>) => of('personal', subject, fields);
const content = (subject: SubjectRef, fields: Record<string, unknown>) => of('content', subject, fields);
const field = (name: string): SubjectRef => ({ field: name });
const COORDINATES = { lat: null, lon: null, geohash: null };
const BLE_COORDINATES = { lat: null, lng: null };
const CONVERSATION: SubjectRef = { stream: /^conversation-([^/]+)\// };

export const PERSONAL_FIELDS: Readonly<Record<string, readonly PersonalField[]>> = {
  UserRegistered: personal(field('user_id'), { email: null }),
  EmailClaimed: personal(field('owner_id'), { value: null }),
  EmailReleased: personal(field('owner_id'), { value: null }),
  LocationPinged: personal(field('user_id'), COORDINATES),
  MissedConnectionPosted: personal(field('user_id'), { ...COORDINATES, location_name: ERASED_TEXT, description: ERASED_TEXT }),
  MissedConnectionResponded: personal(field('responder_id'), { message: ERASED_TEXT }),
  MissedConnectionResponseAccepted: personal(field('poster_id'), { location_name: ERASED_TEXT }),
  SightingRecorded: personal(field('owner_user_id'), BLE_COORDINATES),
  SwipeLiked: personal(field('owner_user_id'), BLE_COORDINATES),
  MatchBound: [...personal(field('user_a_id'), BLE_COORDINATES), ...personal(field('user_b_id'), BLE_COORDINATES)],
  IcebreakerSent: [
    ...personal(field('user_id'), { text: ERASED_TEXT }),
    ...personal(field('user_a_id'), { 'icebreaker_a.text': ERASED_TEXT }),
    ...personal(field('user_b_id'), { 'icebreaker_b.text': ERASED_TEXT }),
  ],
  IcebreakerDeclined: [...personal(field('user_a_id'), { 'icebreaker_a.text': ERASED_TEXT }), ...personal(field('user_b_id'), { 'icebreaker_b.text': ERASED_TEXT })],
  PromptReceived: personal(field('user_id'), { prompt: ERASED_TEXT }),
  ResponseGiven: personal(field('user_id'), { response: ERASED_TEXT }),
  HistoryAppended: personal(CONVERSATION, { messages: [] }),
  ExpertRunRequested: personal(field('user_id'), { prompt: ERASED_TEXT }),
  PromptScheduled: personal(field('user_id'), { prompt: ERASED_TEXT }),
  PostPublished: content(field('author_id'), { title: ERASED_TEXT, content: ERASED_TEXT }),
  PostEdited: content({ streamHead: 'author_id' }, { 'changes.title': ERASED_TEXT, 'changes.content': ERASED_TEXT }),
  CommentPosted: content(field('author_id'), { content: ERASED_TEXT }),
  CommentEdited: content({ streamHead: 'author_id' }, { content: ERASED_TEXT }),
  // a post queued for the parent node (sync_post) carries its title and body
  SyncItemQueued: content(field('payload.author_id'), { 'payload.title': ERASED_TEXT, 'payload.content': ERASED_TEXT }),
};

/** The personal fields of an event type (none for most). */
export function personalFieldsOf(type: string): readonly PersonalField[] {
  return PERSONAL_FIELDS[type] ?? [];
}

/**
 * The keys an event erases once it is in the log: a user's anonymisation
 * (DELETE /users/{id}/data) erases their `personal` key, and their `content`
 * key too when they asked for their posts and comments to go
 * (`content_erased`).
 */
export function erasureOf(type: string, data: { [key: string]: unknown }): { subject: string; purposes: readonly KeyPurpose[] } | null {
  if (type !== 'UserAnonymized' || typeof data.user_id !== 'string') return null;
  return { subject: data.user_id, purposes: data.content_erased === true ? KEY_PURPOSES : ['personal'] };
}

/** The catalogue as the event store takes it. */
export const PERSONAL_DATA = { fieldsOf: personalFieldsOf, erasureOf };
