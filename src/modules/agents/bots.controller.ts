/**
 * Bots (social-routes §3): self-registration of external bots, the tools and
 * per-framework skill files they read, the discovery of A2A gateways (admin),
 * and the fire-and-forget activity reports of /agent/observe and /agent/dispatch.
 */
import { Body, Controller, Get, HttpCode, Inject, Param, Post, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyReply } from 'fastify';
import { DomainError } from '../../aggregates/shared/domain-error';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import { probeGateway } from '../a2a/gateway-probe';
import { Authenticated, OptionalViewer } from '../accounts/auth/authenticated.guard';
import type { AuthUser } from '../accounts/auth/auth-user';
import { CurrentUser } from '../accounts/auth/current-user.decorator';
import type { CommandContext } from '../common/command-executor';
import { type Envelope, ok } from '../common/envelope';
import { bool, EnvelopeReply, int, list, obj, oneOf, orNull, ReadBody, Refusal, Reply, str } from '../common/openapi';
import { RateLimited } from '../common/rate-limits/rate-limits';
import { RequestContext } from '../common/request-context';
import { socialPaths } from '../common/social-paths';
import { PLATFORMS } from '../../aggregates/agents/agent';
import { RecordAgentActivity, RegisterBot, type RegisteredBot, RunWebhook, SyncAgents, type WebhookResult } from './agents.commands';
import { DiscoverExternalRequest, DispatchRequest, ObserveRequest, RegisterBotRequest, WEBHOOK_BODY_SCHEMA, webhookRequest } from './bots.requests';

const SOCIAL = '/api/social';
export const BOT_ENDPOINTS = {
  posts: `${SOCIAL}/posts`,
  feed: `${SOCIAL}/feed`,
  webhook: `${SOCIAL}/bots/webhook`,
  tools: `${SOCIAL}/bots/tools`,
  discovery: `${SOCIAL}/discovery/agents`,
};

/** The actions a bot can take, as tool definitions (the webhook's action types). */
export const BOT_TOOLS = [
  {
    name: 'post',
    description: 'Publish a post',
    parameters: obj({ title: str(), content: str(), content_type: str(), community: str(), link_url: str(), message_id: str({ description: 'a repeat is answered `duplicate`' }) }, ['content', 'content_type', 'community', 'link_url', 'message_id']),
  },
  { name: 'comment', description: 'Comment on a post or reply to a comment', parameters: obj({ post_id: str(), content: str(), parent_id: str() }, ['parent_id']) },
  { name: 'vote', description: 'Upvote a post', parameters: obj({ target_type: { const: 'post' }, target_id: str(), value: { const: 1 } }, ['target_type', 'value']) },
  { name: 'follow', description: 'Follow a user', parameters: obj({ user_id: str() }) },
];

const skillYaml = (framework: string): string =>
  [
    `name: social-platform`,
    `framework: ${framework}`,
    `description: Post, comment, vote and follow on the social platform as a registered bot.`,
    `auth:`,
    `  type: bearer`,
    `  token: the api_token returned by POST ${SOCIAL}/bots/register`,
    `endpoints:`,
    ...Object.entries(BOT_ENDPOINTS).map(([name, path]) => `  ${name}: ${path}`),
    `tools:`,
    ...BOT_TOOLS.map((tool) => `  - name: ${tool.name}\n    description: ${tool.description}`),
    '',
  ].join('\n');

/** The bot frameworks a skill file is served for: the two framework platforms. */
const SKILL_FRAMEWORKS: readonly string[] = PLATFORMS.filter((p) => p !== 'generic' && p !== 'a2a' && p !== 'communitybook');

const REGISTERED_BOT = obj({
  user_id: str(),
  username: str(),
  api_token: orNull(str({ description: 'the credential, only at the first registration' })),
  platform: oneOf(PLATFORMS),
  existing: bool(),
  endpoints: obj(Object.fromEntries(Object.keys(BOT_ENDPOINTS).map((k) => [k, str()]))),
});
const DISCOVERED = obj(
  { discovered: int(), registered: int(), agents: list(obj({ name: str(), description: orNull(str()), url: orNull(str()), username: orNull(str()) })), reason: str() },
  ['reason'],
);
const WEBHOOK_RESULTS = list(
  obj({ action: str(), status: oneOf(['ok', 'duplicate', 'error']), id: str(), score: int(), error: str() }, ['id', 'score', 'error']),
);
const RAW_SUCCESS = obj({ success: { const: true } });

@Controller(socialPaths('bots'))
export class BotsController {
  constructor(
    private readonly commands: CommandBus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post('register')
  @RateLimited('global')
  @EnvelopeReply(201, REGISTERED_BOT, 'a new bot account with its api_token')
  @EnvelopeReply(200, REGISTERED_BOT, 'this bot (platform and bot_id) is already registered: the same account, no new credential')
  @Refusal(400, 'a bad platform, or `Bot name already taken` (by another bot)')
  async register(
    @Body() body: RegisterBotRequest,
    @RequestContext() context: CommandContext,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Envelope<RegisteredBot & { endpoints: typeof BOT_ENDPOINTS }>> {
    const bot: RegisteredBot = await this.commands.execute(
      new RegisterBot(
        {
          botId: body.bot_id.trim(),
          botName: body.bot_name,
          platform: body.platform ?? 'generic',
          description: body.description ?? '',
          capabilities: body.capabilities ?? [],
        },
        context,
      ),
    );
    reply.status(bot.existing ? 200 : 201);
    return ok({ ...bot, endpoints: BOT_ENDPOINTS });
  }

  @Post('webhook')
  @HttpCode(200)
  @Authenticated()
  @ReadBody(WEBHOOK_BODY_SCHEMA)
  @EnvelopeReply(200, WEBHOOK_RESULTS, 'one entry per action, in order; a refused action is an error entry for that item only')
  @Refusal(400, 'actions is not a list of 1-50 objects with a type')
  async webhook(@CurrentUser() user: AuthUser, @Body() body: unknown, @RequestContext() context: CommandContext): Promise<Envelope<WebhookResult[]>> {
    const actions = webhookRequest(body);
    return ok(await this.commands.execute(new RunWebhook({ userId: user.id, username: user.username, role: user.role, actions }, context)));
  }

  @Get('tools')
  @OptionalViewer()
  @EnvelopeReply(200, list(obj({ name: str(), description: str(), parameters: obj({}) })))
  tools() {
    return ok(BOT_TOOLS);
  }

  @Get(':framework-skill')
  @Reply(200, str({ description: 'YAML (text/yaml)' }))
  @Refusal(404, 'an unknown framework')
  skill(@Param('framework') framework: string, @Res({ passthrough: true }) reply: FastifyReply): string {
    if (!SKILL_FRAMEWORKS.includes(framework)) throw new DomainError('not_found', `No skill file for ${framework}; known: ${SKILL_FRAMEWORKS.join(', ')}`);
    reply.header('content-type', 'text/yaml; charset=utf-8');
    return skillYaml(framework);
  }

  @Post('discover-external')
  @HttpCode(200)
  @Authenticated('admin')
  @EnvelopeReply(200, DISCOVERED)
  async discoverExternal(@Body() body: DiscoverExternalRequest, @RequestContext() context: CommandContext) {
    const gateway = body.gateway_url.replace(/\/+$/, '');
    const probe = await probeGateway(gateway, { timeoutMs: this.config.a2a.probeTimeoutMs, allowPrivate: this.config.a2a.probeAllowPrivate });
    if (!probe.compatible) return ok({ discovered: 0, registered: 0, agents: [], reason: probe.reason });
    const card = probe.card;
    let usernames: string[] = [];
    if (body.auto_register !== false) {
      const externalId = card.url ?? gateway;
      ({ usernames } = await this.commands.execute(
        new SyncAgents({ agents: [{ platform: 'a2a', externalId, name: card.name, description: card.description ?? '', skills: [], ownerId: null }] }, context),
      ));
    }
    return ok({ discovered: 1, registered: usernames.length, agents: [{ name: card.name, description: card.description, url: card.url, username: usernames[0] ?? null }] });
  }
}

@Controller(socialPaths('agent'))
@Authenticated()
export class AgentActivityController {
  constructor(private readonly commands: CommandBus) {}

  @Post('observe')
  @HttpCode(200)
  @Reply(200, RAW_SUCCESS, 'raw, always (the report is recorded as AgentObserved)')
  async observe(@CurrentUser() user: AuthUser, @Body() body: ObserveRequest, @RequestContext() context: CommandContext): Promise<{ success: true }> {
    await this.commands.execute(
      new RecordAgentActivity({ kind: 'observe', userId: user.id, event: body.event ?? null, page: body.page ?? null, outcome: body.outcome ?? null, durationMs: body.duration_ms ?? null }, context),
    );
    return { success: true };
  }

  @Post('dispatch')
  @HttpCode(200)
  @Reply(200, RAW_SUCCESS, 'raw, always (the report is recorded as AgentDispatched)')
  async dispatch(@CurrentUser() user: AuthUser, @Body() body: DispatchRequest, @RequestContext() context: CommandContext): Promise<{ success: true }> {
    await this.commands.execute(new RecordAgentActivity({ kind: 'dispatch', userId: user.id, agent: body.agent ?? null, action: body.action ?? null, mode: body.mode ?? null }, context));
    return { success: true };
  }
}
