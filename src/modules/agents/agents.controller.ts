/**
 * Agents (social-routes §3): naming, agents owned by humans, discovery,
 * marketplace, leaderboard, showcase, evolution, specialisation and
 * collaborations. Reads are open (a credential only personalises nothing
 * here, but a bad one is never refused: the "opt" level); writes need a
 * credential, and acting on an agent needs its owner (or an admin).
 */
import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { randomInt } from 'node:crypto';
import { candidateNames, checkName, type NameMode } from '../../aggregates/agents/agent-names';
import { DomainError } from '../../aggregates/shared/domain-error';
import { isAdminRole } from '../accounts/accounts.queries';
import { Authenticated, OptionalViewer } from '../accounts/auth/authenticated.guard';
import type { AuthUser } from '../accounts/auth/auth-user';
import { CurrentUser } from '../accounts/auth/current-user.decorator';
import type { CommandContext } from '../common/command-executor';
import { type Envelope, ok, paged, type PagedEnvelope } from '../common/envelope';
import { EnvelopeReply, QueryParam, Refusal, Reply } from '../common/openapi';
import { pageQuery, pageQuerySchemas } from '../common/paging';
import { RateLimited } from '../common/rate-limits/rate-limits';
import { RequestContext } from '../common/request-context';
import { socialPaths } from '../common/social-paths';
import { type AgentUserView, Collaborate, type CollaborationView, CreateAgent, type CreatedAgent, SpecializeAgent, type SpecializationReply } from './agents.commands';
import { AgentsQueries } from './agents.queries';
import {
  AGENT_USER,
  AGENT_USERS,
  COLLABORATION,
  COLLABORATIONS,
  CREATED_AGENT,
  EVOLUTION,
  LEADERBOARD,
  NAME_SUGGESTIONS,
  NAME_VALIDATION,
  pagedOf,
  SHOWCASE,
  SPECIALIZATION,
  SPECIALIZATION_TREES_REPLY,
  XP_HISTORY,
} from './agents.replies';
import { CollaborateRequest, CreateAgentRequest, SpecializeRequest, SUGGEST_QUERY_SCHEMAS, suggestQuery, ValidateNameRequest } from './agents.requests';
import { list } from '../common/openapi';

const DISCOVERY_PAGE = { defaultLimit: 50, cap: 100 };
const MARKETPLACE = { defaultLimit: 20, cap: 50 };
const LEADERBOARD_LIMIT = { defaultLimit: 50, cap: 100 };
const SHOWCASE_LIMIT = { defaultLimit: 20, cap: 50 };
const COLLABORATIONS_LIMIT = { defaultLimit: 50, cap: 100 };

const limitOf = (query: Record<string, unknown>, rule: { defaultLimit: number; cap: number }): number => pageQuery({ limit: query.limit }, rule).limit;
const actorOf = (user: AuthUser) => ({ id: user.id, isAdmin: isAdminRole(user.role) });
const randomPick = (n: number): number => randomInt(n);

export const CREATE_FOR_YOURSELF = 'Can only create agents for yourself';

@Controller(socialPaths('agents'))
export class AgentsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: AgentsQueries,
  ) {}

  @Get('suggest-names')
  @RateLimited('global')
  @QueryParam('count', SUGGEST_QUERY_SCHEMAS.count)
  @QueryParam('mode', SUGGEST_QUERY_SCHEMAS.mode)
  @QueryParam('handle', SUGGEST_QUERY_SCHEMAS.handle)
  @EnvelopeReply(200, NAME_SUGGESTIONS)
  async suggestNames(@Query() query: Record<string, unknown>): Promise<Envelope<{ suggestions: string[]; count: number; mode: NameMode; global_preview?: string[] }>> {
    const { count, mode, handle } = suggestQuery(query);
    const candidates = candidateNames(mode, count * 2, randomPick);
    const globalOf = (name: string) => (mode === 'local' ? (handle ? `${name}.${handle}` : null) : name);
    const taken = await this.queries.takenUsernames(candidates.map(globalOf).filter((n): n is string => n !== null));
    const suggestions = candidates.filter((name) => !taken.has(globalOf(name) ?? '')).slice(0, count);
    const reply: { suggestions: string[]; count: number; mode: NameMode; global_preview?: string[] } = { suggestions, count: suggestions.length, mode };
    if (mode === 'local' && handle) reply.global_preview = suggestions.map((name) => `${name}.${handle}`);
    return ok(reply);
  }

  @Post('validate-name')
  @RateLimited('global')
  @HttpCode(200)
  @EnvelopeReply(200, NAME_VALIDATION, 'always 200: `valid` says whether the name may be used')
  async validateName(@Body() body: ValidateNameRequest): Promise<Envelope<{ valid: boolean; error: string | null; name: string; global_name?: string }>> {
    const mode = body.mode ?? 'global';
    const check = checkName(body.name ?? '', mode, body.handle?.trim().toLowerCase() ?? null);
    if (!check.valid) return ok({ valid: false, error: check.error, name: check.name });
    const taken = await this.queries.takenUsernames([check.globalName]);
    if (taken.size > 0) return ok({ valid: false, error: 'Name is already taken', name: check.name, global_name: check.globalName });
    return ok({ valid: true, error: null, name: check.name, global_name: check.globalName });
  }

  @Get('leaderboard')
  @OptionalViewer()
  @QueryParam('limit', pageQuerySchemas(LEADERBOARD_LIMIT).limit)
  @EnvelopeReply(200, LEADERBOARD, 'agents by evolution XP, most first')
  async leaderboard(@Query() query: Record<string, unknown>) {
    return ok(await this.queries.leaderboard(limitOf(query, LEADERBOARD_LIMIT)));
  }

  @Get('showcase')
  @OptionalViewer()
  @QueryParam('limit', pageQuerySchemas(SHOWCASE_LIMIT).limit)
  @EnvelopeReply(200, SHOWCASE, 'specialised agents first, then by generation')
  async showcase(@Query() query: Record<string, unknown>) {
    return ok(await this.queries.showcase(limitOf(query, SHOWCASE_LIMIT)));
  }

  @Get('specialization-trees')
  @OptionalViewer()
  @EnvelopeReply(200, SPECIALIZATION_TREES_REPLY)
  specializationTrees() {
    return ok(this.queries.specializationTrees());
  }

  @Get(':id/evolution')
  @OptionalViewer()
  @EnvelopeReply(200, EVOLUTION)
  @Refusal(404, '`Agent not found`')
  async evolution(@Param('id') id: string) {
    return ok(await this.queries.evolution(id));
  }

  @Get(':id/evolution-history')
  @OptionalViewer()
  @EnvelopeReply(200, XP_HISTORY, 'the agent’s XP transactions, oldest first')
  @Refusal(404, '`Agent not found`')
  async evolutionHistory(@Param('id') id: string) {
    return ok(await this.queries.evolutionHistory(id));
  }

  @Post(':id/specialize')
  @HttpCode(200)
  @Authenticated()
  @EnvelopeReply(200, SPECIALIZATION)
  @Refusal(400, 'the agent is below generation 3, or the path is not a tree')
  @Refusal(403, '`Not your agent`')
  @Refusal(404, '`Agent not found`')
  @Refusal(409, '`Agent is already specialized`')
  async specialize(
    @CurrentUser() user: AuthUser,
    @Param('id') id: string,
    @Body() body: SpecializeRequest,
    @RequestContext() context: CommandContext,
  ): Promise<Envelope<SpecializationReply>> {
    return ok(await this.commands.execute(new SpecializeAgent({ agentUserId: id, actor: actorOf(user), tree: body.path }, context)));
  }

  @Get(':id/collaborations')
  @OptionalViewer()
  @QueryParam('limit', pageQuerySchemas(COLLABORATIONS_LIMIT).limit)
  @EnvelopeReply(200, COLLABORATIONS, 'newest first')
  @Refusal(404, '`Agent not found`')
  async collaborations(@Param('id') id: string, @Query() query: Record<string, unknown>): Promise<Envelope<CollaborationView[]>> {
    return ok(await this.queries.collaborations(id, limitOf(query, COLLABORATIONS_LIMIT)));
  }

  @Post(':id/collaborate')
  @HttpCode(201)
  @Authenticated()
  @EnvelopeReply(201, COLLABORATION)
  @Refusal(403, '`Not your agent`')
  @Refusal(404, '`Agent not found` / `Other agent not found`')
  async collaborate(
    @CurrentUser() user: AuthUser,
    @Param('id') id: string,
    @Body() body: CollaborateRequest,
    @RequestContext() context: CommandContext,
  ): Promise<Envelope<CollaborationView>> {
    return ok(
      await this.commands.execute(
        new Collaborate(
          {
            agentUserId: id,
            actor: actorOf(user),
            otherAgentId: body.other_agent_id,
            collaborationType: body.type ?? 'co_task',
            qualityScore: body.quality_score ?? 0.5,
            taskId: body.task_id ?? null,
          },
          context,
        ),
      ),
    );
  }
}

@Controller(socialPaths('users'))
export class UserAgentsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: AgentsQueries,
  ) {}

  @Get(':id/agents')
  @OptionalViewer()
  @EnvelopeReply(200, AGENT_USERS, 'the agents {id} owns, oldest first')
  @Refusal(404, '`User not found`')
  async agents(@Param('id') id: string): Promise<Envelope<AgentUserView[]>> {
    return ok(await this.queries.agentsOf(id));
  }

  @Post(':id/agents')
  @HttpCode(201)
  @Authenticated()
  @EnvelopeReply(201, CREATED_AGENT)
  @Refusal(400, 'no name, a bad name, a local name without the owner’s handle, or `Agent name already taken`')
  @Refusal(403, '`Can only create agents for yourself`')
  @Refusal(404, '`User not found`')
  async create(
    @CurrentUser() user: AuthUser,
    @Param('id') id: string,
    @Body() body: CreateAgentRequest,
    @RequestContext() context: CommandContext,
  ): Promise<Envelope<CreatedAgent>> {
    const self = id === user.id || id.toLowerCase() === user.username.toLowerCase();
    if (!self && !isAdminRole(user.role)) throw new DomainError('forbidden', CREATE_FOR_YOURSELF);
    const ownerId = self ? user.id : (await this.queries.user(id)).id;
    const localName = body.local_name?.trim() ? body.local_name : null;
    const name = body.name?.trim() ? body.name : null;
    if (localName === null && name === null) throw new DomainError('invalid', 'local_name or name is required');
    return ok(
      await this.commands.execute(
        new CreateAgent(
          {
            ownerId,
            localName,
            name: localName === null ? name : null,
            description: body.description ?? '',
            personality: body.personality ?? '',
            skills: body.skills ?? [],
            agentId: body.agent_id?.trim() || null,
          },
          context,
        ),
      ),
    );
  }
}

@Controller(socialPaths('discovery'))
export class DiscoveryController {
  constructor(private readonly queries: AgentsQueries) {}

  @Get('agents')
  @QueryParam('limit', pageQuerySchemas(DISCOVERY_PAGE).limit)
  @QueryParam('offset', pageQuerySchemas(DISCOVERY_PAGE).offset)
  @Reply(200, pagedOf(AGENT_USERS), 'non-banned agents, highest karma first')
  async agents(@Query() query: Record<string, unknown>): Promise<PagedEnvelope<AgentUserView>> {
    const page = pageQuery(query, DISCOVERY_PAGE);
    const { items, total } = await this.queries.discovery(page);
    return paged(items, total, page);
  }
}

@Controller(socialPaths('marketplace'))
export class AgentMarketplaceController {
  constructor(private readonly queries: AgentsQueries) {}

  @Get('agents')
  @OptionalViewer()
  @QueryParam('limit', pageQuerySchemas(MARKETPLACE).limit)
  @EnvelopeReply(200, list(AGENT_USER), 'non-banned agents, highest karma first (no meta)')
  async agents(@Query() query: Record<string, unknown>): Promise<Envelope<AgentUserView[]>> {
    return ok(await this.queries.marketplace(limitOf(query, MARKETPLACE)));
  }
}
