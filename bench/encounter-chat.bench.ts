/**
 * Section 7: the encounter flow and the chat pipeline on the embedded default,
 * in the real app.
 *
 * The app runs in a child process (bench/http-server.ts, as in section 3) with
 * a temp DATA_DIR, PASSWORD_HASH_MEMORY_KIB=4096 (as the tests: setup
 * registers hundreds of users) and CHAT_RATE_LIMIT_PER_MINUTE=100000 (the
 * limit is per client IP for anonymous callers, and every request here comes
 * from 127.0.0.1). Yardstick for every figure: GET /health on the same app,
 * measured once at the start of the section.
 *
 *   A. encounter: `pairs` pairs of users (register, register-pubkey,
 *      discoverable with age_claim_18, each sights the other: the calls of
 *      test/support/encounter.ts), then all 2 x pairs likes fired at once
 *      (over connections opened beforehand) → likes/s, p50/p99, matches
 *      created (distinct match ids; must equal `pairs`), checked again in the
 *      matches read model. Then POST /api/social/encounter/sighting with
 *      autocannon: one user sighting one discoverable peer over and over.
 *   B. chat on the offline engine: POST /chat with autocannon for casual_conv
 *      turns ("what is 6 * 7") and for REUSE of a saved recipe (one created
 *      per prompt id beforehand with autonomous: true), each spread over
 *      `conversations` prompt ids and `chatUsers` user ids so that the
 *      per-conversation queue does not serialise the run.
 *
 * Each part that fails prints "skipped: <reason>" and the bench goes on.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import type { MatchView } from '../src/aggregates/encounter/encounter-messages';
import { part } from './contest.bench';
import { ms, percentile } from './contest-reads.bench';
import { cannon, type HttpRun, printRun, startServer } from './http.bench';
import { fixed, heading, int, log, makeTempDir, now, progress, ratio, removeTempDir, secondsSince } from './util';

export interface EncounterChatOptions {
  /** pairs of users who like each other (2 x pairs likes fired at once) */
  pairs: number;
  /** autocannon connections */
  connections: number;
  healthSeconds: number;
  sightingSeconds: number;
  chatSeconds: number;
  /** prompt ids (conversations) the chat runs are spread over; also the number of recipes saved for REUSE */
  conversations: number;
  /** user ids the conversations are spread over */
  chatUsers: number;
}

export interface LikesRun {
  count: number;
  seconds: number;
  perSecond: number;
  p50: number;
  p99: number;
  /** replies other than 200, and requests that failed outright */
  failed: number;
}

export interface EncounterResult {
  pairs: number;
  setupSeconds: number;
  likes: LikesRun;
  /** distinct match ids in the like replies */
  matches: number;
  /** pairs whose two likes reported more than one match id */
  pairsWithSeveralMatches: number;
  /** pairs whose match is in the first user's GET /matches */
  readModelMatches: number;
  sighting: HttpRun;
}

export interface ChatResult {
  conversations: number;
  users: number;
  recipesSaved: number;
  recipeSeconds: number;
  casual: HttpRun;
  reuse: HttpRun;
}

export interface EncounterChatResult {
  health: HttpRun;
  encounter: EncounterResult | { skipped: string };
  chat: ChatResult | { skipped: string };
  seconds: number;
}

const PASSWORD = 'bench-Password-1234';
export const JSON_HEADERS = { 'content-type': 'application/json' };
export const ENC = '/api/social/encounter';
const SETUP_CONCURRENCY = 16;
const CASUAL_PROMPT = 'what is 6 * 7';
export const APP_ENV = { PASSWORD_HASH_MEMORY_KIB: '4096', CHAT_RATE_LIMIT_PER_MINUTE: '100000' };

interface Reply {
  status: number;
  body: any;
}

export interface User {
  id: string;
  token: string;
  pubkey: string;
}

async function call(url: string, method: string, path: string, body?: unknown, token?: string): Promise<Reply> {
  const headers: Record<string, string> = body === undefined ? {} : { ...JSON_HEADERS };
  if (token) headers.authorization = `Bearer ${token}`;
  const response = await fetch(`${url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // not JSON: kept as text for the error message
  }
  return { status: response.status, body: parsed };
}

/** `call` that throws unless the status is `expected`. */
export async function expectCall(expected: number, what: string, url: string, method: string, path: string, body?: unknown, token?: string): Promise<Reply> {
  const reply = await call(url, method, path, body, token);
  if (reply.status !== expected) throw new Error(`${what}: HTTP ${reply.status} ${JSON.stringify(reply.body).slice(0, 200)}`);
  return reply;
}

/** Runs `task(i)` for i in 0..count-1, `concurrency` at a time, with a progress bar; returns the results in order. */
async function inPool<T>(label: string, count: number, unit: string, task: (i: number) => Promise<T>): Promise<T[]> {
  const results = new Array<T>(count);
  let next = 0;
  let done = 0;
  const bar = progress(label, count, unit);
  try {
    await Promise.all(
      Array.from({ length: Math.min(SETUP_CONCURRENCY, count) }, async () => {
        while (next < count) {
          const i = next++;
          results[i] = await task(i);
          bar.update(++done);
        }
      }),
    );
  } finally {
    bar.stop();
  }
  return results;
}

/** A registered user with a current key who is discoverable (test/support/encounter.ts: discoverableUser). */
export async function discoverableUser(url: string, username: string): Promise<User> {
  const reg = await expectCall(201, `register ${username}`, url, 'POST', '/api/social/register', {
    username,
    email: `${username}@example.com`,
    password: PASSWORD,
  });
  const user: User = { id: reg.body.data.id, token: reg.body.data.token, pubkey: randomBytes(16).toString('hex') };
  await expectCall(200, 'register-pubkey', url, 'POST', `${ENC}/register-pubkey`, { pubkey: user.pubkey }, user.token);
  await expectCall(200, 'discoverable', url, 'POST', `${ENC}/discoverable`, { enabled: true, age_claim_18: true }, user.token);
  return user;
}

export const SIGHTING = (peer: User) => ({ peer_pubkey: peer.pubkey, rssi_peak: -60, dwell_sec: 30 });

async function sight(url: string, owner: User, peer: User): Promise<string> {
  const reply = await expectCall(200, 'sighting', url, 'POST', `${ENC}/sighting`, SIGHTING(peer), owner.token);
  return reply.body.data.sighting_id as string;
}

function latencyRun(count: number, seconds: number, latencies: number[], failed: number): LikesRun {
  const sorted = [...latencies].sort((a, b) => a - b);
  return { count, seconds, perSecond: count / seconds, p50: percentile(sorted, 50), p99: percentile(sorted, 99), failed };
}

async function runEncounter(url: string, options: EncounterChatOptions, health: HttpRun): Promise<EncounterResult> {
  log(`  A. encounter: ${int(options.pairs)} pairs like each other at once; sightings`);
  const setupStart = now();
  const prefix = `e${randomUUID().slice(0, 6)}`;
  const users = await inPool('discoverable users', options.pairs * 2, 'users', (i) => discoverableUser(url, `${prefix}_${i}`));
  const pairs = Array.from({ length: options.pairs }, (_, i) => ({ a: users[2 * i], b: users[2 * i + 1] }));
  const sightings = await inPool('mutual sightings', options.pairs, 'pairs', async (i) => ({
    a: await sight(url, pairs[i].a, pairs[i].b),
    b: await sight(url, pairs[i].b, pairs[i].a),
  }));
  const setupSeconds = secondsSince(setupStart);
  log(
    `    setup: ${int(users.length)} users registered, keyed, discoverable; ${int(options.pairs * 2)} sightings; ` +
      `${fixed(setupSeconds, 1)} s (${SETUP_CONCURRENCY} requests at a time)`,
  );

  // one keep-alive connection per like, opened beforehand, so the likes do not pay TCP setup
  await Promise.all(users.map(() => call(url, 'GET', '/health')));

  const likes = pairs.flatMap((pair, i) => [
    { pair: i, user: pair.a, sighting: sightings[i].a },
    { pair: i, user: pair.b, sighting: sightings[i].b },
  ]);
  const latencies: number[] = [];
  const matchIds = Array.from({ length: options.pairs }, () => new Set<string>());
  let failed = 0;
  let firstFailure = '';
  const likeStart = now();
  await Promise.all(
    likes.map(async ({ pair, user, sighting }) => {
      const start = now();
      try {
        const reply = await call(url, 'POST', `${ENC}/swipe`, { sighting_id: sighting, decision: 'like' }, user.token);
        latencies.push(secondsSince(start) * 1000);
        if (reply.status !== 200) {
          failed++;
          firstFailure ||= `HTTP ${reply.status} ${JSON.stringify(reply.body).slice(0, 120)}`;
        } else if (reply.body.data.match_id) {
          matchIds[pair].add(reply.body.data.match_id as string);
        }
      } catch (error) {
        failed++;
        firstFailure ||= error instanceof Error ? error.message : String(error);
      }
    }),
  );
  const likeRun = latencyRun(likes.length, secondsSince(likeStart), latencies, failed);
  const matches = matchIds.reduce((sum, ids) => sum + ids.size, 0);
  const pairsWithSeveralMatches = matchIds.filter((ids) => ids.size > 1).length;

  // the matches read model, as the first user of each pair sees it
  const seen = await inPool('GET /matches', options.pairs, 'pairs', async (i) => {
    const [matchId] = matchIds[i];
    if (!matchId) return false;
    const reply = await expectCall(200, 'matches', url, 'GET', `${ENC}/matches`, undefined, pairs[i].a.token);
    return (reply.body.data.matches as MatchView[]).some((m) => m.id === matchId);
  });
  const readModelMatches = seen.filter(Boolean).length;

  log(
    `    ${int(likes.length)} likes fired at once: all answered in ${fixed(likeRun.seconds * 1000, 0)} ms = ${int(likeRun.perSecond)} likes/s, ` +
      `p50 ${ms(likeRun.p50)} ms, p99 ${ms(likeRun.p99)} ms` +
      (failed ? `; ! ${int(failed)} failed (${firstFailure})` : '; none failed'),
  );
  log(
    `    matches created: ${int(matches)} of ${int(options.pairs)} pairs (distinct match ids in the replies); ` +
      `in the first user's GET /matches: ${int(readModelMatches)}`,
  );
  if (matches !== options.pairs || pairsWithSeveralMatches > 0 || readModelMatches !== options.pairs) {
    log(
      `    ! WARNING: expected exactly ${int(options.pairs)} matches, one per pair: ${int(matches)} match ids, ` +
        `${int(pairsWithSeveralMatches)} pairs with more than one, ${int(readModelMatches)} in the read model`,
    );
  }
  log(`    ratio likes/s / health req/s: ${ratio(likeRun.perSecond, health.requestsPerSecond)}`);

  const sighter = pairs[0].a;
  const peer = pairs[0].b;
  const sighting = await cannon(
    'POST /api/social/encounter/sighting',
    {
      url,
      connections: options.connections,
      requests: [
        {
          method: 'POST',
          path: `${ENC}/sighting`,
          headers: { ...JSON_HEADERS, authorization: `Bearer ${sighter.token}` },
          body: JSON.stringify(SIGHTING(peer)),
        },
      ],
    },
    options.sightingSeconds,
  );
  printRun(sighting, options.sightingSeconds, '    ');
  log(`    ratio sighting / health: ${ratio(sighting.requestsPerSecond, health.requestsPerSecond)} (one user sighting one discoverable peer)`);

  return { pairs: options.pairs, setupSeconds, likes: likeRun, matches, pairsWithSeveralMatches, readModelMatches, sighting };
}

/** autocannon on POST /chat; the i-th request goes to conversation i mod `conversations`. */
function chatRun(
  name: string,
  url: string,
  options: EncounterChatOptions,
  body: (conversation: number) => Record<string, unknown>,
): Promise<HttpRun> {
  let seq = 0;
  return cannon(
    name,
    {
      url,
      connections: options.connections,
      requests: [
        {
          method: 'POST',
          path: '/chat',
          headers: JSON_HEADERS,
          setupRequest: (request) => ({ ...request, body: JSON.stringify(body(seq++ % options.conversations)) }),
        },
      ],
    },
    options.chatSeconds,
  );
}

async function runChat(url: string, options: EncounterChatOptions, health: HttpRun): Promise<ChatResult> {
  log(
    `  B. POST /chat on the offline engine: casual_conv turns and REUSE of saved recipes, ` +
      `over ${int(options.conversations)} prompt ids and ${int(options.chatUsers)} user ids`,
  );
  const prefix = `c${randomUUID().slice(0, 6)}`;
  const userOf = (conversation: number) => `${prefix}u${conversation % options.chatUsers}`;

  // one saved recipe per prompt id, created in one call each (autonomous)
  const recipeStart = now();
  const saved = await inPool('recipes (autonomous)', options.conversations, 'recipes', async (i) => {
    const reply = await expectCall(200, 'autonomous /chat', url, 'POST', '/chat', {
      user_id: userOf(i),
      prompt_id: `r${i}`,
      prompt: CASUAL_PROMPT,
      autonomous: true,
    });
    return reply.body.recipe_saved === true;
  });
  const recipeSeconds = secondsSince(recipeStart);
  const recipesSaved = saved.filter(Boolean).length;
  log(
    `    setup: ${int(recipesSaved)} of ${int(options.conversations)} recipes saved (autonomous: true, "${CASUAL_PROMPT}") in ${fixed(recipeSeconds, 1)} s ` +
      `= ${int(options.conversations / recipeSeconds)} /s, ${SETUP_CONCURRENCY} at a time`,
  );
  if (recipesSaved < options.conversations) log(`    ! WARNING: ${int(options.conversations - recipesSaved)} recipes not saved; their REUSE turns create instead`);

  // one turn of each kind, checked, before the timed runs
  const casualBody = (i: number) => ({ user_id: userOf(i), prompt_id: `k${i}`, prompt: CASUAL_PROMPT, casual_conv: true });
  const reuseBody = (i: number) => ({ user_id: userOf(i), prompt_id: `r${i}`, prompt: 'run it again' });
  const casualProbe = await expectCall(200, 'casual /chat', url, 'POST', '/chat', casualBody(0));
  const reuseProbe = await expectCall(200, 'reuse /chat', url, 'POST', '/chat', reuseBody(0));
  if (!String(casualProbe.body.response).includes('42')) log(`    ! casual reply without "42": ${String(casualProbe.body.response).slice(0, 120)}`);
  if (!String(reuseProbe.body.response).includes('Reused recipe')) log(`    ! reuse reply is not a REUSE: ${String(reuseProbe.body.response).slice(0, 120)}`);

  const casual = await chatRun('POST /chat casual_conv', url, options, casualBody);
  printRun(casual, options.chatSeconds, '    ');
  const reuse = await chatRun('POST /chat REUSE', url, options, reuseBody);
  printRun(reuse, options.chatSeconds, '    ');
  log(
    `    ratio casual / health: ${ratio(casual.requestsPerSecond, health.requestsPerSecond)}; ` +
      `reuse / health: ${ratio(reuse.requestsPerSecond, health.requestsPerSecond)}`,
  );
  if (casual.non2xx + reuse.non2xx + casual.errors + reuse.errors > 0) {
    log(`    ! non-2xx or errors in the chat runs: casual ${casual.statusCodes}, reuse ${reuse.statusCodes}`);
  }
  return { conversations: options.conversations, users: options.chatUsers, recipesSaved, recipeSeconds, casual, reuse };
}

export async function runEncounterChatBench(options: EncounterChatOptions): Promise<EncounterChatResult> {
  heading('7. Encounter likes + chat pipeline (real app, autocannon)');
  const start = now();
  const dataDir = makeTempDir('encounter-chat');
  const server = await startServer(dataDir, APP_ENV);
  try {
    log(
      `  app ready at ${server.url} in ${fixed(secondsSince(start), 2)} s (separate process; ` +
        `${Object.entries(APP_ENV)
          .map(([k, v]) => `${k}=${v}`)
          .join(', ')}; DATA_DIR ${dataDir})`,
    );
    const base = { url: server.url, connections: options.connections };
    await autocannon({ ...base, url: `${server.url}/health`, duration: 1 });
    const health = await cannon('GET /health', { ...base, url: `${server.url}/health` }, options.healthSeconds);
    printRun(health, options.healthSeconds);
    log();
    const encounter = await part('7A', () => runEncounter(server.url, options, health));
    log();
    const chat = await part('7B', () => runChat(server.url, options, health));
    const seconds = secondsSince(start);
    log(`  section 7 took ${fixed(seconds, 1)} s`);
    return { health, encounter, chat, seconds };
  } finally {
    await server.stop();
    removeTempDir(dataDir);
  }
}
