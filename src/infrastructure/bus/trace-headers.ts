/**
 * Tracing on the bus: the correlation id and W3C trace context travel in
 * message headers (`correlation-id`, `traceparent`), consumers read them back.
 *
 * - `traceHeaders(event)`: what a relay puts on the message it makes of a
 *   recorded event (the event's correlation id and, when tracing was on, the
 *   traceparent of the command that recorded it).
 * - `tracedPublish` / `tracedHandler`: used by both adapters. With tracing
 *   off they add nothing. On, a publish is a `publish <topic>` span (a child
 *   of the active span, else of the first message's traceparent) whose
 *   context replaces each message's traceparent; a delivery is a
 *   `consume <topic>` span, child of the message's traceparent, active while
 *   the handler runs, so the commands it issues join the trace.
 */
import type { RecordedEvent } from '../event-store/event-store.port';
import { CORRELATION_HEADER, TRACEPARENT_HEADER } from '../observability/request-ids';
import { context, contextFrom, failSpan, inSpan, linksTo, SpanKind, trace, traceparentOf, tracer, tracingOn } from '../observability/tracing';
import type { Headers, MessageHandler, OutgoingMessage } from './message-bus.port';

export function traceHeaders(event: RecordedEvent): Headers {
  const headers: Headers = { [CORRELATION_HEADER]: event.metadata.correlationId };
  const traceparent = event.metadata.traceparent;
  if (typeof traceparent === 'string') headers[TRACEPARENT_HEADER] = traceparent;
  return headers;
}

/** The correlation id a message carries, if any. */
export function correlationHeader(headers: Headers): string | undefined {
  const value = headers[CORRELATION_HEADER];
  return value === undefined || value === '' ? undefined : value;
}

export async function tracedPublish(topic: string, messages: OutgoingMessage[], send: (messages: OutgoingMessage[]) => Promise<void>): Promise<void> {
  if (!tracingOn() || messages.length === 0) return send(messages);
  const traceparents = messages.map((m) => m.headers?.[TRACEPARENT_HEADER]).filter((t): t is string => typeof t === 'string');
  const active = context.active();
  const parent = trace.getSpan(active) ? active : contextFrom(traceparents.length > 0 ? { traceparent: traceparents[0] } : {});
  const span = tracer().startSpan(
    `publish ${topic}`,
    {
      kind: SpanKind.PRODUCER,
      attributes: {
        'messaging.destination.name': topic,
        'messaging.batch.message_count': messages.length,
        correlation_id: messages[0].headers?.[CORRELATION_HEADER] ?? '',
      },
      links: linksTo(traceparents.slice(1)),
    },
    parent,
  );
  const traceparent = traceparentOf(trace.setSpan(parent, span));
  const stamped = traceparent ? messages.map((m) => ({ ...m, headers: { ...m.headers, [TRACEPARENT_HEADER]: traceparent } })) : messages;
  try {
    await send(stamped);
  } catch (error) {
    failSpan(span, error);
    throw error;
  } finally {
    span.end();
  }
}

export function tracedHandler(handler: MessageHandler, groupId: string): MessageHandler {
  if (!tracingOn()) return handler;
  return (message) =>
    inSpan(
      `consume ${message.topic}`,
      {
        'messaging.destination.name': message.topic,
        'messaging.consumer.group.name': groupId,
        'messaging.destination.partition.id': String(message.partition),
        'messaging.message.id': `${message.partition}:${message.offset}`,
        correlation_id: correlationHeader(message.headers) ?? '',
      },
      contextFrom(message.headers),
      SpanKind.CONSUMER,
      () => handler(message),
    );
}
