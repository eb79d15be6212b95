/**
 * Logs, request ids, /metrics and the correlation id on the bus
 * (docs/operations.md, "Observability"). Runs on both jest projects: on
 * `e2e:mongodb+kafka` the bus test reads the headers from a real Kafka topic.
 */
import { Writable } from 'node:stream';
import { MESSAGE_BUS, type BusMessage, type MessageBus } from '../../src/infrastructure/bus/message-bus.port';
import { integrationTopic } from '../../src/infrastructure/bus/integration-event-relay';
import { APP_CONFIG, type AppConfig } from '../../src/config/config';
import { startTestApp, type TestApp, uniqueName } from '../support/app';
import { eventually } from '../support/eventually';

jest.setTimeout(60_000);

/** The JSON lines the app writes, parsed. */
class LogCapture extends Writable {
  readonly lines: Record<string, unknown>[] = [];
  override _write(chunk: Buffer, _encoding: string, done: () => void): void {
    for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) this.lines.push(JSON.parse(line) as Record<string, unknown>);
    done();
  }
  accessLines(): Record<string, unknown>[] {
    return this.lines.filter((l) => l.msg === 'request completed');
  }
}

const password = 'correct horse battery';

describe('observability over HTTP', () => {
  let t: TestApp;
  const logs = new LogCapture();

  beforeAll(async () => {
    t = await startTestApp({ LOG_LEVEL: 'log', LOG_FORMAT: 'json' }, undefined, { logDestination: logs });
  });
  afterAll(() => t.close());

  async function register(username = uniqueName()) {
    const res = await t.request('POST', '/api/social/auth/register', { body: { username, email: `${username}@example.com`, password } });
    expect(res.status).toBe(201);
    return res.body.data as { id: string; token: string };
  }

  it('given a safe X-Request-Id and X-Correlation-Id, when calling, then both are echoed', async () => {
    const res = await t.request('GET', '/health', { headers: { 'x-request-id': 'req-abc.1', 'x-correlation-id': 'corr:42' } });
    expect(res.headers.get('x-request-id')).toBe('req-abc.1');
    expect(res.headers.get('x-correlation-id')).toBe('corr:42');
  });

  it('given no ids, when calling, then a new UUID is the request id and the correlation id', async () => {
    const res = await t.request('GET', '/health');
    const id = res.headers.get('x-request-id');
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(res.headers.get('x-correlation-id')).toBe(id);
  });

  it('given an unsafe X-Request-Id, when calling, then it is replaced by a UUID', async () => {
    const res = await t.request('GET', '/health', { headers: { 'x-request-id': 'a b<script>' } });
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('given an unknown route, when calling, then the error reply carries the ids too', async () => {
    const res = await t.request('GET', '/no/such/route', { headers: { 'x-correlation-id': 'corr-404' } });
    expect(res.status).toBe(404);
    expect(res.headers.get('x-correlation-id')).toBe('corr-404');
  });

  it('given an authenticated request to a route with a parameter, when it completes, then one access line with its fields and no credential', async () => {
    const user = await register();
    await t.request('GET', '/goals/not-a-goal', { token: user.token, headers: { 'x-request-id': 'access-1', 'x-correlation-id': 'access-corr' } });
    const line = await eventually('the access line', () => logs.accessLines().find((l) => l.req_id === 'access-1'), (l) => l !== undefined);
    expect(line).toMatchObject({
      level: 'info',
      method: 'GET',
      route: '/goals/:id',
      status: 404,
      user_id: user.id,
      req_id: 'access-1',
      correlation_id: 'access-corr',
    });
    expect(typeof line!.duration_ms).toBe('number');
    expect(logs.accessLines().filter((l) => l.req_id === 'access-1')).toHaveLength(1);
    const everything = JSON.stringify(logs.lines);
    expect(everything).not.toContain(user.token);
    expect(everything).not.toContain(password);
  });

  it("given Nest's own log lines, when the app starts, then they are JSON with a context", () => {
    expect(logs.lines.some((l) => l.context === 'NestApplication' && l.level === 'info')).toBe(true);
  });

  it('given some requests, when scraping /metrics, then the route histogram, projection lag and process metrics are there', async () => {
    await register();
    await t.request('GET', '/goals/x1');
    const res = await t.request('GET', '/metrics');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    const text = res.body as string;
    expect(text).toMatch(/http_request_duration_seconds_count\{method="POST",route="\/api\/social\/auth\/register",status="201"\} \d+/);
    expect(text).toMatch(/http_request_duration_seconds_bucket\{le="0.1",method="GET",route="\/goals\/:id",status="\d+"\}/);
    expect(text).toMatch(/svc_projection_lag\{projection="users"\} \d+/);
    expect(text).toMatch(/svc_event_store_appends_total \d+/);
    expect(text).toMatch(/svc_event_store_commit_appends_count \d+/);
    expect(text).toMatch(/svc_saga_backlog \d+/);
    expect(text).toMatch(/process_cpu_user_seconds_total \d/);
    expect(text).toMatch(/nodejs_eventloop_lag_seconds \d/);
  });
});

describe('/metrics with METRICS_TOKEN', () => {
  let t: TestApp;
  const token = 'metrics-token-0123456789';

  beforeAll(async () => {
    t = await startTestApp({ METRICS_TOKEN: token });
  });
  afterAll(() => t.close());

  it('given no bearer token, when scraping, then 401', async () => {
    expect((await t.request('GET', '/metrics')).status).toBe(401);
  });

  it('given the bearer token, when scraping, then 200', async () => {
    const res = await t.request('GET', '/metrics', { token });
    expect(res.status).toBe(200);
    expect(res.body).toContain('http_request_duration_seconds');
  });
});

describe('the correlation id on the bus', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ INTEGRATION_EVENTS: 'true' });
  });
  afterAll(() => t.close());

  it('given a request with X-Correlation-Id, when its events are relayed, then the messages carry it in their headers', async () => {
    const bus = t.app.get<MessageBus>(MESSAGE_BUS);
    const config = t.app.get<AppConfig>(APP_CONFIG);
    const received: BusMessage[] = [];
    const topic = integrationTopic(config.kafka?.topicPrefix ?? 'svc.events', 'user-x');
    const subscription = await bus.subscribe({ groupId: uniqueName('obs'), topics: [topic], fromBeginning: true }, async (message) => {
      received.push(message);
    });
    try {
      const username = uniqueName();
      const correlationId = `corr-${username}`;
      const res = await t.request('POST', '/api/social/auth/register', {
        body: { username, email: `${username}@example.com`, password },
        headers: { 'x-correlation-id': correlationId },
      });
      expect(res.status).toBe(201);
      const message = await eventually('the UserRegistered message', () => received.find((m) => m.headers['correlation-id'] === correlationId), (m) => m !== undefined, {
        timeoutMs: 30_000,
      });
      expect(message!.key).toBe(`user-${res.body.data.id}`);
    } finally {
      await subscription.stop();
    }
  });
});
