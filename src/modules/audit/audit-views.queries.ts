/**
 * The audit views (social-routes §20, GET /audit/agents…, /audit/daemon…,
 * /audit/compute…): what agents, goals and compute did, read from the read
 * models that already hold it (agent profiles, tasks, skill badges, posts,
 * comments, goals, API key usage, compute settings, peer gossip, the fleet).
 * A caller who is neither an operator nor an admin (the original's "flat"
 * user) sees only their own: their agents, their goals, their API keys, and
 * no nodes (users own none here).
 */
import { Inject, Injectable } from '@nestjs/common';
import { DomainError } from '../../aggregates/shared/domain-error';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import { Clock } from '../../infrastructure/clock';
import { READ_STORE, type ReadStore } from '../../infrastructure/read-store/read-store.port';
import { AGENT_PROFILES, type AgentProfileDoc } from '../../projections/agents/agent-profiles.projection';
import { SKILL_BADGES, type SkillBadgeDoc } from '../../projections/agents/skill-badges.projection';
import { TASKS, type TaskDoc } from '../../projections/agents/tasks.projection';
import { API_KEY_USAGE, type ApiKeyUsageDoc } from '../../projections/compute/api-key-usage.projection';
import { COMPUTE_SETTINGS, type ComputeSettingsDoc } from '../../projections/compute/compute-settings.projection';
import { PEER_NODES, type PeerNodeDoc } from '../../projections/compute/peer-nodes.read-model';
import { COMMENTS, type CommentDoc } from '../../projections/content/comments.projection';
import { type PostDoc, POSTS } from '../../projections/content/posts.projection';
import { FLEET_NODES, type FleetNodeDoc } from '../../projections/fleet/fleet-nodes.projection';
import { GOALS, type GoalDoc } from '../../projections/goals/goals.projection';
import type { AuthUser } from '../accounts/auth/auth-user';
import { escapeHtml } from '../common/html-escape';

export const AGENT_TYPES = ['local', 'cloud', 'daemon', 'all'] as const;
export type AgentType = (typeof AGENT_TYPES)[number];
/** hosted on this node (generic agents) vs. bots of outside platforms; no daemon agents run here */
const CLOUD_PLATFORMS = ['a2a', 'communitybook', 'openclaw', 'langchain'];

export const privileged = (user: AuthUser): boolean => user.role === 'admin' || user.role === 'operator';

export interface AuditAgent {
  id: string;
  name: string;
  owner_id: string | null;
  type: 'local' | 'cloud';
  platform: string;
  description: string;
  xp: number;
  generation: number;
  specialization: string | null;
  created_at: string;
}

export interface TimelineEntry {
  type: string;
  timestamp: string;
  content: string;
  metadata: Record<string, unknown>;
  source: 'memory' | 'ledger' | 'goals';
}

const ACTIVE_GOALS = ['accepted', 'running'];
const newestFirst = <T extends { timestamp: string }>(a: T, b: T) => (a.timestamp < b.timestamp ? 1 : a.timestamp > b.timestamp ? -1 : 0);

@Injectable()
export class AuditViewsQueries {
  constructor(
    @Inject(READ_STORE) private readonly readStore: ReadStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  private col<T extends { _id: string }>(name: string) {
    return this.readStore.collection<T>(name);
  }

  async agents(user: AuthUser, type: AgentType): Promise<AuditAgent[]> {
    if (type === 'daemon') return [];
    const filter: Record<string, unknown> = privileged(user) ? {} : { owner_id: user.id };
    if (type === 'local') filter.platform = { $nin: CLOUD_PLATFORMS };
    if (type === 'cloud') filter.platform = { $in: CLOUD_PLATFORMS };
    const docs = await this.col<AgentProfileDoc>(AGENT_PROFILES).find(filter, { sort: { created_at: -1, _id: 1 }, limit: 500 });
    return docs.map((d) => ({
      id: d._id,
      name: escapeHtml(d.username),
      owner_id: d.owner_id,
      type: CLOUD_PLATFORMS.includes(d.platform) ? 'cloud' : 'local',
      platform: d.platform,
      description: escapeHtml(d.description),
      xp: d.xp,
      generation: d.generation,
      specialization: d.specialization,
      created_at: d.created_at,
    }));
  }

  /** The agent when the caller may audit it (its owner, the agent itself, an operator or admin); 404 otherwise. */
  private async agentFor(user: AuthUser, agentId: string): Promise<AgentProfileDoc> {
    const agent = await this.col<AgentProfileDoc>(AGENT_PROFILES).findOne({ _id: agentId });
    if (!agent || !(privileged(user) || agent.owner_id === user.id || agent._id === user.id)) throw new DomainError('not_found', 'Agent not found');
    return agent;
  }

  /** Its evolution (memory) and its tasks and badges (ledger), newest first. */
  async timeline(user: AuthUser, agentId: string, limit: number): Promise<TimelineEntry[]> {
    const agent = await this.agentFor(user, agentId);
    const [tasks, badges] = await Promise.all([
      this.col<TaskDoc>(TASKS).find({ assignee_id: agentId }, { sort: { created_at: -1 }, limit }),
      this.col<SkillBadgeDoc>(SKILL_BADGES).find({ user_id: agentId }, { sort: { awarded_at: -1 }, limit }),
    ]);
    const entries: TimelineEntry[] = [
      ...(agent.xp_history ?? []).map((x): TimelineEntry => ({
        type: 'evolution',
        timestamp: x.at,
        content: escapeHtml(x.reason),
        metadata: { source: x.source, xp: x.xp, total_xp: x.total_xp, generation: x.generation },
        source: 'memory',
      })),
      ...tasks.map((t): TimelineEntry => ({
        type: `task_${t.status}`,
        timestamp: t.completed_at ?? t.created_at,
        content: escapeHtml(t.task_description),
        metadata: { task_id: t._id, ledger_key: t.ledger_key, requester_id: t.requester_id },
        source: 'ledger',
      })),
      ...badges.map((b): TimelineEntry => ({ type: 'skill_badge', timestamp: b.awarded_at, content: escapeHtml(b.skill_name), metadata: { badge_id: b._id }, source: 'ledger' })),
    ];
    return entries.sort(newestFirst).slice(0, limit);
  }

  /** What the agent wrote (posts and comments), newest first. */
  async conversations(user: AuthUser, agentId: string): Promise<{ id: string; role: 'agent'; content: string; timestamp: string }[]> {
    await this.agentFor(user, agentId);
    const [posts, comments] = await Promise.all([
      this.col<PostDoc>(POSTS).find({ author_id: agentId, is_deleted: false }, { sort: { created_at: -1 }, limit: 100 }),
      this.col<CommentDoc>(COMMENTS).find({ author_id: agentId, is_deleted: false }, { sort: { created_at: -1 }, limit: 100 }),
    ]);
    return [
      ...posts.map((p) => ({ id: p._id, role: 'agent' as const, content: escapeHtml(p.title ? `${p.title}\n\n${p.content}` : p.content), timestamp: p.created_at })),
      ...comments.map((c) => ({ id: c._id, role: 'agent' as const, content: escapeHtml(c.content), timestamp: c.created_at })),
    ]
      .sort(newestFirst)
      .slice(0, 100);
  }

  /** Its reasoning as recorded: its specialisation and its task results, newest first. */
  async thinking(user: AuthUser, agentId: string): Promise<{ type: string; content: string; timestamp: string; metadata: Record<string, unknown> }[]> {
    const agent = await this.agentFor(user, agentId);
    const results = await this.col<TaskDoc>(TASKS).find({ assignee_id: agentId, result: { $ne: null } }, { sort: { completed_at: -1 }, limit: 100 });
    const entries: { type: string; content: string; timestamp: string; metadata: Record<string, unknown> }[] = results.map((t) => ({ type: 'task_result', content: escapeHtml(t.result ?? ''), timestamp: t.completed_at ?? t.created_at, metadata: { task_id: t._id, status: t.status } }));
    if (agent.specialization && agent.specialized_at) {
      entries.push({ type: 'specialization', content: escapeHtml(agent.specialization), timestamp: agent.specialized_at, metadata: { spec_tier: agent.spec_tier, specialization_tree: agent.specialization_tree } });
    }
    return entries.sort(newestFirst);
  }

  /** Goals of the last 24 h and the tasks of the ledger in that time, newest first. */
  async daemonActivity(user: AuthUser, limit: number): Promise<TimelineEntry[]> {
    const since = new Date(this.clock.now().getTime() - 24 * 60 * 60 * 1000).toISOString();
    const mine = privileged(user) ? {} : { user_id: user.id };
    const [goals, tasks] = await Promise.all([
      this.col<GoalDoc>(GOALS).find({ ...mine, created_at: { $gte: since } }, { sort: { created_at: -1 }, limit }),
      this.col<TaskDoc>(TASKS).find({ ...(privileged(user) ? {} : { requester_id: user.id }), created_at: { $gte: since } }, { sort: { created_at: -1 }, limit }),
    ]);
    return [
      ...goals.map((g): TimelineEntry => ({ type: `goal_${g.status}`, timestamp: g.updated_at, content: escapeHtml(g.goal), metadata: { goal_id: g.goal_id, progress: progress(g) }, source: 'goals' })),
      ...tasks.map((t): TimelineEntry => ({ type: `task_${t.status}`, timestamp: t.completed_at ?? t.created_at, content: escapeHtml(t.task_description), metadata: { task_id: t._id }, source: 'ledger' })),
    ]
      .sort(newestFirst)
      .slice(0, limit);
  }

  async daemonGoals(user: AuthUser, status: 'active' | 'all') {
    const filter: Record<string, unknown> = privileged(user) ? {} : { user_id: user.id };
    if (status === 'active') filter.status = { $in: ACTIVE_GOALS };
    const goals = await this.col<GoalDoc>(GOALS).find(filter, { sort: { created_at: -1, _id: 1 }, limit: 50 });
    return goals.map((g) => ({
      goal_id: g.goal_id,
      user_id: g.user_id,
      goal: escapeHtml(g.goal),
      status: g.status,
      origin_node: g.origin_node,
      created_at: g.created_at,
      updated_at: g.updated_at,
      completed_at: g.completed_at,
      failure_reason: g.failure_reason,
      progress: progress(g),
    }));
  }

  /** The compute hosts this node knows (its own settings, gossiping peers, the fleet); none for a user who is not an operator or admin. */
  async computeNodes(user: AuthUser) {
    if (!privileged(user)) return [];
    const [settings, peers, fleet] = await Promise.all([
      this.col<ComputeSettingsDoc>(COMPUTE_SETTINGS).find({}, { sort: { _id: 1 }, limit: 1000 }),
      this.col<PeerNodeDoc>(PEER_NODES).find({}, { sort: { _id: 1 }, limit: 1000 }),
      this.col<FleetNodeDoc>(FLEET_NODES).find({}, { sort: { _id: 1 }, limit: 1000 }),
    ]);
    const hosts = new Map<string, { node_id: string; tier: string | null; is_local: boolean; joined_as_provider: boolean; last_seen: string | null; compute_info: Record<string, unknown>; sources: string[] }>();
    const host = (id: string) => {
      let h = hosts.get(id);
      if (!h) hosts.set(id, (h = { node_id: id, tier: null, is_local: id === this.config.nodeId, joined_as_provider: false, last_seen: null, compute_info: {}, sources: [] }));
      return h;
    };
    for (const s of settings) Object.assign(host(s._id), { tier: s.node_tier ?? null, joined_as_provider: s.joined === true, last_seen: s.updated_at ?? null }).sources.push('compute_settings');
    for (const p of peers) {
      const h = host(p._id);
      Object.assign(h, { tier: h.tier ?? p.node_tier ?? null, joined_as_provider: h.joined_as_provider || p.joined === true, last_seen: p.last_seen_at ?? h.last_seen });
      h.sources.push('peer_gossip');
    }
    for (const f of fleet) {
      const h = host(f._id);
      Object.assign(h, { tier: f.tier, compute_info: f.compute_info, last_seen: f.last_seen_at });
      h.sources.push('fleet');
    }
    return [...hosts.values()];
  }

  /** API key usage of the last `days` days, by key; only the caller's keys unless an operator or admin. */
  async computeUsage(user: AuthUser, days: number) {
    const since = new Date(this.clock.now().getTime() - (days - 1) * 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
    const filter: Record<string, unknown> = { day: { $gte: since } };
    if (!privileged(user)) filter.user_id = user.id;
    const docs = await this.col<ApiKeyUsageDoc>(API_KEY_USAGE).find(filter, { sort: { day: 1, _id: 1 }, limit: 100_000 });
    const byKey = new Map<string, { api_key_id: string; user_id: string; request_count: number; total_tokens_in: number; total_tokens_out: number; total_compute_ms: number; total_cost: number }>();
    for (const d of docs) {
      const row = byKey.get(d.key_id) ?? { api_key_id: d.key_id, user_id: d.user_id, request_count: 0, total_tokens_in: 0, total_tokens_out: 0, total_compute_ms: 0, total_cost: 0 };
      row.request_count += d.request_count;
      row.total_tokens_in += d.tokens_in;
      row.total_tokens_out += d.tokens_out;
      row.total_cost = Math.round((row.total_cost * 100 + d.amount_cents)) / 100;
      byKey.set(d.key_id, row);
    }
    return [...byKey.values()].sort((a, b) => b.request_count - a.request_count || a.api_key_id.localeCompare(b.api_key_id));
  }

  async computeRouting(user: AuthUser) {
    const llm = this.config.llm;
    const [peers, fleet] = await Promise.all([this.col(PEER_NODES).countDocuments({}), this.col(FLEET_NODES).countDocuments({})]);
    const reasons: string[] = [`node tier ${this.config.nodeTier}`];
    if (llm.provider === 'offline') reasons.push('no LLM server configured: the offline engine answers on this node');
    else reasons.push(`chat goes to the OpenAI-compatible server configured in LLM_BASE_URL (model ${llm.model})`);
    if (this.config.federation.upstreamUrl) reasons.push('writes go to the central node this regional node replays');
    return {
      node_tier: this.config.nodeTier,
      llm_backend: llm.provider,
      ...(llm.provider === 'openai' && privileged(user) ? { llm_url: llm.baseUrl } : {}),
      local_llm_available: llm.provider === 'offline' || /^https?:\/\/(127\.|localhost|\[::1\])/.test(llm.baseUrl),
      routing_reasons: reasons,
      connected_nodes: peers + fleet,
    };
  }
}

function progress(goal: GoalDoc): { completed: number; total: number; percent: number } {
  const total = goal.subtask_ids.length;
  const completed = goal.subtask_ids.filter((id) => goal.subtasks[id]?.status === 'completed').length;
  return { completed, total, percent: total === 0 ? (goal.status === 'completed' ? 100 : 0) : Math.round((completed / total) * 100) };
}
