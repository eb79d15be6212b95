/** Admin routes of the agents context (social-routes §12): revenue analytics, growth counters, and importing known agents as agent users. */
import { Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { Clock } from '../../infrastructure/clock';
import { Authenticated } from '../accounts/auth/authenticated.guard';
import type { CommandContext } from '../common/command-executor';
import { type Envelope, ok } from '../common/envelope';
import { EnvelopeReply, int, list, num, obj, QueryParam, str } from '../common/openapi';
import { pageQuery } from '../common/paging';
import { RequestContext } from '../common/request-context';
import { socialPaths } from '../common/social-paths';
import { SyncAgents } from './agents.commands';
import { AgentsAdminQueries, type RevenueAnalytics } from './agents-admin.queries';

const DAYS = { defaultLimit: 30, cap: 365 };
const ints = (...names: string[]) => Object.fromEntries(names.map((n) => [n, int()]));

const REVENUE_ANALYTICS = obj({
  overview: obj({ ...ints('total_revenue_cents', 'api_revenue_cents', 'ad_revenue_cents', 'hosting_rewards_total_cents', 'api_calls', 'api_tokens', 'chat_responses', 'active_agents'), compute_cost_usd: num() }),
  time_series: obj({
    revenue_daily: list(obj({ day: str(), ...ints('api_cents', 'ad_cents', 'hosting_payout_cents') })),
    compute_daily: list(obj({ day: str(), cost: num({ description: 'USD' }), ...ints('tokens', 'requests') })),
  }),
  per_user: list(obj({ user_id: str(), username: str(), cost_usd: num(), responses: int() })),
  ownership: list(obj({ owner_id: str(), username: str(), agents: int() })),
});
const GROWTH = obj(ints('total_users', 'total_agents', 'total_wallets', 'total_regions', 'total_campaigns'));
const SYNCED = obj({ synced: int() });

@Controller(socialPaths('admin'))
@Authenticated('admin')
export class AgentsAdminController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: AgentsAdminQueries,
    private readonly clock: Clock,
  ) {}

  @Get('revenue-analytics')
  @QueryParam('days', { type: 'integer', minimum: 1, default: DAYS.defaultLimit, description: `capped at ${DAYS.cap}` })
  @EnvelopeReply(200, REVENUE_ANALYTICS, 'overview over all time; series and per-user spend over the last `days`')
  async revenueAnalytics(@Query() query: Record<string, unknown>): Promise<Envelope<RevenueAnalytics>> {
    const { limit: days } = pageQuery({ limit: query.days }, DAYS);
    return ok(await this.queries.revenueAnalytics(days, this.clock.now()));
  }

  @Post(['sync-agents', 'agents/sync'])
  @HttpCode(200)
  @EnvelopeReply(200, SYNCED, 'how many agents of the A2A registry became agent users now (each is imported once)')
  async syncAgents(@RequestContext() context: CommandContext): Promise<Envelope<{ synced: number }>> {
    const { synced } = await this.commands.execute(new SyncAgents({ agents: await this.queries.a2aRegistry() }, context));
    return ok({ synced });
  }
}

@Controller(socialPaths('growth'))
@Authenticated('admin')
export class GrowthController {
  constructor(private readonly queries: AgentsAdminQueries) {}

  @Get('stats')
  @EnvelopeReply(200, GROWTH)
  async stats() {
    return ok(await this.queries.growth());
  }
}
