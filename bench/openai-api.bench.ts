/**
 * Section 9: the OpenAI-compatible API on the offline engine, in the real app.
 *
 * The app runs in a child process (bench/http-server.ts, as in sections 3
 * and 7) with a temp DATA_DIR, PASSWORD_HASH_MEMORY_KIB=4096 and the
 * per-address buckets lifted (http-server.ts: every request comes from
 * 127.0.0.1). Each API
 * key of the free tier answers 100 requests a UTC day, so the runs rotate
 * over `keys` keys of one user (BENCH_V1_KEYS): a request past them all would
 * be a 429, which the run reports as non-2xx rather than hiding.
 *
 * Yardstick: GET /health on the same app, measured first. Figures: POST
 * /v1/chat/completions plain and with `stream: true` (server-sent events to
 * `data: [DONE]`), each request authenticated by its key (one conditional
 * increment of the day's quota), answered by the offline engine and metered
 * (one ApiUsageMetered append, group-committed).
 */
import autocannon from 'autocannon';
import { part } from './contest.bench';
import { APP_ENV, expectCall, JSON_HEADERS } from './encounter-chat.bench';
import { cannon, type HttpRun, printRun, startServer } from './http.bench';
import { fixed, heading, int, log, makeTempDir, now, ratio, removeTempDir, secondsSince } from './util';

export interface OpenAiApiBenchOptions {
  connections: number;
  healthSeconds: number;
  seconds: number;
  /** free-tier keys the requests rotate over (100 requests each) */
  keys: number;
}

export interface OpenAiApiBenchResult {
  health: HttpRun;
  plain: HttpRun | { skipped: string };
  streamed: HttpRun | { skipped: string };
  keys: number;
  seconds: number;
}

const MODEL = 'agent-platform-1';
const SETUP_CONCURRENCY = 16;
const PROMPT = 'what is 6 * 7';

async function issueKeys(url: string, count: number): Promise<string[]> {
  const username = `v1bench${Date.now().toString(36)}`;
  const session = await expectCall(201, 'register', url, 'POST', '/api/social/register', { username, email: `${username}@example.com`, password: 'bench-Password-1234' });
  const token = session.body.data.token as string;
  const keys: string[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(SETUP_CONCURRENCY, count) }, async () => {
      while (next < count) {
        next++;
        const reply = await expectCall(201, 'POST /api/v1/intelligence/keys', url, 'POST', '/api/v1/intelligence/keys', { name: `bench${next}`, tier: 'free' }, token);
        keys.push(reply.body.data.key as string);
      }
    }),
  );
  return keys;
}

function completionsRun(name: string, url: string, keys: string[], stream: boolean, options: OpenAiApiBenchOptions): Promise<HttpRun> {
  let seq = 0;
  const body = JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: PROMPT }], ...(stream ? { stream: true } : {}) });
  return cannon(
    name,
    {
      url,
      connections: options.connections,
      requests: [
        {
          method: 'POST',
          path: '/v1/chat/completions',
          body,
          setupRequest: (request) => ({ ...request, headers: { ...JSON_HEADERS, authorization: `Bearer ${keys[seq++ % keys.length]}` } }),
        },
      ],
    },
    options.seconds,
  );
}

export async function runOpenAiApiBench(options: OpenAiApiBenchOptions): Promise<OpenAiApiBenchResult> {
  heading('9. OpenAI-compatible API: POST /v1/chat/completions on the offline engine (real app, autocannon)');
  const start = now();
  const dataDir = makeTempDir('openai-api');
  const server = await startServer(dataDir, APP_ENV);
  try {
    const keys = await issueKeys(server.url, options.keys);
    log(`  app ready at ${server.url}; ${int(keys.length)} free-tier keys issued (${int(keys.length * 100)} requests of quota) in ${fixed(secondsSince(start), 1)} s`);
    const probe = await expectCall(200, 'POST /v1/chat/completions', server.url, 'POST', '/v1/chat/completions', { model: MODEL, messages: [{ role: 'user', content: PROMPT }] }, keys[0]);
    if (!String(probe.body.choices?.[0]?.message?.content).includes('42')) log(`  ! completion without "42": ${JSON.stringify(probe.body).slice(0, 160)}`);
    const base = { url: server.url, connections: options.connections };
    await autocannon({ ...base, url: `${server.url}/health`, duration: 1 });
    const health = await cannon('GET /health', { ...base, url: `${server.url}/health` }, options.healthSeconds);
    printRun(health, options.healthSeconds);
    const plain = await part('9 plain', async () => {
      const run = await completionsRun('POST /v1/chat/completions', server.url, keys, false, options);
      printRun(run, options.seconds);
      return run;
    });
    const streamed = await part('9 streamed', async () => {
      const run = await completionsRun('  same, stream: true', server.url, keys, true, options);
      printRun(run, options.seconds);
      return run;
    });
    for (const run of [plain, streamed]) {
      if ('non2xx' in run && run.non2xx + run.errors > 0) log(`  ! ${run.name.trim()}: non-2xx or errors (${run.statusCodes}); 429s mean the keys' quota ran out: raise BENCH_V1_KEYS`);
    }
    if ('requestsPerSecond' in plain) log(`  ratio /v1/chat/completions / health: ${ratio(plain.requestsPerSecond, health.requestsPerSecond)}`);
    const seconds = secondsSince(start);
    log(`  section 9 took ${fixed(seconds, 1)} s`);
    return { health, plain, streamed, keys: keys.length, seconds };
  } finally {
    await server.stop();
    removeTempDir(dataDir);
  }
}
