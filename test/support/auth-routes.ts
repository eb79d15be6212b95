/**
 * The auth matrix's table of protected routes (test/e2e/auth-matrix.e2e.spec.ts,
 * docs/security.md "Authorisation"): every route that needs a credential, with
 * who may use it (its level) and, where the answer depends on whose record it
 * is, how to build a record to aim at (its target).
 *
 * Levels, as social-routes §0.2 names them (the original's `regional` is this
 * service's `operator`, `central` is `admin`):
 * - `user`: any signed-in user;
 * - `moderator`: role operator or admin, declared with @Authenticated('operator', 'admin');
 * - `admin`: role admin, declared with @Authenticated('admin');
 * - `owner`: the record's owner (author, requester, the user themself) or an admin; anyone else 403;
 * - `self`: the user themself only, not even an admin (a consent is given by its person);
 * - `post-moderator`: a global moderator (lock), checked in the handler on the post: its author is refused;
 * - `post-or-community-moderator`: a global moderator, or an admin or moderator of the post's community (pin);
 * - `community-moderator`: the community's admin or moderator, or a global admin (a global operator is refused);
 * - `community-admin`: the community's admin, or a global admin (not its moderators).
 * - `task-party`: the task's requester (its owner), its assignee, or an admin;
 * - `owner-hidden`: the owner or an admin; to anyone else the record does not exist (404);
 * - `poster`: the owner only; anyone else, an admin too, 400 `Not your missed connection` (social-routes §13 says 400);
 * - `private`: the owner only; to anyone else, an admin too, the record does not exist (404).
 *
 * The targets in a community have a community moderator: a member the
 * community's admin (the owner) promoted, a column of its own.
 */

/** The records a target builder can make, owned by the matrix's owner. */
export type TargetKind = 'user' | 'post' | 'comment' | 'report' | CommunityTargetKind | 'task' | 'assigned-task' | 'agent' | 'agent-pair' | 'api-key' | 'schedule' | 'missed-connection' | 'missed-response' | 'ad';
/** A community the owner created (its admin), with a member and a moderator; or a post in one, by the member. */
export type CommunityTargetKind = 'community' | 'community-member' | 'community-post';
export const COMMUNITY_TARGETS: readonly TargetKind[] = ['community', 'community-member', 'community-post'];

export type Level = 'user' | 'moderator' | 'admin' | 'owner' | 'self' | 'post-moderator' | 'post-or-community-moderator' | 'community-moderator' | 'community-admin' | 'task-party' | 'owner-hidden' | 'poster' | 'private';

export interface ProtectedRoute {
  /** `METHOD /path` as registered (`:param`s); social paths without their prefix, served under /api/social and /social */
  route: string;
  level: Level;
  /** the record the route is aimed at (path parameters from it); without one, `x` stands for each parameter */
  target?: TargetKind;
  /** the body an allowed caller sends */
  body?: Record<string, unknown>;
  /** the status an allowed caller gets, when it is not a 2xx (a rule checked after authorisation) */
  allowed?: number;
}

/** `METHOD /path` of a social route under both its prefixes. */
export const socialKeys = (route: string): string[] => {
  const [method, path] = route.split(' ');
  return [`${method} /api/social${path}`, `${method} /social${path}`];
};

const users = (level: Level, ...routes: string[]): ProtectedRoute[] => routes.map((route) => ({ route, level }));

/** The social platform's protected routes (social-routes §1–§16, §19, §20). */
export const SOCIAL_PROTECTED: ProtectedRoute[] = [
  // §1 auth
  ...users('user', 'POST /auth/logout', 'GET /auth/me', 'POST /auth/api-token', 'DELETE /auth/api-token'),
  { route: 'GET /auth/verify-user', level: 'moderator' },
  // §2 users: the owner or an admin; the consent only its person
  { route: 'PATCH /users/:id', level: 'owner', target: 'user', body: { display_name: 'Renamed' } },
  { route: 'PATCH /users/:id/handle', level: 'owner', target: 'user', body: { handle: '$handle' } },
  { route: 'GET /users/:id/data/export', level: 'owner', target: 'user' },
  { route: 'DELETE /users/:id/data', level: 'owner', target: 'user' },
  { route: 'PUT /users/:id/consent/cloud-data', level: 'self', target: 'user', body: { consent: true } },
  { route: 'GET /users/:id/consent/cloud-data', level: 'self', target: 'user' },
  ...users('user', 'POST /users/:id/follow', 'DELETE /users/:id/follow'),
  // §3 agents: created for yourself (or by an admin); specialised and paired by their owner
  { route: 'POST /users/:id/agents', level: 'owner', target: 'user', body: { name: '$agentName' } },
  // the owner passes; a fresh agent is below generation 3 (400), a rule checked after the owner
  { route: 'POST /agents/:id/specialize', level: 'owner', target: 'agent', body: { path: 'analyst' }, allowed: 400 },
  { route: 'POST /agents/:id/collaborate', level: 'owner', target: 'agent-pair', body: { other_agent_id: '$otherAgent' } },
  ...users('user', 'POST /bots/webhook', 'POST /agent/observe', 'POST /agent/dispatch'),
  ...users('admin', 'POST /bots/discover-external', 'POST /admin/sync-agents', 'POST /admin/agents/sync', 'GET /admin/revenue-analytics', 'GET /growth/stats'),
  // §4 posts
  ...users('user', 'POST /posts', 'POST /posts/:id/upvote', 'POST /posts/:id/downvote', 'DELETE /posts/:id/vote', 'POST /posts/:id/report', 'POST /posts/:id/comments'),
  { route: 'PATCH /posts/:id', level: 'owner', target: 'post', body: { title: 'Edited' } },
  { route: 'DELETE /posts/:id', level: 'owner', target: 'post' },
  // the owner of a post in a community is its author, a plain member
  { route: 'POST /posts/:id/pin', level: 'post-or-community-moderator', target: 'community-post' },
  { route: 'POST /posts/:id/lock', level: 'post-moderator', target: 'community-post' },
  // §5 comments
  ...users('user', 'POST /comments/:id/reply', 'POST /comments/:id/upvote', 'POST /comments/:id/downvote', 'DELETE /comments/:id/vote', 'POST /comments/:id/report'),
  { route: 'PATCH /comments/:id', level: 'owner', target: 'comment', body: { content: 'Edited' } },
  { route: 'DELETE /comments/:id', level: 'owner', target: 'comment' },
  // §6 communities: the owner is the creator, its admin
  ...users('user', 'POST /communities', 'POST /communities/:name/join', 'DELETE /communities/:name/join', 'DELETE /communities/:name/leave'),
  { route: 'PATCH /communities/:name', level: 'community-moderator', target: 'community', body: { description: 'Edited' } },
  { route: 'POST /communities/:name/moderators', level: 'community-admin', target: 'community-member', body: { user_id: '$member' } },
  { route: 'DELETE /communities/:name/moderators/:userId', level: 'community-admin', target: 'community-member' },
  // §7 feeds, §9 tasks, §10 recipes, §11 notifications
  ...users('user', 'GET /feed', 'POST /feeds/import', 'POST /tasks', 'POST /recipes/share', 'POST /recipes/:id/fork'),
  // a subscription needs a feed fetched over the network to exist: cancelling another's is 404 (feed-subscriptions.e2e)
  ...users('user', 'POST /feeds/subscribe', 'GET /feeds/subscriptions', 'DELETE /feeds/subscriptions/:id'),
  // §22 the agent marketplace: a listing offers the caller's own agent (or, for an admin, anyone's)
  { route: 'POST /marketplace/listings', level: 'owner', target: 'agent', body: { agent_id: '$agent', title: 'A listing of the matrix' } },
  ...users('user', 'POST /marketplace/listings/:id/hire', 'POST /marketplace/listings/:id/reviews'),
  ...users('user', 'GET /notifications', 'POST /notifications/read', 'POST /notifications/read-all'),
  { route: 'POST /tasks/:id/assign', level: 'owner', target: 'task', body: { assignee_id: '$member' } },
  { route: 'POST /tasks/:id/complete', level: 'task-party', target: 'assigned-task', body: { result: 'done' } },
  // §12 moderation and admin
  { route: 'GET /moderation/reports', level: 'moderator' },
  { route: 'PATCH /moderation/reports/:id', level: 'moderator', target: 'report', body: { status: 'reviewed' } },
  { route: 'GET /admin/moderation/reports', level: 'moderator' },
  { route: 'GET /admin/moderation/reports/:id', level: 'moderator', target: 'report' },
  { route: 'POST /admin/moderation/reports/:id/resolve', level: 'moderator', target: 'report', body: { status: 'resolved' } },
  { route: 'POST /admin/moderation/posts/:id/hide', level: 'moderator', target: 'post' },
  { route: 'DELETE /admin/moderation/posts/:id/hide', level: 'moderator', target: 'post' },
  { route: 'DELETE /admin/moderation/posts/:id', level: 'admin', target: 'post' },
  { route: 'POST /admin/moderation/comments/:id/hide', level: 'moderator', target: 'comment' },
  { route: 'DELETE /admin/moderation/comments/:id', level: 'admin', target: 'comment' },
  ...users('admin', 'POST /moderation/ban/:id', 'DELETE /moderation/ban/:id', 'GET /admin/stats', 'GET /admin/users', 'PATCH /admin/users/:id'),
  ...users('admin', 'POST /admin/users/:id/ban', 'DELETE /admin/users/:id/ban', 'PUT /admin/users/:id/role', 'GET /admin/logs'),
  // §13 encounters
  ...users('user', 'GET /encounter/discoverable', 'POST /encounter/discoverable', 'POST /encounter/icebreaker/approve', 'POST /encounter/icebreaker/decline'),
  ...users('user', 'POST /encounter/icebreaker/draft', 'GET /encounter/map-pins', 'GET /encounter/matches', 'POST /encounter/register-pubkey'),
  ...users('user', 'POST /encounter/sighting', 'GET /encounter/stream', 'POST /encounter/swipe', 'GET /encounter/topics'),
  ...users('user', 'GET /encounters', 'GET /encounters/bonds', 'POST /encounters/location-ping', 'GET /encounters/location-settings'),
  ...users('user', 'PATCH /encounters/location-settings', 'PUT /encounters/location-settings', 'GET /encounters/nearby', 'GET /encounters/nearby-now'),
  ...users('user', 'GET /encounters/proximity-matches', 'POST /encounters/proximity/:match_id/reveal', 'GET /encounters/suggestions'),
  ...users('user', 'POST /encounters/:id/acknowledge', 'GET /encounters/:user_id'),
  // missed connections: a fresh poster per target (3 posts a UTC day); withdrawing and accepting are the poster's
  ...users('user', 'POST /encounters/missed-connections', 'GET /encounters/missed-connections', 'GET /encounters/missed-connections/mine'),
  ...users('user', 'GET /encounters/missed-connections/suggest-locations', 'GET /encounters/missed-connections/:id', 'POST /encounters/missed-connections/:id/respond'),
  { route: 'DELETE /encounters/missed-connections/:id', level: 'poster', target: 'missed-connection' },
  { route: 'POST /encounters/missed-connections/:id/accept/:response_id', level: 'poster', target: 'missed-response' },
  // §15 the resonance wallet: the caller's own wallet, boosts and check-ins
  ...users('user', 'GET /resonance/wallet', 'GET /resonance/transactions', 'POST /resonance/boost', 'GET /resonance/level-info', 'GET /resonance/streak', 'POST /resonance/daily-checkin'),
  // §15 ratings (the given ones are the rater's own), onboarding
  ...users('user', 'POST /ratings', 'GET /onboarding/progress', 'POST /onboarding/complete-step', 'POST /onboarding/dismiss', 'GET /onboarding/suggestion'),
  { route: 'GET /ratings/:user_id/given', level: 'self', target: 'user' },
  // §15 achievements and challenges: the caller's own showcase and progress; admins add challenges (an addition)
  ...users('user', 'POST /achievements/:achievement_id/showcase', 'POST /challenges/:id/progress', 'POST /challenges/:id/claim'),
  { route: 'POST /challenges', level: 'admin', body: { title: 'Admin challenge', ends_at: '2999-01-01T00:00:00Z' } },
  // §14 referrals and share links: the caller's own code, referral and stats
  ...users('user', 'GET /referral/code', 'POST /referral/use', 'GET /referral/stats', 'POST /share/generate-link'),
  // §16 ads: create, list one's own, views and clicks by any user; an ad's analytics and deletion are its advertiser's (or an admin's), 404 to others
  ...users('user', 'POST /ads', 'GET /ads/mine'),
  { route: 'POST /ads/:id/impression', level: 'user', target: 'ad' },
  { route: 'POST /ads/:id/click', level: 'user', target: 'ad' },
  { route: 'GET /ads/:id/analytics', level: 'owner-hidden', target: 'ad' },
  { route: 'DELETE /ads/:id', level: 'owner-hidden', target: 'ad' },
  // §19 devices and encrypted backups: the caller's own (another user's binding or backup does not exist for the caller: 404)
  ...users('user', 'POST /sync/link-device', 'GET /sync/devices', 'DELETE /sync/devices/:binding_id', 'POST /sync/backup', 'GET /sync/backup/metadata', 'POST /sync/restore'),
  // §19 federation, §20 audit and integrity
  ...users('admin', 'GET /federation/nodes', 'POST /federation/nodes/:id/approve'),
  // §19 following and pulling peers, and the sync queue (an addition): admins; the peer URL in the body is refused (400) after the admin check
  { route: 'POST /federation/follow', level: 'admin', body: { peer_node_id: 'matrix-peer', peer_url: 'http://127.0.0.1:9' } },
  { route: 'POST /federation/unfollow', level: 'admin', body: { peer_node_id: 'matrix-peer' } },
  { route: 'POST /federation/pull', level: 'admin', body: { peer_url: 'http://127.0.0.1:9' }, allowed: 400 },
  ...users('admin', 'GET /sync/queue'),
  ...users('admin', 'GET /audit/verify', 'GET /audit/events', 'GET /audit/digest', 'GET /integrity/challenges', 'POST /integrity/challenges', 'POST /integrity/node/:id/ban'),
  // §20 alerts and audits: admins (the original leaves them unguarded); the audit views: any user, who sees only their own
  ...users('admin', 'GET /integrity/alerts', 'PATCH /integrity/alerts/:id', 'POST /integrity/node/:id/audit'),
  ...users('user', 'GET /audit/agents', 'GET /audit/agents/:id/timeline', 'GET /audit/agents/:id/conversations', 'GET /audit/agents/:id/thinking'),
  ...users('user', 'GET /audit/daemon/activity', 'GET /audit/daemon/goals', 'GET /audit/compute/nodes', 'GET /audit/compute/usage', 'GET /audit/compute/routing'),
];

/**
 * The thought-experiment routes (social-routes §17, docs/security.md "Thought
 * experiments"), none of them protected on the matrix's flat node:
 * - BODY_ID_ROUTES act for a user: with a credential (which must be valid:
 *   401 otherwise) its user, without one the body's id, on a flat node only
 *   (a regional or central node answers 401: test/e2e/experiments.e2e.spec.ts);
 * - EXPERIMENT_READS are open to anyone.
 */
export const BODY_ID_ROUTES: readonly string[] = [
  'POST /experiments',
  'GET /experiments/discover',
  'POST /experiments/auto-evolve',
  ...['contribute', 'vote', 'advance', 'evaluate', 'decide', 'pause-evolve', 'resume-evolve'].map((action) => `POST /experiments/:id/${action}`),
];
export const EXPERIMENT_READS: readonly string[] = [
  'GET /experiments',
  'GET /experiments/core-ip',
  'GET /experiments/auto-evolve/status',
  ...['', '/metrics', '/votes', '/timeline'].map((tail) => `GET /experiments/:id${tail}`),
];

/** The node's other protected routes (SPEC §4, §5): full paths. */
export const OTHER_PROTECTED: ProtectedRoute[] = [
  ...users('user', 'GET /api/v1/intelligence/keys', 'POST /api/v1/intelligence/keys'),
  { route: 'DELETE /api/v1/intelligence/keys/:id', level: 'private', target: 'api-key' },
  ...users('user', 'POST /api/hive/contest/join', 'GET /a2a/agents', 'POST /a2a/:agent_id/jsonrpc'),
  // the MCP server: an API key or JWT
  ...users('user', 'POST /mcp', 'GET /mcp', 'DELETE /mcp'),
  // the agent engine: reads for any user, operations for operators and admins (issue 18)
  ...users('user', 'GET /api/system/pressure', 'GET /api/tools/status', 'POST /api/tools/tts/speak', 'GET /api/tools/vram', 'GET /api/tools/lifecycle'),
  ...users('user', 'GET /coding/tools', 'POST /coding/execute', 'GET /coding/benchmarks', 'GET /api/skills/list', 'GET /api/skills/:skill_name'),
  ...['setup', 'start', 'stop', 'unload'].map((action): ProtectedRoute => ({ route: `POST /api/tools/:tool_name/${action}`, level: 'moderator' })),
  ...users('moderator', 'POST /api/tools/lifecycle/:model_name/priority', 'POST /api/tools/lifecycle/:model_name/offload', 'POST /coding/install'),
  ...users('moderator', 'POST /api/skills/ingest', 'POST /api/skills/discover/local', 'POST /api/skills/discover/github', 'DELETE /api/skills/:skill_name'),
  // compute and revenue (SPEC §5.4): operators and admins; recording revenue and settling, admins only
  ...users('moderator', 'GET /api/settings/compute', 'PUT /api/settings/compute', 'GET /api/settings/compute/provider', 'POST /api/settings/compute/provider/served'),
  ...users('moderator', 'POST /api/settings/compute/provider/settlements', 'GET /api/revenue/dashboard', 'POST /api/hive/contest/events', 'GET /a2a/peers'),
  ...users('admin', 'POST /api/settings/compute/provider/settlements/:id/complete', 'POST /api/revenue/records'),
  // social-routes §18 provision records: admins (the original leaves them open)
  ...users('admin', 'POST /api/provision/deploy', 'GET /api/provision/nodes', 'GET /api/provision/nodes/:id', 'DELETE /api/provision/nodes/:id'),
  ...users('admin', 'POST /api/provision/update/:id', 'POST /api/provision/scan', 'POST /api/provision/preflight'),
];

/**
 * The agent pipeline's routes aimed at a record (they are in the spec's
 * PIPELINE table: a credential, or the local guest from loopback).
 */
export const PIPELINE_AIMED: ReadonlyMap<string, ProtectedRoute> = new Map(
  [{ route: 'GET /time_agent/:schedule_id', level: 'owner-hidden', target: 'schedule' } as ProtectedRoute].map((entry) => [entry.route, entry]),
);

/** Every protected route by its registered `METHOD /url`, both prefixes of the social ones. */
export const PROTECTED: ReadonlyMap<string, ProtectedRoute> = new Map([
  ...SOCIAL_PROTECTED.flatMap((entry) => socialKeys(entry.route).map((key): [string, ProtectedRoute] => [key, entry])),
  ...OTHER_PROTECTED.map((entry): [string, ProtectedRoute] => [entry.route, entry]),
]);

/** The roles an OpenAPI operation declares (`x-roles`) for a level; the levels checked in the handler declare none. */
export const declaredRoles = (level: Level): string[] => (level === 'moderator' ? ['admin', 'operator'] : level === 'admin' ? ['admin'] : []);

export type Column = 'owner' | 'other user' | 'moderator' | 'admin' | 'community moderator' | 'assignee';

/**
 * What a caller gets on a route of a level: `allowed` (2xx, or the entry's
 * `allowed` status), or the refusal's status (404: not the caller's). `owner`,
 * `community moderator` and `assignee` only for routes with a target (all plain users).
 */
export function expectedFor(level: Level, column: Column): 'allowed' | 400 | 403 | 404 {
  const allowedTo: Record<Level, Column[]> = {
    user: ['owner', 'other user', 'moderator', 'admin', 'community moderator', 'assignee'],
    moderator: ['moderator', 'admin'],
    admin: ['admin'],
    owner: ['owner', 'admin'],
    self: ['owner'],
    'post-moderator': ['moderator', 'admin'],
    'post-or-community-moderator': ['moderator', 'admin', 'community moderator'],
    'community-moderator': ['owner', 'admin', 'community moderator'],
    'community-admin': ['owner', 'admin'],
    'task-party': ['owner', 'admin', 'assignee'],
    'owner-hidden': ['owner', 'admin'],
    poster: ['owner'],
    private: ['owner'],
  };
  if (allowedTo[level].includes(column)) return 'allowed';
  return level === 'poster' ? 400 : level === 'private' || level === 'owner-hidden' ? 404 : 403;
}
