/**
 * The encounter stream over HTTP (SPEC §6): per-user messages as server-sent
 * events, delivered only to the user they name, resumable with Last-Event-ID,
 * with heartbeats, and a shutdown that does not wait for open streams.
 *
 * Encounter events are appended straight to the running app's event store
 * (as the command executor would), so these tests depend on the delivery
 * path only: event store → notifier → bus → stream service → SSE, plus the
 * inbox read model.
 */
import { randomUUID } from 'node:crypto';
import { type IncomingHttpHeaders, request as httpRequest } from 'node:http';
import { EVENT_STORE, type EventStore, type NewEvent } from '../../src/infrastructure/event-store/event-store.port';
import { UpcasterRegistry } from '../../src/infrastructure/eventsourcing/upcasters';
import { EncounterStreamService } from '../../src/modules/encounter/stream/encounter-stream.service';
import { signUp, startTestApp, type TestApp } from '../support/app';
import { eventually } from '../support/eventually';

jest.setTimeout(60_000);

const STREAM = '/api/social/encounter/stream';
const HEARTBEAT_ENV = { SVC_ENCOUNTER_STREAM_HEARTBEAT_SEC: '1' };

interface SseEvent {
  id: string | null;
  event: string | null;
  data: any;
}

/** A minimal SSE client on node:http: records events and comment lines. */
class SseClient {
  readonly events: SseEvent[] = [];
  readonly comments: string[] = [];
  ended = false;
  private buffer = '';

  private constructor(
    readonly status: number,
    readonly headers: IncomingHttpHeaders,
    private readonly destroy: () => void,
  ) {}

  static open(baseUrl: string, path: string, token: string | null, headers: Record<string, string> = {}): Promise<SseClient> {
    const { hostname, port } = new URL(baseUrl);
    return new Promise((resolve, reject) => {
      const req = httpRequest(
        { hostname, port, path, method: 'GET', headers: { accept: 'text/event-stream', ...headers, ...(token ? { authorization: `Bearer ${token}` } : {}) } },
        (res) => {
          const client = new SseClient(res.statusCode ?? 0, res.headers, () => req.destroy());
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => client.feed(chunk));
          res.on('end', () => (client.ended = true));
          res.on('close', () => (client.ended = true));
          res.on('error', () => undefined);
          if (client.status !== 200) {
            res.on('end', () => resolve(client));
            return;
          }
          // `: connected` comes once the server listens for this user's live messages
          void eventually('the `: connected` comment', () => client.comments.includes('connected')).then(() => resolve(client), reject);
        },
      );
      req.on('error', reject);
      req.end();
    });
  }

  get body(): any {
    return JSON.parse(this.buffer);
  }

  ids(): number[] {
    return this.events.map((e) => Number(e.id));
  }

  close(): void {
    this.destroy();
  }

  private feed(chunk: string): void {
    this.buffer += chunk;
    if (this.status !== 200) return;
    let end: number;
    while ((end = this.buffer.indexOf('\n\n')) >= 0) {
      const block = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 2);
      const event: SseEvent = { id: null, event: null, data: null };
      let isEvent = false;
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) this.comments.push(line.slice(1).trim());
        else if (line.startsWith('id: ')) [event.id, isEvent] = [line.slice(4), true];
        else if (line.startsWith('event: ')) [event.event, isEvent] = [line.slice(7), true];
        else if (line.startsWith('data: ')) [event.data, isEvent] = [JSON.parse(line.slice(6)), true];
      }
      if (isEvent) this.events.push(event);
    }
  }
}

describe('encounter stream over SSE', () => {
  let t: TestApp;
  let store: EventStore;
  let upcasters: UpcasterRegistry;
  const open: SseClient[] = [];

  beforeAll(async () => {
    t = await startTestApp(HEARTBEAT_ENV);
    store = t.app.get(EVENT_STORE);
    upcasters = t.app.get(UpcasterRegistry);
  });
  afterEach(() => {
    for (const client of open.splice(0)) client.close();
  });
  afterAll(async () => {
    await t?.close();
  });

  async function connect(user: { token: string } | null, headers: Record<string, string> = {}, path = STREAM): Promise<SseClient> {
    const client = await SseClient.open(t.url, path, user?.token ?? null, headers);
    open.push(client);
    return client;
  }

  /** Appends to the pair's stream as the command executor would; returns the event's position. */
  async function append(a: string, b: string, type: string, data: Record<string, unknown>, actor = a): Promise<number> {
    const [x, y] = a < b ? [a, b] : [b, a];
    const event: NewEvent = {
      type,
      data,
      metadata: {
        eventId: randomUUID(),
        correlationId: randomUUID(),
        causationId: null,
        actor,
        nodeId: 'test',
        occurredAt: new Date().toISOString(),
        schemaVersion: upcasters.currentVersion(type),
      },
    };
    return (await store.append(`encounterPair-${x}_${y}`, [event], 'any')).position;
  }

  function matchBound(a: string, b: string, matchId: string): Promise<number> {
    const [x, y] = a < b ? [a, b] : [b, a];
    const now = new Date().toISOString();
    return append(x, y, 'MatchBound', {
      match_id: matchId,
      context_type: 'ble',
      context_id: `ctx_${matchId}`,
      user_a_id: x,
      user_b_id: y,
      sighting_ids: ['sight_1', 'sight_2'],
      lat: 52.52,
      lng: 13.4,
      encounter_count: 1,
      bond_level: 1,
      is_mutual_aware: true,
      created: true,
      first_at: now,
      latest_at: now,
      icebreaker_a_status: 'pending',
      icebreaker_b_status: 'pending',
      map_pin_visible: true,
    });
  }

  function swipeLiked(owner: string, peer: string, matchId: string | null = null): Promise<number> {
    const now = new Date().toISOString();
    return append(owner, peer, 'SwipeLiked', {
      sighting_id: `sight_${randomUUID().slice(0, 8)}`,
      owner_user_id: owner,
      peer_user_id: peer,
      sighted_at: now,
      lat: null,
      lng: null,
      swiped_at: now,
      match_id: matchId,
    });
  }

  function icebreakerSent(a: string, b: string, matchId: string, text: string): Promise<number> {
    const [x, y] = a < b ? [a, b] : [b, a];
    const pending = { status: 'pending', text: null, sent_at: null, decline_reason: null };
    const sent = { status: 'sent', text, sent_at: Math.floor(Date.now() / 1000), decline_reason: null };
    return append(x, y, 'IcebreakerSent', {
      match_id: matchId,
      user_a_id: x,
      user_b_id: y,
      side: 'a',
      user_id: x,
      icebreaker_a: sent,
      icebreaker_b: pending,
      text,
      sent_at: new Date().toISOString(),
    });
  }

  const heartbeats = (client: SseClient) => client.comments.filter((c) => c === 'heartbeat').length;
  /**
   * Drains the server's side instead of sleeping: resolves once every client
   * saw two more heartbeats. Each heartbeat starts an inbox poll; the second
   * comes a whole interval after the first poll began, so whatever that poll
   * found has been written by then, and nothing more may come.
   */
  async function pollsDrained(...clients: SseClient[]): Promise<void> {
    const seen = clients.map(heartbeats);
    await eventually('two more heartbeats on every stream', () => clients.every((client, i) => heartbeats(client) >= seen[i] + 2));
  }

  it('refuses a caller without credentials with 401 unauthenticated, on both paths', async () => {
    for (const path of [STREAM, '/social/encounter/stream']) {
      const client = await connect(null, {}, path);
      expect(client.status).toBe(401);
      expect(client.body).toEqual({ success: false, error: 'unauthenticated' });
    }
  });

  it('given a user holding the most open streams allowed (5), when a sixth is opened, then 429; once one closes, a new one is accepted', async () => {
    const user = await signUp(t, { prefix: 's' });
    const streams = [];
    for (let i = 0; i < 5; i++) streams.push(await connect(user));
    const refused = await connect(user);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ success: false, error: 'too many open streams: at most 5 per user; close one first' });
    streams[0].close();
    await eventually('a stream slot to be free again', async () => (await connect(user)).status === 200);
  });

  it('refuses a malformed last_event_id with 400', async () => {
    const user = await signUp(t, { prefix: 's' });
    const client = await connect(user, {}, `${STREAM}?last_event_id=abc`);
    expect(client.status).toBe(400);
    expect(client.body).toEqual({ success: false, error: 'last_event_id must be a non-negative integer' });
  });

  it('given a match of A and B, then A and B each get exactly one match message live, and C nothing', async () => {
    const [a, b, c] = [await signUp(t, { prefix: 's' }), await signUp(t, { prefix: 's' }), await signUp(t, { prefix: 's' })];
    const [sa, sb, sc] = [await connect(a), await connect(b), await connect(c, {}, '/social/encounter/stream')];
    expect(sa.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(sa.headers['cache-control']).toBe('no-cache');
    const matchId = `match_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
    const position = await matchBound(a.id, b.id, matchId);

    await eventually('the match message on both streams', () => sa.events.length > 0 && sb.events.length > 0);
    await pollsDrained(sa, sb, sc);
    for (const [client, user] of [[sa, a], [sb, b]] as const) {
      expect(client.events).toHaveLength(1);
      const [event] = client.events;
      expect(event.id).toBe(String(position));
      expect(event.event).toBe('com.svc.encounter.match');
      expect(event.data.topic).toBe(`com.svc.encounter.match.${user.id}`);
      expect(event.data.payload).toMatchObject({ id: matchId, map_pin_visible: true, icebreaker_a_status: 'pending' });
      expect(typeof event.data.at).toBe('string');
    }
    expect(sc.events).toEqual([]);
  });

  it('given a swipe, then only the swiper hears of it', async () => {
    const [a, b] = [await signUp(t, { prefix: 's' }), await signUp(t, { prefix: 's' })];
    const [sa, sb] = [await connect(a), await connect(b)];
    const position = await swipeLiked(a.id, b.id);
    await eventually("the swipe on the swiper's stream", () => sa.events.length > 0);
    await pollsDrained(sa, sb);
    expect(sa.events).toEqual([
      { id: String(position), event: 'com.svc.encounter.swipe', data: expect.objectContaining({ topic: `com.svc.encounter.swipe.${a.id}`, payload: expect.objectContaining({ decision: 'like', match_id: null }) }) },
    ]);
    expect(sb.events).toEqual([]);
  });

  it('given a reconnect with Last-Event-ID, then exactly the missed messages come first, in order, then live ones', async () => {
    const [a, b] = [await signUp(t, { prefix: 's' }), await signUp(t, { prefix: 's' })];
    const matchId = `match_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
    const first = await connect(a);
    const p1 = await matchBound(a.id, b.id, matchId);
    await eventually('the match message', () => first.events.length === 1);
    first.close();

    // missed while away: two openers and the other user's swipe (never for A)
    const p2 = await icebreakerSent(a.id, b.id, matchId, 'hello');
    await swipeLiked(b.id, a.id, matchId);
    const p3 = await icebreakerSent(a.id, b.id, matchId, 'hello again');

    const resumed = await connect(a, { 'last-event-id': String(p1) });
    await eventually('the two missed messages', () => resumed.events.length >= 2);
    const p4 = await swipeLiked(a.id, b.id, matchId);
    await eventually('the live message after the missed ones', () => resumed.events.length >= 3);
    await pollsDrained(resumed);
    expect(resumed.ids()).toEqual([p2, p3, p4]);
    expect(resumed.events.map((e) => e.event)).toEqual(['com.svc.encounter.icebreaker', 'com.svc.encounter.icebreaker', 'com.svc.encounter.swipe']);
    expect(resumed.events[0].data.payload).toMatchObject({ match_id: matchId, side: 'a', status: 'sent' });

    // the query parameter works the same; the header wins when both are given
    const byQuery = await connect(a, {}, `${STREAM}?last_event_id=${p2}`);
    const both = await connect(a, { 'last-event-id': String(p3) }, `${STREAM}?last_event_id=${p1}`);
    await eventually('the messages after each resume position', () => byQuery.events.length >= 2 && both.events.length >= 1);
    await pollsDrained(byQuery, both);
    expect(byQuery.ids()).toEqual([p3, p4]);
    expect(both.ids()).toEqual([p4]);
  });

  it('given no Last-Event-ID, then messages from before the connection are not sent', async () => {
    const [a, b] = [await signUp(t, { prefix: 's' }), await signUp(t, { prefix: 's' })];
    await swipeLiked(a.id, b.id);
    const client = await connect(a);
    const later = await swipeLiked(a.id, b.id);
    await eventually('the message sent after connecting', () => client.events.length > 0);
    await pollsDrained(client);
    expect(client.ids()).toEqual([later]);
  });

  it('sends a heartbeat comment every configured interval', async () => {
    const user = await signUp(t, { prefix: 's' });
    const client = await connect(user);
    await eventually('two heartbeats', () => heartbeats(client) >= 2, { timeoutMs: 5000 });
    expect(client.events).toEqual([]);
  });
});

describe('encounter stream without heartbeat polls', () => {
  it('given a message, then the bus delivers it live, long before the next inbox poll', async () => {
    const t = await startTestApp({ SVC_ENCOUNTER_STREAM_HEARTBEAT_SEC: '60' });
    const clients: SseClient[] = [];
    try {
      await eventually('the stream consumer joined its group', () => t.app.get(EncounterStreamService).isListening, { timeoutMs: 30_000 });
      const users = [];
      for (let i = 0; i < 2; i++) users.push(await signUp(t, { prefix: 's' }));
      for (const user of users) clients.push(await SseClient.open(t.url, STREAM, user.token));
      const [x, y] = users[0].id < users[1].id ? [users[0].id, users[1].id] : [users[1].id, users[0].id];
      const now = new Date().toISOString();
      const { position } = await t.app.get<EventStore>(EVENT_STORE).append(
        `encounterPair-${x}_${y}`,
        [
          {
            type: 'SwipeLiked',
            data: { sighting_id: 'sight_live', owner_user_id: users[0].id, peer_user_id: users[1].id, sighted_at: now, lat: null, lng: null, swiped_at: now, match_id: null },
            metadata: { eventId: randomUUID(), correlationId: randomUUID(), causationId: null, actor: users[0].id, nodeId: 'test', occurredAt: now, schemaVersion: 1 },
          },
        ],
        'any',
      );
      await eventually('the live message', () => clients[0].events.length > 0, { timeoutMs: 20_000 });
      expect(clients[0].ids()).toEqual([position]);
      expect(clients[1].events).toEqual([]);
    } finally {
      for (const client of clients) client.close();
      await t.close();
    }
  });
});

describe('encounter stream at shutdown', () => {
  it('given an open stream, when the app closes, then it closes promptly and the stream ends', async () => {
    const t = await startTestApp(HEARTBEAT_ENV);
    const { token } = await signUp(t, { prefix: 's' });
    const client = await SseClient.open(t.url, STREAM, token);
    try {
      const started = Date.now();
      await t.close();
      expect(Date.now() - started).toBeLessThan(5000);
      await eventually('the stream ended', () => client.ended, { timeoutMs: 2000 });
    } finally {
      client.close();
    }
  });
});
