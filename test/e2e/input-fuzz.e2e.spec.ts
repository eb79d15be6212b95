/**
 * Hostile input on every route the app registers (recorded by startTestApp,
 * no list kept by hand; a /social alias of an /api/social route once), as an anonymous caller and as an admin: wrong types
 * in every field a request reader or DTO reads (requestFieldNames), deep
 * nesting, huge strings, odd unicode, Mongo operator objects, other content
 * types, odd path parameters and query strings. No request may get a 5xx,
 * and every 4xx carries the error envelope `{success: false, error}` (under
 * /v1, the OpenAI-compatible API, OpenAI's `{error: {message, type}}`).
 *
 * Requests go over node:http (fetch would normalise `..` in paths), a few
 * at a time on kept-alive sockets; an SSE stream that opens is closed at once.
 */
import { Agent, request as httpRequest } from 'node:http';
import { speaksOpenAi } from '../../src/modules/common/openai-errors';
import { startTestApp, type TestApp } from '../support/app';
import { requestFieldNames, type RouteInfo } from '../support/routes';

jest.setTimeout(180_000);

const ADMIN = 'fuzzadmin';
const BODY_LIMIT = 65_536;
const CONCURRENCY = 8;
const REPLY_TIMEOUT_MS = 10_000;
const FIELDS = requestFieldNames();
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

const STRINGS = [
  '',
  ' ',
  '12',
  '-1',
  '1e308',
  'NaN',
  'true',
  'null',
  '2030-01-01T00:00:00Z',
  '../../etc/passwd',
  '\u202Egnp.exe',
  '\u2066x\u2069\u200B',
  '😀👩‍💻',
  'שלום עולם',
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  '${7*7}{{7*7}}',
  'x'.repeat(10_000),
];
const NON_STRINGS: unknown[] = [
  0,
  -1,
  1.5,
  1e308,
  -1e308,
  2 ** 53 + 1,
  true,
  false,
  null,
  [],
  [1, 'a', null],
  {},
  { $gt: '' },
  { $where: 'sleep(1000)' },
  { $ne: null },
  [{ $gt: '' }],
  { a: { b: { c: [] } } },
];

interface Body {
  label: string;
  data?: string | Buffer;
  contentType?: string;
}

const everyField = (value: string) => `{${FIELDS.map((f) => `${JSON.stringify(f)}:${value}`).join(',')}}`;
const nested = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;

const BODIES: Body[] = [
  ...[...STRINGS, ...NON_STRINGS].map((value) => ({ label: `every field ${JSON.stringify(value).slice(0, 40)}`, data: everyField(JSON.stringify(value)) })),
  { label: 'no body' },
  { label: 'empty JSON', data: '' },
  { label: 'malformed JSON', data: '{"username": "x",' },
  { label: 'a JSON array', data: '[1,2]' },
  { label: 'a JSON string', data: '"text"' },
  { label: 'a JSON number', data: '42' },
  { label: 'JSON null', data: 'null' },
  { label: '5,000 levels of nesting', data: `{"a":${nested(5000)}}` },
  { label: '5,000 levels in every field', data: everyField(nested(5000)) },
  { label: 'a lone surrogate in every field', data: everyField('"a\\ud800"') },
  { label: 'a NUL in every field', data: everyField('"a\\u0000"') },
  { label: 'invalid UTF-8', data: Buffer.concat([Buffer.from(everyField('"a')).subarray(0, -1), Buffer.from([0xff, 0xfe, 0xed, 0xa0, 0x80, 0x22, 0x7d])]) },
  { label: 'big strings within the limit', data: everyField(JSON.stringify('x'.repeat(Math.floor(BODY_LIMIT / FIELDS.length) - 40))) },
  { label: 'a body over the limit', data: JSON.stringify({ a: 'x'.repeat(BODY_LIMIT) }) },
  { label: 'prototype poisoning', data: '{"__proto__":{"admin":true},"constructor":{"prototype":{"admin":true}}}' },
  { label: 'a form', data: FIELDS.map((f) => `${f}=1`).join('&'), contentType: 'application/x-www-form-urlencoded' },
  { label: 'multipart', data: '--b\r\nContent-Disposition: form-data; name="username"\r\n\r\nx\r\n--b--\r\n', contentType: 'multipart/form-data; boundary=b' },
  { label: 'plain text', data: '{"username":"x"}', contentType: 'text/plain' },
  { label: 'no content type', data: '{"username":"x"}', contentType: '' },
  { label: 'a malformed content type', data: '{}', contentType: 'json' },
];

const QUERY_VALUES = ['', '-1', '1e308', 'abc', '%00', '%ED%A0%80', '%E2%80%AE', encodeURIComponent('😀'), '%7B%22%24gt%22%3A%22%22%7D'];
const LONG = 'q'.repeat(1000);
const LONG_PER_QUERY = 12;
const QUERIES = [
  ...QUERY_VALUES.map((value) => FIELDS.map((f) => `${f}=${value}`).join('&')),
  FIELDS.map((f) => `${f}=1&${f}=2`).join('&'),
  FIELDS.map((f) => `${f}[$gt]=&${f}[]=x`).join('&'),
  // long values for every field, 12 to a query (about 12 kB, under Node's 16 kB header limit)
  ...Array.from({ length: Math.ceil(FIELDS.length / LONG_PER_QUERY) }, (_, i) =>
    FIELDS.slice(i * LONG_PER_QUERY, i * LONG_PER_QUERY + LONG_PER_QUERY)
      .map((f) => `${f}=${LONG}`)
      .join('&'),
  ),
];

const PATH_VALUES = [
  '%00',
  '..',
  '.',
  '%2e%2e%2f%2e%2e',
  'a'.repeat(5000),
  encodeURIComponent('שלום'),
  '%E2%80%AE',
  '%ED%A0%80',
  encodeURIComponent('😀'),
  '-1',
  '1e308',
  'null',
  '%20',
  '%25',
  'x%0D%0Ay',
  encodeURIComponent('{"$gt":""}'),
];

interface Probe {
  method: string;
  path: string;
  body?: Body;
  label: string;
}

interface Outcome {
  status: number;
  text: string;
  contentType: string;
}

/** Pages a person reads in a browser (the embed pages): their refusals are HTML pages saying what is wrong, not the JSON envelope. */
const HTML_PAGES = /^\/agents\//;

/** A route's URL with its `:params` filled: each by `fill(name)`. */
const withParams = (url: string, fill: (name: string) => string) => url.replace(/:([A-Za-z0-9_]+)/g, (_m, name: string) => fill(name));

function probesOf(route: RouteInfo): Probe[] {
  const { method, url } = route;
  const plain = withParams(url, () => 'x1');
  const probes: Probe[] = QUERIES.map((query) => ({ method, path: `${plain}?${query}`, label: `query ${query.slice(0, 40)}` }));
  if (url.includes(':')) {
    for (const value of PATH_VALUES) probes.push({ method, path: withParams(url, () => value), label: `path ${value.slice(0, 20)}` });
  }
  if (BODY_METHODS.has(method)) for (const body of BODIES) probes.push({ method, path: plain, body, label: body.label });
  return probes;
}

const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });

function send(baseUrl: string, probe: Probe, token: string | null): Promise<Outcome> {
  const { hostname, port } = new URL(baseUrl);
  const headers: Record<string, string | number> = {};
  if (token) headers.authorization = `Bearer ${token}`;
  const data = probe.body?.data;
  if (data !== undefined) {
    const contentType = probe.body?.contentType ?? 'application/json';
    if (contentType !== '') headers['content-type'] = contentType;
    headers['content-length'] = Buffer.byteLength(data);
  }
  return new Promise((resolve, reject) => {
    const req = httpRequest({ hostname, port, path: probe.path, method: probe.method, headers, agent }, (res) => {
      if (String(res.headers['content-type'] ?? '').startsWith('text/event-stream')) {
        // the SSE stream opened: its status is all there is to see
        req.destroy();
        resolve({ status: res.statusCode ?? 0, text: '', contentType: 'text/event-stream' });
        return;
      }
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text, contentType: String(res.headers['content-type'] ?? '') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.setTimeout(REPLY_TIMEOUT_MS, () => req.destroy(new Error(`no reply within ${REPLY_TIMEOUT_MS} ms`)));
    req.end(data);
  });
}

/**
 * Routes that speak JSON-RPC 2.0 (the MCP transport, the A2A endpoints):
 * their refusals are JSON-RPC error objects, the protocol's own envelope
 * `{jsonrpc: "2.0", id, error: {code, message}}`, which their clients read.
 */
const JSON_RPC_ROUTES = /^\/(mcp|a2a\/[^/?]+\/jsonrpc)(\?|$)/;

function isJsonRpcError(body: { jsonrpc?: unknown; error?: unknown }): boolean {
  const error = body.error as { code?: unknown; message?: unknown } | undefined;
  return body.jsonrpc === '2.0' && typeof error === 'object' && error !== null && Number.isInteger(error.code) && typeof error.message === 'string';
}

/** What is wrong with a reply, or null. */
function problemOf(probe: Probe, outcome: Outcome): string | null {
  if (outcome.status >= 500) return `${outcome.status} ${outcome.text.slice(0, 200)}`;
  if (outcome.status < 400 || probe.method === 'HEAD') return null;
  if (HTML_PAGES.test(probe.path) && outcome.contentType.startsWith('text/html') && outcome.text.includes('role="alert"')) return null;
  try {
    const body = JSON.parse(outcome.text) as { success?: unknown; error?: unknown; jsonrpc?: unknown };
    if (body.success === false && typeof body.error === 'string') return null;
    const openAi = body.error as { message?: unknown; type?: unknown } | undefined;
    if (speaksOpenAi(probe.path) && typeof openAi?.message === 'string' && typeof openAi.type === 'string') return null;
    if (JSON_RPC_ROUTES.test(probe.path) && isJsonRpcError(body)) return null;
  } catch {
    // not JSON: reported below
  }
  return `${outcome.status} without the error envelope: ${outcome.text.slice(0, 200)}`;
}

async function fuzz(t: TestApp, routes: readonly RouteInfo[], token: string | null): Promise<string[]> {
  const probes = routes.flatMap(probesOf);
  const problems: string[] = [];
  let next = 0;
  const worker = async () => {
    while (next < probes.length) {
      const probe = probes[next++];
      try {
        const problem = problemOf(probe, await send(t.url, probe, token));
        if (problem) problems.push(`${probe.method} ${probe.path.slice(0, 80)} [${probe.label}]: ${problem}`);
      } catch (error) {
        problems.push(`${probe.method} ${probe.path.slice(0, 80)} [${probe.label}]: ${(error as Error).message}`);
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return problems;
}

describe('hostile input on every route', () => {
  let t: TestApp;
  let adminToken: string;
  /** every route once per method; logging out goes last, or the admin's token would be revoked midway */
  let routes: RouteInfo[];

  beforeAll(async () => {
    t = await startTestApp({ BODY_LIMIT_BYTES: String(BODY_LIMIT), SVC_ADMIN_USERS: ADMIN, CHAT_RATE_LIMIT_PER_MINUTE: '100000', RATE_LIMIT_PIPELINE: '100000/1m', RATE_LIMIT_PIPELINE_IP: '100000/1m' });
    const admin = await t.request('POST', '/api/social/register', {
      body: { username: ADMIN, email: 'fuzz@example.com', password: 'correct horse battery' },
    });
    adminToken = admin.body.data.token;
    // a social route is served under /api/social and /social by one handler: fuzzing the alias again tests nothing new
    const registered = new Set(t.routes.map((r) => `${r.method} ${r.url}`));
    const alias = (r: RouteInfo) => r.url.startsWith('/social/') && registered.has(`${r.method} /api${r.url}`);
    const unique = new Map(t.routes.filter((r) => !alias(r)).map((r) => [`${r.method} ${r.url}`, r]));
    const logout = (r: RouteInfo) => (r.url.endsWith('/logout') ? 1 : 0);
    routes = [...unique.values()].sort((a, b) => logout(a) - logout(b));
  });
  afterAll(async () => {
    agent.destroy();
    await t?.close();
  });

  it('given the routes the app registered, then they are found (the fuzz covers something)', () => {
    expect(routes.length).toBeGreaterThan(40);
    expect(routes).toContainEqual({ method: 'POST', url: '/api/social/register' });
    expect(FIELDS).toEqual(expect.arrayContaining(['username', 'offered_gpu_hours_per_day', 'vibe_tags', 'limit']));
  });

  it('given an anonymous caller, when hostile input reaches every route, then no 5xx and every 4xx in the error envelope', async () => {
    expect(await fuzz(t, routes, null)).toEqual([]);
  });

  it('given an authenticated admin, when hostile input reaches every route, then no 5xx and every 4xx in the error envelope', async () => {
    expect(await fuzz(t, routes, adminToken)).toEqual([]);
  });
});
