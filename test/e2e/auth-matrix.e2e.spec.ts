/**
 * The auth matrix over every route the app registers (docs/security.md):
 * secure by default. A route not named below as open, pipeline or
 * role-restricted must refuse a caller without a credential with 401; a new
 * route therefore fails this test until it is authenticated or deliberately
 * listed here.
 *
 * A caller on another machine is simulated with Fastify's inject and a
 * remote address outside loopback.
 */
import { startTestApp, type TestApp, uniqueName } from '../support/app';
import type { RouteInfo } from '../support/routes';

jest.setTimeout(60_000);

const REMOTE = '203.0.113.9';
const ADMIN = 'matrixadmin';

const both = (path: string) => [`/api/social${path}`, `/social${path}`];

/**
 * The social reads with optional authentication (social-routes §0.2 "opt"):
 * anyone may read; a valid credential personalises the reply (user_vote,
 * is_member), a missing or bad one reads as anonymous, never 401.
 */
const OPTIONAL_VIEWER = [
  ...['/posts', '/posts/:id', '/posts/:id/likes', '/posts/:id/comments', '/comments/:id/likes'],
  ...['/communities', '/communities/:name', '/communities/:name/posts', '/communities/:name/members'],
  ...['/feed/all', '/feed/trending', '/feed/agents', '/feed/agent-spotlight', '/discovery/communities', '/search'],
  ...['/feeds/rss', '/feeds/atom', '/feeds/json', '/users/:id/feed.rss', '/communities/:id/feed.rss'],
  // the agents context's reads
  ...['/agents/leaderboard', '/agents/showcase', '/agents/specialization-trees', '/agents/:id/evolution', '/agents/:id/evolution-history', '/agents/:id/collaborations'],
  ...['/users/:id/agents', '/marketplace/agents', '/tasks', '/tasks/:id', '/recipes', '/recipes/:id', '/marketplace/recipes', '/bots/tools'],
].flatMap((path) => both(path).map((full) => `GET ${full}`));
OPTIONAL_VIEWER.push(...both('/feeds/preview').map((path) => `POST ${path}`));

/**
 * Open to anyone: probes, metrics (no METRICS_TOKEN in this app), the API's
 * documentation, signing up and in, the contest's public reads, joining as a
 * compute provider (SPEC §5.4), the embedding pages and scripts (SPEC §4.8).
 * CORS preflights (OPTIONS) are left out: they act for nobody.
 */
const OPEN = new Set([
  'GET /status',
  'GET /health',
  'GET /ready',
  'GET /metrics',
  'GET /docs-json',
  'GET /openapi.json',
  'GET /docs',
  'GET /docs/swagger-initializer.js',
  'GET /docs/:asset',
  ...[...both('/auth/register'), ...both('/register'), ...both('/auth/login'), ...both('/login'), ...both('/auth/guest-register'), ...both('/auth/guest-recover')].map(
    (path) => `POST ${path}`,
  ),
  // exchanging a refresh token (the token is the credential, in the body)
  ...both('/auth/refresh').map((path) => `POST ${path}`),
  // node to node: trust comes from the signature over the profile (the peer's pinned key)
  ...both('/auth/sync-user').map((path) => `POST ${path}`),
  // a handle's availability (bucket global)
  ...both('/handles/check').map((path) => `GET ${path}`),
  'GET /api/hive/contest/info',
  'GET /api/hive/contest/leaderboard',
  'GET /api/hive/contest/claude-code.mcp',
  'POST /api/settings/compute/provider/join',
  // A2A agent cards: discovery (the JSON-RPC endpoint needs a credential)
  'GET /a2a/:agent_id/.well-known/agent.json',
  'GET /a2a/:agent_id/.well-known/agent-card.json',
  // the embedding pages and scripts: their actions need a credential
  'GET /agents/:agent_name',
  'GET /widget.js',
  'GET /embed/widget-object.js',
  // the agents context's open routes: the name helpers, discovery, bot self-registration and skill files
  ...both('/agents/suggest-names').map((path) => `GET ${path}`),
  ...both('/discovery/agents').map((path) => `GET ${path}`),
  ...both('/bots/:framework-skill').map((path) => `GET ${path}`),
  ...both('/agents/validate-name').map((path) => `POST ${path}`),
  ...both('/bots/register').map((path) => `POST ${path}`),
  // the node's identity (social-routes §20): its public key and its signed code hash
  ...[...both('/integrity/public-key'), ...both('/integrity/code-hash'), ...both('/integrity/ban-list')].map((path) => `GET ${path}`),
]);

/**
 * The social platform's "opt" routes (social-routes §0.2): open to anyone; a
 * valid credential personalises the reply, a bad one reads as anonymous
 * (never 401).
 */
const OPTIONAL = new Set([
  ...[
    '/users',
    '/users/:id',
    '/users/:id/posts',
    '/users/:id/comments',
    '/users/:id/karma',
    '/users/:id/skills',
    '/users/:id/followers',
    '/users/:id/following',
  ].flatMap((path) => both(path).map((full) => `GET ${full}`)),
  ...OPTIONAL_VIEWER,
]);

/** The agent pipeline: a credential, or the local guest from loopback (pipeline-caller.ts). */
const PIPELINE = new Set([
  'POST /chat',
  'POST /visual_agent',
  'POST /add_history',
  'POST /time_agent',
  'GET /time_agent/:schedule_id',
  'POST /goals',
  'GET /goals/:id',
]);

/** Routes a plain user may not use: operators and admins only, or admins only. */
const ROLE_RESTRICTED = new Set([
  'GET /api/revenue/dashboard',
  'POST /api/revenue/records',
  'GET /api/settings/compute',
  'PUT /api/settings/compute',
  'GET /api/settings/compute/provider',
  'POST /api/settings/compute/provider/served',
  'POST /api/settings/compute/provider/settlements',
  'POST /api/settings/compute/provider/settlements/:id/complete',
  'POST /api/hive/contest/events',
  'GET /a2a/peers',
  // the agent engine's admin operations (issue 18)
  ...['setup', 'start', 'stop', 'unload'].map((action) => `POST /api/tools/:tool_name/${action}`),
  'POST /api/tools/lifecycle/:model_name/priority',
  'POST /api/tools/lifecycle/:model_name/offload',
  'POST /coding/install',
  'POST /api/skills/ingest',
  'POST /api/skills/discover/local',
  'POST /api/skills/discover/github',
  'DELETE /api/skills/:skill_name',
  ...[...both('/admin/stats')].map((path) => `GET ${path}`),
  ...[...both('/admin/users/:id/role')].map((path) => `PUT ${path}`),
  ...[...both('/admin/revenue-analytics'), ...both('/growth/stats')].map((path) => `GET ${path}`),
  ...[...both('/admin/sync-agents'), ...both('/admin/agents/sync'), ...both('/bots/discover-external')].map((path) => `POST ${path}`),
  ...[...both('/audit/verify'), ...both('/audit/events'), ...both('/audit/digest'), ...both('/integrity/challenges')].map((path) => `GET ${path}`),
  ...[...both('/integrity/challenges'), ...both('/integrity/node/:id/ban')].map((path) => `POST ${path}`),
  // federation's node registry (issue 17)
  ...both('/federation/nodes').map((path) => `GET ${path}`),
  ...both('/federation/nodes/:id/approve').map((path) => `POST ${path}`),
  // moderation of content (§12): moderators (role operator or admin), deleting admins only
  ...['/moderation/reports', '/admin/moderation/reports', '/admin/moderation/reports/:id'].flatMap((path) => both(path).map((full) => `GET ${full}`)),
  ...both('/moderation/reports/:id').map((path) => `PATCH ${path}`),
  ...['/admin/moderation/reports/:id/resolve', '/admin/moderation/posts/:id/hide', '/admin/moderation/comments/:id/hide'].flatMap((path) => both(path).map((full) => `POST ${full}`)),
  ...['/admin/moderation/posts/:id/hide', '/admin/moderation/posts/:id', '/admin/moderation/comments/:id'].flatMap((path) => both(path).map((full) => `DELETE ${full}`)),
  ...['/admin/users', '/admin/logs'].flatMap((path) => both(path).map((full) => `GET ${full}`)),
  ...both('/admin/users/:id').map((path) => `PATCH ${path}`),
  ...both('/auth/verify-user').map((path) => `GET ${path}`),
  ...['/admin/users/:id/ban', '/moderation/ban/:id'].flatMap((path) => both(path).flatMap((full) => [`POST ${full}`, `DELETE ${full}`])),
]);

/** The OpenAI-compatible API: an API key only (its use is metered per key); a login token is 401 there. */
const API_KEY_ONLY = new Set(['GET /v1/models', 'POST /v1/chat/completions']);

/** Node-to-node routes: a node's signature only (modules/integrity/node-signature.guard.ts); a login token is 401 there. */
const NODE_SIGNED = new Set([
  ...[...both('/integrity/challenge'), ...both('/integrity/challenge-response')].map((path) => `POST ${path}`),
  // federation: a node registers signing with the key it registers; approved nodes read the log
  ...both('/federation/nodes/register').map((path) => `POST ${path}`),
  ...both('/federation/log').map((path) => `GET ${path}`),
]);

/**
 * Routes outside Nest's usual JSON replies that fall under the secure default
 * (any authenticated user, 401 without): named so that a rename cannot take
 * them out of this matrix unnoticed. The MCP server: an API key or JWT.
 */
const AUTHENTICATED_PROTOCOL_ROUTES = new Set(['POST /mcp', 'GET /mcp', 'DELETE /mcp']);

const keyOf = (route: RouteInfo) => `${route.method} ${route.url}`;
const concrete = (url: string) => url.replace(/:[A-Za-z_]+/g, 'x');

describe('the auth matrix of every route', () => {
  let t: TestApp;
  let routes: RouteInfo[];
  let userToken: string;
  let adminToken: string;

  beforeAll(async () => {
    t = await startTestApp({ SVC_ADMIN_USERS: ADMIN });
    routes = t.routes.filter((route) => route.method !== 'HEAD' && route.method !== 'OPTIONS');
    userToken = await newUserToken();
    const admin = await t.request('POST', '/api/social/register', { body: { username: ADMIN, email: `${ADMIN}@example.com`, password: 'correct horse battery' } });
    adminToken = admin.body.data.token;
  });

  async function newUserToken(): Promise<string> {
    const username = uniqueName('matrix');
    const res = await t.request('POST', '/api/social/register', { body: { username, email: `${username}@example.com`, password: 'correct horse battery' } });
    return res.body.data.token;
  }
  afterAll(() => t.close());

  const send = async (route: RouteInfo, options: { remoteAddress?: string; token?: string }) => {
    const res = await t.app.inject({
      method: route.method as 'GET',
      url: concrete(route.url),
      remoteAddress: options.remoteAddress,
      headers: { ...(route.method === 'GET' ? {} : { 'content-type': 'application/json' }), ...(options.token ? { authorization: `Bearer ${options.token}` } : {}) },
      payload: route.method === 'GET' ? undefined : '{}',
    });
    return res.statusCode;
  };

  it('lists every route the tables name (a renamed route cannot hide)', () => {
    const registered = new Set(routes.map(keyOf));
    const named = [...OPEN, ...OPTIONAL, ...PIPELINE, ...ROLE_RESTRICTED, ...API_KEY_ONLY, ...NODE_SIGNED, ...AUTHENTICATED_PROTOCOL_ROUTES];
    expect(named.filter((key) => !registered.has(key))).toEqual([]);
    expect(routes.length).toBeGreaterThan(named.length);
  });

  it('given no credential from another machine, then every route but the open ones answers 401', async () => {
    const wrong: string[] = [];
    for (const route of routes) {
      const status = await send(route, { remoteAddress: REMOTE });
      const open = OPEN.has(keyOf(route)) || OPTIONAL.has(keyOf(route));
      if (open === (status === 401)) wrong.push(`${keyOf(route)} → ${status}`);
    }
    expect(wrong).toEqual([]);
  });

  it('given no credential from this machine, then only the open and pipeline routes let the local guest in', async () => {
    const wrong: string[] = [];
    for (const route of routes) {
      const status = await send(route, { remoteAddress: '127.0.0.1' });
      const admitted = OPEN.has(keyOf(route)) || OPTIONAL.has(keyOf(route)) || PIPELINE.has(keyOf(route));
      if (admitted === (status === 401)) wrong.push(`${keyOf(route)} → ${status}`);
    }
    expect(wrong).toEqual([]);
  });

  it('given a garbage token, then every route that is not open answers 401, and the optional ones read it as anonymous', async () => {
    const wrong: string[] = [];
    for (const route of routes.filter((r) => !OPEN.has(keyOf(r)))) {
      const status = await send(route, { remoteAddress: REMOTE, token: 'garbage' });
      if (OPTIONAL.has(keyOf(route)) === (status === 401)) wrong.push(`${keyOf(route)} → ${status}`);
    }
    expect(wrong).toEqual([]);
  });

  it('given an operator (the original’s moderator), then the admin-only account routes still answer 403', async () => {
    const username = uniqueName('matrixop');
    const registered = await t.request('POST', '/api/social/register', { body: { username, email: `${username}@example.com`, password: 'correct horse battery' } });
    await t.request('PATCH', `/api/social/admin/users/${registered.body.data.id}`, { token: adminToken, body: { role: 'operator' } });
    const adminOnly = routes.filter((r) => /\/(admin\/(users|logs)|moderation\/ban)/.test(r.url));
    const wrong: string[] = [];
    for (const route of adminOnly) {
      const status = await send(route, { remoteAddress: REMOTE, token: registered.body.data.token });
      if (status !== 403) wrong.push(`${keyOf(route)} → ${status}`);
    }
    expect(adminOnly.length).toBeGreaterThan(0);
    expect(wrong).toEqual([]);
  });

  it('given an admin, then no admin-only account route answers 401 or 403', async () => {
    const wrong: string[] = [];
    for (const route of routes.filter((r) => /\/(admin\/(users|logs)|moderation\/ban)/.test(r.url))) {
      const status = await send(route, { remoteAddress: REMOTE, token: adminToken });
      if (status === 401 || status === 403) wrong.push(`${keyOf(route)} → ${status}`);
    }
    expect(wrong).toEqual([]);
  });

  it('given a plain user with a login token, then the role-restricted routes answer 403, the API-key-only and node-signed routes 401, and no other route 401 or 403', async () => {
    const wrong: string[] = [];
    // a stream route would hold the connection open: its authentication is covered above
    for (const route of routes.filter((r) => !r.url.endsWith('/stream'))) {
      // each logout revokes its token: give it one of its own
      const token = route.url.endsWith('/logout') ? await newUserToken() : userToken;
      const status = await send(route, { remoteAddress: REMOTE, token });
      const restricted = ROLE_RESTRICTED.has(keyOf(route));
      const keyOnly = API_KEY_ONLY.has(keyOf(route)) || NODE_SIGNED.has(keyOf(route));
      if (restricted ? status !== 403 : keyOnly ? status !== 401 : status === 401) wrong.push(`${keyOf(route)} → ${status}`);
    }
    expect(wrong).toEqual([]);
  });
});
