/**
 * Section 13: the social economy's hot paths (issue 16).
 *
 * Nearby lookups (in process, embedded read store): the `location_pings` read
 * model built by its projection from `users` LocationPinged events spread
 * over a city (a 20 km square), then p50/p99 of ProximityQueries.pingsNear
 * (500 m, what GET /encounters/nearby-now and the match search read: the
 * point's geohash cell and its neighbours by indexed equality) at random
 * points, against a naive read of the same data in the same run: every ping
 * read, its distance computed, filtered and sorted.
 *
 * Pings and wallet transactions (real app, child process): `appUsers` users
 * register; POST /api/social/encounters/location-ping by each of them at a
 * point of the city (one stored ping each: a user pings once, so every
 * request is a stored ping, not the 30-second refusal), and POST
 * /api/social/resonance/daily-checkin by each of them (a wallet credit of
 * spark and XP through the wallet's stream and its ledger), each with
 * autocannon against GET /health on the same app.
 *
 * `BENCH_ONLY=13`; BENCH_GEO_USERS (10,000), BENCH_GEO_CALLS (300),
 * BENCH_GEO_SECONDS (5), BENCH_ECONOMY_APP_USERS (10,000),
 * BENCH_ECONOMY_SECONDS (GET /health, 5) size it. The ping and check-in runs
 * make one request per user and report their own duration.
 */
import autocannon from 'autocannon';
import { cellAndNeighbours, distanceMeters, geohash, type LatLon } from '../src/aggregates/proximity/geo';
import type { RecordedEvent } from '../src/infrastructure/event-store/event-store.port';
import { PageWriter } from '../src/infrastructure/projections/page-writer';
import { EmbeddedReadStore } from '../src/infrastructure/read-store/embedded/embedded-read-store';
import type { ReadStore } from '../src/infrastructure/read-store/read-store.port';
import { LOCATION_PINGS, type LocationPingDoc, locationPingsProjection } from '../src/projections/proximity/location-pings.projection';
import { type Latency, ms, timeCalls } from './contest-reads.bench';
import { cannon, type HttpRun, printRun, startServer, summarise } from './http.bench';
import { fixed, heading, int, log, makeTempDir, now, prng, progress, ratio, removeTempDir, secondsSince } from './util';

export interface SocialEconomyOptions {
  geoUsers: number;
  calls: number;
  maxSeconds: number;
  appUsers: number;
  seconds: number;
  connections: number;
}

export interface SocialEconomyResult {
  geoUsers: number;
  appUsers: number;
  nearby: { indexed: Latency; naive: Latency; meanFound: number };
  health: HttpRun;
  pings: HttpRun;
  checkins: HttpRun;
  seconds: number;
}

const RADIUS_M = 500;
/** The city: a 20 km square around a centre (about 0.18° of latitude, 0.26° of longitude at 46°N). */
const CITY = { lat: 46.2, lon: 6.15, dLat: 0.18, dLon: 0.26 };
const HOUR_MS = 3_600_000;

function cityPoint(random: () => number): LatLon {
  return { lat: CITY.lat + (random() - 0.5) * CITY.dLat, lon: CITY.lon + (random() - 0.5) * CITY.dLon };
}

function pingEvent(position: number, userId: string, point: LatLon, at: Date): RecordedEvent {
  return {
    streamId: `userLocation-${userId}`,
    type: 'LocationPinged',
    revision: 0,
    position,
    data: { user_id: userId, ...point, accuracy: null, device_id: null, geohash: geohash(point), at: at.toISOString(), expires_at: new Date(at.getTime() + 24 * HOUR_MS).toISOString() },
    recordedAt: at.toISOString(),
    metadata: { eventId: `e${position}`, correlationId: 'c', causationId: null, actor: 'bench', nodeId: 'n', occurredAt: at.toISOString(), schemaVersion: 1 },
  };
}

async function buildPings(store: ReadStore, users: number, nowMs: number): Promise<void> {
  for (const { collection, spec } of locationPingsProjection.indexes ?? []) await store.collection(collection).createIndex(spec);
  const random = prng(13);
  let writer = new PageWriter(store);
  writer.owner = locationPingsProjection.name;
  for (let i = 0; i < users; i++) {
    await locationPingsProjection.apply(pingEvent(i + 1, `u${i}`, cityPoint(random), new Date(nowMs - random() * 12 * HOUR_MS)), writer);
    if ((i + 1) % 1000 === 0) {
      await writer.commit();
      writer = new PageWriter(store);
      writer.owner = locationPingsProjection.name;
    }
  }
  await writer.commit();
}

/** The indexed lookup as ProximityQueries.pingsNear makes it: the cell and its neighbours by equality, then the distance. */
async function nearIndexed(store: ReadStore, point: LatLon, nowIso: string): Promise<number> {
  const pings = await store.collection<LocationPingDoc>(LOCATION_PINGS).find({ geohash: { $in: cellAndNeighbours(point) }, expires_at: { $gt: nowIso } });
  return pings.filter((p) => p.lat !== null && p.lon !== null && distanceMeters(point, { lat: p.lat, lon: p.lon }) <= RADIUS_M).length;
}

/** The naive lookup: every ping, its distance, filtered and sorted. */
async function nearNaive(store: ReadStore, point: LatLon, nowIso: string): Promise<number> {
  const all = await store.collection<LocationPingDoc>(LOCATION_PINGS).find({});
  return all
    .filter((p) => p.expires_at !== null && p.expires_at > nowIso && p.lat !== null && p.lon !== null)
    .map((p) => distanceMeters(point, { lat: p.lat as number, lon: p.lon as number }))
    .filter((m) => m <= RADIUS_M)
    .sort((a, b) => a - b).length;
}

async function registerUsers(url: string, count: number): Promise<string[]> {
  const prefix = `e${Date.now().toString(36)}`;
  const tokens: string[] = [];
  const failures: string[] = [];
  let next = 0;
  const bar = progress('register economy users', count, 'users');
  const worker = async (): Promise<void> => {
    while (next < count) {
      const i = next++;
      const username = `${prefix}${i}`;
      const response = await fetch(`${url}/api/social/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username, email: `${username}@example.com`, password: 'correct horse battery' }),
      });
      const body = (await response.json()) as { data?: { token?: string } };
      if (response.status === 201 && body.data?.token) tokens.push(body.data.token);
      else failures.push(`${username}: ${response.status}`);
      bar.update(tokens.length + failures.length);
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
  bar.stop();
  if (failures.length) log(`  ! ${failures.length} registrations failed, e.g. ${failures.slice(0, 3).join(', ')}`);
  if (tokens.length === 0) throw new Error('no user could be registered');
  return tokens;
}

/** One autocannon run of `amount` requests; its figures and how long it took. */
async function untilDone(name: string, options: autocannon.Options): Promise<{ run: HttpRun; seconds: number }> {
  const bar = progress(name, options.amount ?? 0, 'requests');
  try {
    let done = 0;
    const result = await new Promise<autocannon.Result>((resolve, reject) => {
      const instance = autocannon(options, (error, finished) => (error ? reject(error) : resolve(finished)));
      instance.on('response', () => bar.update(++done));
    });
    return { run: summarise(name, result), seconds: result.duration };
  } finally {
    bar.stop();
  }
}

/** autocannon over `tokens`, each used once: POST `path` with `body(i)`; stops when every token was used. */
function oncePerUser(url: string, connections: number, tokens: string[], path: string, body: (i: number) => string | undefined): autocannon.Options {
  let next = 0;
  return {
    url,
    connections,
    amount: tokens.length,
    requests: [
      {
        method: 'POST',
        setupRequest: (request) => {
          const i = next++ % tokens.length;
          const payload = body(i);
          return { ...request, path, body: payload, headers: { authorization: `Bearer ${tokens[i]}`, ...(payload ? { 'content-type': 'application/json' } : {}) } };
        },
      },
    ],
  };
}

export async function runSocialEconomyBench(options: SocialEconomyOptions): Promise<SocialEconomyResult> {
  heading('13. social economy: nearby lookups (read model), location pings and wallet transactions (real app)');
  const start = now();
  const nowMs = Date.now();
  const nowIso = new Date(nowMs).toISOString();
  const store = new EmbeddedReadStore({ file: null });
  const built = now();
  await buildPings(store, options.geoUsers, nowMs);
  log(`  setup: ${int(options.geoUsers)} users' pings over a 20 km city through the location_pings projection in ${fixed(secondsSince(built), 1)} s`);
  const random = prng(31);
  let found = 0;
  let lookups = 0;
  const indexed = await timeCalls(
    'nearby (500 m) indexed',
    async () => {
      found += await nearIndexed(store, cityPoint(random), nowIso);
      lookups += 1;
    },
    options.calls,
    options.maxSeconds,
    3,
  );
  const naive = await timeCalls('nearby (500 m) naive scan', () => nearNaive(store, cityPoint(random), nowIso), Math.max(5, Math.floor(options.calls / 10)), options.maxSeconds, 1);
  const meanFound = lookups ? found / lookups : 0;
  log(`    nearby within 500 m (${fixed(meanFound, 1)} found on average)  p50 ${ms(indexed.p50).padStart(7)} ms  p99 ${ms(indexed.p99).padStart(7)} ms   naive p50 ${ms(naive.p50).padStart(7)} ms  p99 ${ms(naive.p99).padStart(7)} ms  (${ratio(naive.p50, indexed.p50)} faster)`);
  await store.close();

  const dataDir = makeTempDir('economy');
  const server = await startServer(dataDir, { PASSWORD_HASH_MEMORY_KIB: '4096', SOCIAL_RATE_LIMIT_DISABLED: '1' });
  try {
    await autocannon({ url: `${server.url}/health`, connections: options.connections, duration: 1 });
    const health = await cannon('GET /health', { url: `${server.url}/health`, connections: options.connections }, options.seconds);
    printRun(health, options.seconds);
    const tokens = await registerUsers(server.url, options.appUsers);
    const places = Array.from({ length: tokens.length }, () => cityPoint(random));
    const { run: pings, seconds: pingSeconds } = await untilDone(
      `POST /encounters/location-ping (${int(tokens.length)} users, one each)`,
      oncePerUser(server.url, options.connections, tokens, '/api/social/encounters/location-ping', (i) => JSON.stringify(places[i])),
    );
    printRun(pings, Math.round(pingSeconds * 10) / 10);
    log(`  ratio pings / health: ${ratio(pings.requestsPerSecond, health.requestsPerSecond)}`);
    if (pings.non2xx + pings.errors > 0) log(`  ! non-2xx or errors: ${pings.statusCodes}`);
    const { run: checkins, seconds: checkinSeconds } = await untilDone(
      `POST /resonance/daily-checkin (${int(tokens.length)} wallets, one each)`,
      oncePerUser(server.url, options.connections, tokens, '/api/social/resonance/daily-checkin', () => undefined),
    );
    printRun(checkins, Math.round(checkinSeconds * 10) / 10);
    log(`  ratio wallet transactions / health: ${ratio(checkins.requestsPerSecond, health.requestsPerSecond)}`);
    if (checkins.non2xx + checkins.errors > 0) log(`  ! non-2xx or errors: ${checkins.statusCodes}`);
    return { geoUsers: options.geoUsers, appUsers: tokens.length, nearby: { indexed, naive, meanFound }, health, pings, checkins, seconds: secondsSince(start) };
  } finally {
    await server.stop();
    removeTempDir(dataDir);
  }
}
