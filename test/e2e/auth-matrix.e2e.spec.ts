/**
 * The auth matrix over every route the app registers (docs/security.md,
 * "Authorisation testing"): every route × (no credential, a garbage token,
 * another user, a moderator, an admin), and every route aimed at a record ×
 * (its owner, another user, a moderator, an admin) → the status its level
 * says. The tables name each registered route exactly once: open, optional,
 * pipeline, API-key-only, node-signed below, the protected ones with their
 * level in test/support/auth-routes.ts; a new route fails the coverage test
 * until it is named, and a protected operation of the OpenAPI document must
 * be in the protected table with the roles it declares.
 *
 * A caller on another machine is simulated with Fastify's inject and a
 * remote address outside loopback.
 */
import { createHmac } from 'node:crypto';
import { walletDecider, walletStreamId } from '../../src/aggregates/contest/wallet';
import { CommandExecutor } from '../../src/modules/common/command-executor';
import { signUp, startTestApp, TEST_PASSWORD, type TestApp, uniqueLetters, uniqueName } from '../support/app';
import {
  BODY_ID_ROUTES,
  type Column,
  COMMUNITY_TARGETS,
  declaredRoles,
  EXPERIMENT_READS,
  expectedFor,
  PIPELINE_AIMED,
  PROTECTED,
  type ProtectedRoute,
  socialKeys,
  type TargetKind,
} from '../support/auth-routes';
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
  // the marketplace's reads (§22)
  ...['/marketplace/categories', '/marketplace/listings', '/marketplace/listings/:id', '/marketplace/listings/:id/reviews'],
  // gamification (§15): ratings and trust are public reads; /ratings/:user_id/given is the rater's own
  ...['/ratings/:user_id', '/ratings/:user_id/received', '/ratings/context/:type/:id', '/trust/:user_id'],
  // ads (§16): serving
  '/ads/serve',
  // challenges (§15): a signed-in caller's progress in each
  ...['/challenges', '/challenges/:id'],
  // §19: the peers' contribution
  '/federation/contribution',
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
  'GET /.well-known/:file',
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
  // thought experiments (§17): open reads, and the body-id routes of a flat node (a sent credential must be valid: tested below)
  ...[...EXPERIMENT_READS, ...BODY_ID_ROUTES].flatMap(socialKeys),
  // §20: the witness judges the requester's signature in the body ({witnessed: false} otherwise); public reads; the registry's reads (the matrix runs a registry)
  ...both('/integrity/witness-impression').map((path) => `POST ${path}`),
  ...['/integrity/peer-stats', '/integrity/guardrail-hash', '/integrity/expected-hash', '/integrity/trusted-keys', '/integrity/audit-coverage', '/integrity/dashboard', '/integrity/boot-status']
    .flatMap(both)
    .map((path) => `GET ${path}`),
  // §18: update approval, the hierarchy's public reads and the upgrade (trust from the master key's signature in the body)
  ...['/fleet/update-approved', '/hierarchy/regions', '/hierarchy/region/:id/health', '/hierarchy/node/:id/assignment', '/hierarchy/tier-info', '/hierarchy/upgrade-challenge']
    .flatMap(both)
    .map((path) => `GET ${path}`),
  ...both('/hierarchy/verify-upgrade').map((path) => `POST ${path}`),
  // §19 federation and peers: public reads
  ...['/federation/outbox', '/federation/feed', '/federation/following', '/federation/followers', '/peers', '/peers/best-endpoint', '/peers/health'].flatMap((path) => both(path).map((full) => `GET ${full}`)),
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
  // the wallet economy's public reads (social-routes §15)
  ...['/resonance/wallet/:user_id', '/resonance/leaderboard', '/resonance/boosts/:type/:id', '/resonance/breakdown/:user_id'].flatMap((path) =>
    both(path).map((full) => `GET ${full}`),
  ),
  // achievements, seasons and collectibles (social-routes §15): public reads
  ...['/achievements', '/achievements/:user_id', '/seasons/current', '/seasons/:id/leaderboard', '/seasons/:id/achievements', '/collectibles/:user_id'].flatMap((path) =>
    both(path).map((full) => `GET ${full}`),
  ),
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

/** The OpenAI-compatible API: an API key only (its use is metered per key); a login token is 401 there. */
const API_KEY_ONLY = new Set(['GET /v1/models', 'POST /v1/chat/completions']);

/** Node-to-node routes: a node's signature only (modules/integrity/node-signature.guard.ts); a login token is 401 there. */
const NODE_SIGNED = new Set([
  ...[...both('/integrity/challenge'), ...both('/integrity/challenge-response')].map((path) => `POST ${path}`),
  // federation: a node registers signing with the key it registers; approved nodes read the log
  ...both('/federation/nodes/register').map((path) => `POST ${path}`),
  ...both('/federation/log').map((path) => `GET ${path}`),
  // §20: a node registers with the registry signing with the key it registers
  ...both('/integrity/register-node').map((path) => `POST ${path}`),
  // §18: the hierarchy between nodes (a local node registers signing with the key it registers)
  ...['/hierarchy/promote', '/hierarchy/demote', '/hierarchy/register-regional', '/hierarchy/register-local', '/hierarchy/assign-region', '/hierarchy/switch-region', '/hierarchy/report-capacity']
    .flatMap(both)
    .map((path) => `POST ${path}`),
  ...both('/hierarchy/inventory').map((path) => `GET ${path}`),
  // §19: a child's sync batch, a pushed post, a follow notification, peer announcements and exchanges
  ...['/hierarchy/sync', '/federation/inbox', '/federation/follow-notification', '/peers/announce', '/peers/exchange'].flatMap((path) => both(path).map((full) => `POST ${full}`)),
]);

const keyOf = (route: RouteInfo) => `${route.method} ${route.url}`;
/** The URL with each `:param` from `params`, `x` where none is given. */
const concrete = (url: string, params: Record<string, string> = {}) => url.replace(/:([A-Za-z_]+)/g, (_, name: string) => params[name] ?? 'x');
/** The document's form of a registered URL: /goals/{id}. */
const documentPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
const REFUSED = new Set([401, 403]);

/** A record the route is aimed at: its path parameters, its owner's token, and the values a body names (`$member`). */
interface Target {
  params: Record<string, string>;
  ownerToken: string;
  values: Record<string, string>;
}

describe('the auth matrix of every route', () => {
  let t: TestApp;
  let routes: RouteInfo[];
  let document: any;
  /** the users of the columns, created once: a plain owner of the targets, another plain user, a bystander (assignee, member), a community moderator, an operator, an admin */
  const users: Record<'owner' | 'other' | 'bystander' | 'communityModerator' | 'moderator' | 'admin', { id: string; username: string; token: string }> = {} as never;

  beforeAll(async () => {
    t = await startTestApp({ SVC_ADMIN_USERS: ADMIN, INTEGRITY_REGISTRY: '1' });
    routes = t.routes.filter((route) => route.method !== 'HEAD' && route.method !== 'OPTIONS');
    document = (await t.request('GET', '/docs-json')).body;
    users.admin = await signUp(t, { username: ADMIN });
    for (const name of ['owner', 'other', 'bystander', 'communityModerator', 'moderator'] as const) users[name] = await signUp(t, { prefix: `matrix${name.slice(0, 3)}` });
    const promoted = await t.request('PATCH', `/api/social/admin/users/${users.moderator.id}`, { token: users.admin.token, body: { role: 'operator' } });
    expect(promoted.status).toBe(200);
  });
  afterAll(() => t.close());

  /** A token of its own for one request (a logout revokes the token it is sent with). */
  async function freshToken(user: { username: string }): Promise<string> {
    const res = await t.request('POST', '/api/social/login', { body: { username: user.username, password: TEST_PASSWORD } });
    return res.body.data.token;
  }

  const send = async (route: RouteInfo, options: { remoteAddress?: string; token?: string; params?: Record<string, string>; body?: unknown }) => {
    const res = await t.app.inject({
      method: route.method as 'GET',
      url: concrete(route.url, options.params),
      remoteAddress: options.remoteAddress,
      headers: { ...(route.method === 'GET' ? {} : { 'content-type': 'application/json' }), ...(options.token ? { authorization: `Bearer ${options.token}` } : {}) },
      payload: route.method === 'GET' ? undefined : JSON.stringify(options.body ?? {}),
    });
    return res.statusCode;
  };

  /** POSTs as the owner unless told otherwise, and gives the reply's data. */
  async function make(path: string, body: unknown, token = users.owner.token): Promise<any> {
    const res = await t.request('POST', `/api/social${path}`, { token, body });
    if (res.status >= 300) throw new Error(`POST ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.data;
  }

  const agentName = () => `${uniqueLetters()}.${uniqueLetters()}.${uniqueLetters()}`;

  /** A fresh record of the kind, owned by the owner (a `user` target is a fresh user: the routes on it may erase it). */
  async function build(kind: TargetKind): Promise<Target> {
    const own = (params: Record<string, string>, values: Record<string, string> = {}): Target => ({ params, ownerToken: users.owner.token, values });
    switch (kind) {
      case 'user': {
        const user = await signUp(t, { prefix: 'matrixtarget' });
        return { params: { id: user.id, user_id: user.id }, ownerToken: user.token, values: {} };
      }
      case 'post':
        return own({ id: (await make('/posts', { title: 'A post of the matrix', content: 'body' })).id });
      case 'comment': {
        const post = await make('/posts', { title: 'A post of the matrix', content: 'body' });
        return own({ id: (await make(`/posts/${post.id}/comments`, { content: 'a comment' })).id });
      }
      case 'report': {
        const post = await make('/posts', { title: 'A post of the matrix', content: 'body' });
        return own({ id: (await make(`/posts/${post.id}/report`, { reason: 'spam' }, users.bystander.token)).id });
      }
      case 'community':
      case 'community-member':
      case 'community-post': {
        const community = await make('/communities', { name: `matrix_${uniqueLetters()}` });
        await make(`/communities/${community.name}/join`, {}, users.bystander.token);
        await make(`/communities/${community.name}/join`, {}, users.communityModerator.token);
        await make(`/communities/${community.name}/moderators`, { user_id: users.communityModerator.id });
        if (kind !== 'community-post') return own({ name: community.name, userId: users.bystander.id }, { member: users.bystander.id });
        const post = await make('/posts', { title: 'A post in a community', content: 'body', community: community.name }, users.bystander.token);
        return { params: { id: post.id }, ownerToken: users.bystander.token, values: {} };
      }
      case 'task':
      case 'assigned-task': {
        const post = await make('/posts', { title: 'A task of the matrix', content: 'body' });
        const task = await make('/tasks', { post_id: post.id, task_description: 'do it' });
        if (kind === 'assigned-task') await make(`/tasks/${task.id}/assign`, { assignee_id: users.bystander.id });
        return own({ id: task.id }, { member: users.bystander.id });
      }
      case 'api-key': {
        const res = await t.request('POST', '/api/v1/intelligence/keys', { token: users.owner.token, body: { name: 'matrix', tier: 'free' } });
        return own({ id: res.body.data.id });
      }
      case 'missed-connection':
      case 'missed-response': {
        const poster = await signUp(t, { prefix: 'matrixposter' });
        const wasAt = new Date(Date.now() - 3_600_000).toISOString();
        const body = { lat: 52.52, lon: 13.405, location_name: 'The corner café', description: 'You had a red umbrella', was_at: wasAt };
        const missed = await make('/encounters/missed-connections', body, poster.token);
        const params: Record<string, string> = { id: missed.id };
        if (kind === 'missed-response') params.response_id = (await make(`/encounters/missed-connections/${missed.id}/respond`, { message: 'It was me' }, users.bystander.token)).id;
        return { params, ownerToken: poster.token, values: {} };
      }
      case 'schedule': {
        const body = { user_id: users.owner.id, prompt_id: 'matrix', prompt: 'remind me', schedule_time: new Date(Date.now() + 3_600_000).toISOString() };
        const res = await t.request('POST', '/time_agent', { token: users.owner.token, body });
        return own({ schedule_id: res.body.data.schedule_id });
      }
      case 'ad': {
        // no route grants spark at will: the owner's wallet is credited on its stream
        const command = { kind: 'reward' as const, userId: users.owner.id, action: 'matrix', amounts: { spark: 50 }, sourceType: 'matrix', sourceId: uniqueName('ad') };
        await t.app.get(CommandExecutor).execute(walletDecider, walletStreamId(users.owner.id), command, { actor: 'matrix', correlationId: 'matrix' });
        return own({ id: (await make('/ads', { title: 'An ad of the matrix', click_url: 'https://example.org', budget_spark: 50 })).id });
      }
      case 'agent':
      case 'agent-pair': {
        const agent = await make(`/users/${users.owner.id}/agents`, { name: agentName() });
        const values: Record<string, string> = { agent: agent.id };
        if (kind === 'agent-pair') values.otherAgent = (await make(`/users/${users.owner.id}/agents`, { name: agentName() })).id;
        return own({ id: agent.id }, values);
      }
    }
  }

  /** The entry's body with `$handle`, `$agentName` and the target's values filled in. */
  function bodyFor(entry: ProtectedRoute, target: Target): unknown {
    const fill = (value: unknown) => {
      if (value === '$handle') return uniqueLetters();
      if (value === '$agentName') return agentName();
      if (typeof value === 'string' && value.startsWith('$')) return target.values[value.slice(1)];
      return value;
    };
    return Object.fromEntries(Object.entries(entry.body ?? {}).map(([key, value]) => [key, fill(value)]));
  }

  const tokenOf = (column: Column, target?: Target): string => {
    if (column === 'owner') return target!.ownerToken;
    return { 'other user': users.other, moderator: users.moderator, admin: users.admin, 'community moderator': users.communityModerator, assignee: users.bystander }[column].token;
  };

  it('given the tables, then they name every route the app registers once, and only routes it registers', () => {
    const tables = { OPEN, OPTIONAL, PIPELINE, API_KEY_ONLY, NODE_SIGNED, PROTECTED: new Set(PROTECTED.keys()) };
    const registered = new Set(routes.map(keyOf));
    const unnamed = [...registered].filter((key) => Object.values(tables).every((table) => !table.has(key)));
    const twice = [...registered].filter((key) => Object.values(tables).filter((table) => table.has(key)).length > 1);
    const stale = Object.entries(tables).flatMap(([name, table]) => [...table].filter((key) => !registered.has(key)).map((key) => `${name}: ${key}`));
    const aimedOutsidePipeline = [...PIPELINE_AIMED.keys()].filter((key) => !PIPELINE.has(key));
    expect({ unnamed, twice, stale, aimedOutsidePipeline }).toEqual({ unnamed: [], twice: [], stale: [], aimedOutsidePipeline: [] });
  });

  it('given the OpenAPI document, then every operation that needs a credential is in the protected table with the roles it declares', () => {
    const wrong: string[] = [];
    const byPath = new Map([...PROTECTED].map(([key, entry]) => [`${key.split(' ')[0]} ${documentPath(key.split(' ')[1])}`, entry]));
    const credentialOnly = new Set([...API_KEY_ONLY, ...NODE_SIGNED].map((key) => `${key.split(' ')[0]} ${documentPath(key.split(' ')[1])}`));
    let protectedOperations = 0;
    for (const [path, item] of Object.entries<Record<string, any>>(document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        if (!operation?.responses || !Array.isArray(operation.security)) continue;
        const key = `${method.toUpperCase()} ${path}`;
        const needsCredential = operation.security.length > 0 && operation.security.every((requirement: object) => Object.keys(requirement).length > 0);
        const entry = byPath.get(key);
        if (!needsCredential) {
          if (entry) wrong.push(`${key}: in the protected table, but the document lets a caller in without a credential`);
          continue;
        }
        protectedOperations += 1;
        if (credentialOnly.has(key)) continue;
        if (!entry) wrong.push(`${key}: needs a credential and is missing from the protected table`);
        else if ([...(operation['x-roles'] ?? [])].sort().join() !== declaredRoles(entry.level).join()) {
          wrong.push(`${key}: the document declares roles [${operation['x-roles'] ?? ''}], the table says ${entry.level}`);
        }
      }
    }
    expect(protectedOperations).toBeGreaterThan(150);
    expect(wrong).toEqual([]);
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

  /** A well-formed JWT for a real user, signed with a secret other than the node's: a forgery. */
  const forgedToken = (sub: string) => {
    const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const unsigned = `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ sub, jti: 'forged', iat: Math.floor(Date.now() / 1000), exp: Math.floor(Date.now() / 1000) + 3600 })}`;
    return `${unsigned}.${createHmac('sha256', 'not-the-node-secret').update(unsigned).digest('base64url')}`;
  };

  it.each([
    ['a garbage token', () => 'garbage'],
    ['a JWT for the admin signed with another secret', () => forgedToken(users.admin.id)],
  ])('given %s, then every route that is not open answers 401, and the optional ones read it as anonymous', async (_, token) => {
    const wrong: string[] = [];
    for (const route of routes.filter((r) => !OPEN.has(keyOf(r)))) {
      const status = await send(route, { remoteAddress: REMOTE, token: token() });
      if (OPTIONAL.has(keyOf(route)) === (status === 401)) wrong.push(`${keyOf(route)} → ${status}`);
    }
    expect(wrong).toEqual([]);
  });

  it('given a bad token on a body-id route of a flat node, then 401: a credential that is sent must be valid', async () => {
    const bodyId = new Set(BODY_ID_ROUTES.flatMap(socialKeys));
    const wrong: string[] = [];
    const checked = routes.filter((r) => bodyId.has(keyOf(r)));
    for (const route of checked) {
      const status = await send(route, { remoteAddress: REMOTE, token: 'garbage' });
      if (status !== 401) wrong.push(`${keyOf(route)} → ${status}`);
    }
    expect(checked).toHaveLength(bodyId.size);
    expect(wrong).toEqual([]);
  });

  describe.each<Column>(['other user', 'moderator', 'admin'])('given a login token of %s, on the routes without a target', (column) => {
    it('then the routes of its level let it past authorisation, the others answer 403, and the API-key-only and node-signed routes 401', async () => {
      const user = column === 'other user' ? users.other : column === 'moderator' ? users.moderator : users.admin;
      const wrong: string[] = [];
      // a stream route would hold the connection open: its authentication is covered above
      for (const route of routes.filter((r) => !r.url.endsWith('/stream') && !PROTECTED.get(keyOf(r))?.target)) {
        const entry = PROTECTED.get(keyOf(route));
        // each logout revokes its token: give it one of its own
        const token = route.url.endsWith('/logout') ? await freshToken(user) : tokenOf(column);
        const status = await send(route, { remoteAddress: REMOTE, token });
        const expected = API_KEY_ONLY.has(keyOf(route)) || NODE_SIGNED.has(keyOf(route)) ? 401 : entry ? expectedFor(entry.level, column) : 'allowed';
        if (expected === 'allowed' ? REFUSED.has(status) : status !== expected) wrong.push(`${keyOf(route)} → ${status}, not ${expected}`);
      }
      expect(wrong).toEqual([]);
    });
  });

  it('given a route aimed at a record, when its owner, another user, a moderator, an admin (in a community its moderator, on a task its assignee) call it, then each gets what the route’s level says', async () => {
    const wrong: string[] = [];
    const aimedEntry = (route: RouteInfo) => PIPELINE_AIMED.get(keyOf(route)) ?? PROTECTED.get(keyOf(route));
    const aimed = routes.filter((route) => aimedEntry(route)?.target);
    for (const route of aimed) {
      const entry = aimedEntry(route)!;
      const columns: Column[] = ['other user', 'moderator', 'owner', 'admin'];
      if (COMMUNITY_TARGETS.includes(entry.target!)) columns.push('community moderator');
      if (entry.target === 'assigned-task') columns.push('assignee');
      for (const column of columns) {
        const target = await build(entry.target!);
        const status = await send(route, { remoteAddress: REMOTE, token: tokenOf(column, target), params: target.params, body: bodyFor(entry, target) });
        const expected = expectedFor(entry.level, column);
        const right = expected !== 'allowed' ? status === expected : entry.allowed !== undefined ? status === entry.allowed : status >= 200 && status < 300;
        if (!right) wrong.push(`${keyOf(route)} as ${column} → ${status}, not ${expected === 'allowed' ? (entry.allowed ?? '2xx') : expected}`);
      }
    }
    expect(aimed.length).toBeGreaterThan(40);
    expect(wrong).toEqual([]);
  });
});
