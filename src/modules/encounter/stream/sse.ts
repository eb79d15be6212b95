/**
 * The wire format of the encounter stream (server-sent events), the parsing
 * of where a client resumes (pure functions, unit-tested). The socket itself
 * is written by SseResponse (src/modules/common/sse-response.ts).
 */
import type { EncounterTopic } from '../../../aggregates/encounter/encounter-messages';
import type { SOCIAL_TOPIC } from '../../../aggregates/social/social-topics';
import { DomainError } from '../../../aggregates/shared/domain-error';

/** One message for one user, as it leaves the service. */
export interface StreamMessage {
  /** global log position of the event: the SSE id, strictly increasing per connection */
  position: number;
  /** base topic, sent as the SSE event name (the social notifications' `com.svc.social` too) */
  topic: EncounterTopic | typeof SOCIAL_TOPIC;
  /** `<topic>.<user_id>` */
  userTopic: string;
  payload: Record<string, unknown>;
  /** ISO 8601 time of the event */
  at: string;
}

/** What the notifier puts on the bus: the value of a message keyed by the user id. */
export interface EncounterBusValue {
  /** the event's global position */
  id: string;
  /** `<topic>.<user_id>` */
  topic: string;
  payload: Record<string, unknown>;
  at: string;
}

/** `id`, `event`, `data` (one line: JSON never holds a raw newline), blank line. */
export function formatSseMessage(message: StreamMessage): string {
  const data = JSON.stringify({ topic: message.userTopic, payload: message.payload, at: message.at });
  return `id: ${message.position}\nevent: ${message.topic}\ndata: ${data}\n\n`;
}

/** A comment line: clients ignore it, proxies and load balancers see traffic. */
export const SSE_HEARTBEAT = ': heartbeat\n\n';
export const SSE_CONNECTED = ': connected\n\n';

/** A 400: the resume position is not a non-negative integer. */
export class InvalidLastEventIdError extends DomainError {
  constructor() {
    super('invalid', 'last_event_id must be a non-negative integer');
  }
}

function positionOf(value: unknown): number | null {
  const text = Array.isArray(value) ? value[0] : value;
  if (text === undefined || text === null) return null;
  if (typeof text !== 'string') throw new InvalidLastEventIdError();
  const trimmed = text.trim();
  if (trimmed === '') return null;
  if (!/^\d{1,15}$/.test(trimmed)) throw new InvalidLastEventIdError();
  return Number(trimmed);
}

/**
 * Where a client resumes: the Last-Event-ID header wins over `?last_event_id=`
 * (a browser's EventSource reconnects to the same URL, query included, and
 * adds the header with the last id it received). null: start from now.
 */
export function resumePosition(header: unknown, query: unknown): number | null {
  return positionOf(header) ?? positionOf(query);
}
