/**
 * Reads of the agents context's admin routes (social-routes §12): revenue
 * analytics from the revenue and spend read models that exist (revenue_daily:
 * API, ad and hosting cents per day; chat_spend: chat cost per user and day),
 * agent ownership from users, growth counters, and the A2A registry that
 * /admin/sync-agents imports.
 */
import { Inject, Injectable } from '@nestjs/common';
import { READ_STORE, type ReadStore } from '../../infrastructure/read-store/read-store.port';
import { USERS, type UserDoc } from '../../projections/accounts/users.projection';
import { A2A_AGENTS, type A2aAgentDoc } from '../../projections/a2a/a2a-agents.projection';
import { CHAT_SPEND, type ChatSpendDoc } from '../../projections/chat/chat-spend.projection';
import { REVENUE_DAILY, type RevenueDailyDoc } from '../../projections/compute/revenue.projection';
import { CONTEST_WALLETS } from '../../projections/contest/contest-leaderboard.projection';
import { escapeHtml } from '../common/html-escape';
import type { ExternalAgent } from './agents.commands';

const PER_USER_MAX = 100;
const OWNERSHIP_MAX = 20;
const MICRO = 1_000_000;

export interface RevenueAnalytics {
  overview: {
    total_revenue_cents: number;
    api_revenue_cents: number;
    ad_revenue_cents: number;
    hosting_rewards_total_cents: number;
    api_calls: number;
    api_tokens: number;
    compute_cost_usd: number;
    chat_responses: number;
    active_agents: number;
  };
  time_series: {
    revenue_daily: { day: string; api_cents: number; ad_cents: number; hosting_payout_cents: number }[];
    compute_daily: { day: string; cost: number; tokens: number; requests: number }[];
  };
  per_user: { user_id: string; username: string; cost_usd: number; responses: number }[];
  ownership: { owner_id: string; username: string; agents: number }[];
}

const usd = (micro: number): number => Math.round(micro) / MICRO;

@Injectable()
export class AgentsAdminQueries {
  constructor(@Inject(READ_STORE) private readonly store: ReadStore) {}

  /** All-time totals; daily series and per-user spend over the `days` up to `today` (UTC). */
  async revenueAnalytics(days: number, today: Date): Promise<RevenueAnalytics> {
    const since = new Date(today.getTime() - (days - 1) * 86_400_000).toISOString().slice(0, 10);
    const [revenue, spend, agents] = await Promise.all([
      this.store.collection<RevenueDailyDoc>(REVENUE_DAILY).find({}, { sort: { day: 1 } }),
      this.store.collection<ChatSpendDoc>(CHAT_SPEND).find({}),
      this.store.collection<UserDoc>(USERS).find({ user_type: 'agent', is_banned: false }),
    ]);
    const sum = <T>(items: T[], of: (item: T) => number | undefined): number => items.reduce((total, item) => total + (of(item) ?? 0), 0);
    const recentSpend = spend.filter((doc) => doc.day >= since);
    const computeByDay = new Map<string, { cost: number; tokens: number; requests: number }>();
    for (const doc of recentSpend) {
      const day = computeByDay.get(doc.day) ?? { cost: 0, tokens: 0, requests: 0 };
      computeByDay.set(doc.day, { ...day, cost: day.cost + doc.cost_micro_usd, requests: day.requests + doc.responses });
    }
    for (const doc of revenue.filter((d) => d.day >= since)) {
      const day = computeByDay.get(doc.day) ?? { cost: 0, tokens: 0, requests: 0 };
      computeByDay.set(doc.day, { ...day, tokens: day.tokens + (doc.api_tokens ?? 0), requests: day.requests + (doc.api_calls ?? 0) });
    }
    const api = sum(revenue, (d) => d.api_cents);
    const ads = sum(revenue, (d) => d.ad_cents);
    return {
      overview: {
        total_revenue_cents: api + ads,
        api_revenue_cents: api,
        ad_revenue_cents: ads,
        hosting_rewards_total_cents: sum(revenue, (d) => d.hosting_payout_cents),
        api_calls: sum(revenue, (d) => d.api_calls),
        api_tokens: sum(revenue, (d) => d.api_tokens),
        compute_cost_usd: usd(sum(spend, (d) => d.cost_micro_usd)),
        chat_responses: sum(spend, (d) => d.responses),
        active_agents: agents.length,
      },
      time_series: {
        revenue_daily: revenue
          .filter((d) => d.day >= since)
          .map((d) => ({ day: d.day, api_cents: d.api_cents ?? 0, ad_cents: d.ad_cents ?? 0, hosting_payout_cents: d.hosting_payout_cents ?? 0 })),
        compute_daily: [...computeByDay.entries()]
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([day, totals]) => ({ day, cost: usd(totals.cost), tokens: totals.tokens, requests: totals.requests })),
      },
      per_user: await this.perUser(recentSpend),
      ownership: await this.ownership(agents),
    };
  }

  private async perUser(spend: ChatSpendDoc[]): Promise<RevenueAnalytics['per_user']> {
    const byUser = new Map<string, { cost: number; responses: number }>();
    for (const doc of spend) {
      const totals = byUser.get(doc.user_id) ?? { cost: 0, responses: 0 };
      byUser.set(doc.user_id, { cost: totals.cost + doc.cost_micro_usd, responses: totals.responses + doc.responses });
    }
    const users = await this.usersByIds([...byUser.keys()]);
    return [...byUser.entries()]
      .filter(([id]) => users.get(id)?.user_type === 'human')
      .sort(([, a], [, b]) => b.cost - a.cost)
      .slice(0, PER_USER_MAX)
      .map(([id, totals]) => ({ user_id: id, username: escapeHtml(users.get(id)!.username), cost_usd: usd(totals.cost), responses: totals.responses }));
  }

  private async ownership(agents: UserDoc[]): Promise<RevenueAnalytics['ownership']> {
    const counts = new Map<string, number>();
    for (const agent of agents) if (agent.owner_id) counts.set(agent.owner_id, (counts.get(agent.owner_id) ?? 0) + 1);
    const top = [...counts.entries()].sort(([, a], [, b]) => b - a).slice(0, OWNERSHIP_MAX);
    const owners = await this.usersByIds(top.map(([id]) => id));
    return top.map(([id, n]) => ({ owner_id: id, username: escapeHtml(owners.get(id)?.username ?? ''), agents: n }));
  }

  private async usersByIds(ids: string[]): Promise<Map<string, UserDoc>> {
    if (ids.length === 0) return new Map();
    const docs = await this.store.collection<UserDoc>(USERS).find({ _id: { $in: ids } });
    return new Map(docs.map((doc) => [doc.id, doc]));
  }

  /** §12 /growth/stats. This service has no regions or campaigns yet: their counts are 0. */
  async growth(): Promise<{ total_users: number; total_agents: number; total_wallets: number; total_regions: number; total_campaigns: number }> {
    const users = this.store.collection<UserDoc>(USERS);
    const [total, agents, wallets] = await Promise.all([users.countDocuments({}), users.countDocuments({ user_type: 'agent' }), this.store.collection(CONTEST_WALLETS).countDocuments({})]);
    return { total_users: total, total_agents: agents, total_wallets: wallets, total_regions: 0, total_campaigns: 0 };
  }

  /** The registered agents of the A2A registry, as agents to import (owned by the recipe's owner). */
  async a2aRegistry(): Promise<ExternalAgent[]> {
    const docs = await this.store.collection<A2aAgentDoc>(A2A_AGENTS).find({ registered: true }, { sort: { registered_at: 1 } });
    return docs.map((doc) => ({
      platform: 'a2a',
      externalId: doc.agent_id,
      name: doc.name,
      description: doc.description,
      skills: doc.skills.map((skill) => skill.name).slice(0, 20),
      ownerId: doc.owner_id,
    }));
  }
}
