/**
 * Tracing (docs/operations.md, "Tracing"): with the SDK on (an in-memory
 * exporter here, OTLP in production) one request's spans form one trace:
 * HTTP → command → append → projection page, and publish → consume on the
 * bus, each carrying the correlation id.
 */
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { APP_CONFIG, type AppConfig } from '../../src/config/config';
import { integrationTopic } from '../../src/infrastructure/bus/integration-event-relay';
import { MESSAGE_BUS, type BusMessage, type MessageBus } from '../../src/infrastructure/bus/message-bus.port';
import { startTracing, type TracingHandle } from '../../src/infrastructure/observability/tracing';
import { startTestApp, type TestApp, uniqueName } from '../support/app';
import { eventually } from '../support/eventually';

jest.setTimeout(60_000);

describe('tracing', () => {
  const exporter = new InMemorySpanExporter();
  let tracing: TracingHandle;
  let t: TestApp;

  beforeAll(async () => {
    tracing = startTracing({ serviceName: 'test', exporter });
    t = await startTestApp({ INTEGRATION_EVENTS: 'true' });
  });
  afterAll(async () => {
    await t.close();
    await tracing.shutdown();
  });

  const spans = (): ReadableSpan[] => exporter.getFinishedSpans();
  const traceOf = (span: ReadableSpan) => span.spanContext().traceId;
  const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

  it('given a write request, when it completes, then HTTP → command → append → projection page → publish → consume share its trace and correlation id', async () => {
    const bus = t.app.get<MessageBus>(MESSAGE_BUS);
    const config = t.app.get<AppConfig>(APP_CONFIG);
    const received: BusMessage[] = [];
    const topic = integrationTopic(config.kafka?.topicPrefix ?? 'svc.events', 'user-x');
    const subscription = await bus.subscribe({ groupId: uniqueName('trace'), topics: [topic], fromBeginning: true }, async (m) => {
      received.push(m);
    });
    try {
      const username = uniqueName();
      const correlationId = `trace-${username}`;
      const res = await t.request('POST', '/api/social/auth/register', {
        body: { username, email: `${username}@example.com`, password: 'correct horse battery' },
        headers: { 'x-correlation-id': correlationId },
      });
      expect(res.status).toBe(201);
      const http = await eventually('the HTTP span', () => spans().find((s) => s.name === 'HTTP POST /api/social/auth/register' && s.attributes.correlation_id === correlationId), (s) => s !== undefined);
      const trace = traceOf(http!);
      const inTrace = () => spans().filter((s) => traceOf(s) === trace);
      await eventually('the consume span', () => inTrace().some((s) => s.name === `consume ${topic}`));

      const command = inTrace().find((s) => s.name === 'command user');
      expect(command).toBeDefined();
      expect(parentOf(command!)).toBe(http!.spanContext().spanId);
      expect(command!.attributes.correlation_id).toBe(correlationId);
      const append = inTrace().find((s) => s.name === 'event-store append' && parentOf(s) === command!.spanContext().spanId);
      expect(append).toBeDefined();
      expect(inTrace().some((s) => s.name === 'projection page' && s.attributes.correlation_id === correlationId)).toBe(true);
      const publish = inTrace().find((s) => s.name === `publish ${topic}`);
      expect(publish).toBeDefined();
      const consume = inTrace().find((s) => s.name === `consume ${topic}`);
      expect(parentOf(consume!)).toBe(publish!.spanContext().spanId);
      expect(consume!.attributes.correlation_id).toBe(correlationId);
      const message = received.find((m) => m.headers['correlation-id'] === correlationId);
      expect(message?.headers.traceparent).toContain(trace);
    } finally {
      await subscription.stop();
    }
  });

  it('given a caller traceparent, when calling, then the request span continues the caller trace', async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    await t.request('GET', '/health', { headers: { traceparent: `00-${traceId}-00f067aa0ba902b7-01` } });
    await eventually('the continued span', () => spans().some((s) => s.name === 'HTTP GET /health' && traceOf(s) === traceId));
  });
});
