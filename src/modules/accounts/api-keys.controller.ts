/**
 * API key management under /api/v1/intelligence/keys. Needs a bearer JWT
 * (a key cannot mint keys). The key is shown once, in the reply to POST.
 */
import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { DAILY_LIMITS, type ApiKeyTier } from '../../aggregates/accounts/api-key';
import { DomainError } from '../../aggregates/shared/domain-error';
import type { CommandContext } from '../common/command-executor';
import { type Envelope, ok } from '../common/envelope';
import { RequestContext } from '../common/request-context';
import { IssueApiKey, type IssuedApiKey, RevokeApiKey } from './accounts.commands';
import { AccountsQueries } from './accounts.queries';
import { IssueApiKeyRequest } from './accounts.requests';
import { Authenticated, JwtOnly } from './auth/authenticated.guard';
import type { AuthUser } from './auth/auth-user';
import { CurrentUser } from './auth/current-user.decorator';
import { EnvelopeReply, PathParam } from '../common/openapi';
import { API_KEY_LIST, ISSUED_API_KEY, REVOKED_API_KEY } from './accounts.replies';

const KEY_ID = /^[a-f0-9]{16}$/;

interface ApiKeySummary {
  id: string;
  name: string;
  tier: string;
  daily_limit: number;
  created_at: string;
  revoked: boolean;
  allowed_origins: string[];
}

@Controller('api/v1/intelligence/keys')
@Authenticated()
@JwtOnly()
export class ApiKeysController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: AccountsQueries,
  ) {}

  @Post()
  @EnvelopeReply(201, ISSUED_API_KEY, 'the only time the key is shown')
  async issue(
    @CurrentUser() user: AuthUser,
    @Body() body: IssueApiKeyRequest,
    @RequestContext() context: CommandContext,
  ): Promise<Envelope<IssuedApiKey>> {
    return ok(await this.commands.execute(new IssueApiKey({ userId: user.id, name: body.name, tier: body.tier, allowedOrigins: body.allowed_origins ?? [] }, context)));
  }

  @Get()
  @EnvelopeReply(200, API_KEY_LIST)
  async list(@CurrentUser() user: AuthUser): Promise<Envelope<ApiKeySummary[]>> {
    const keys = await this.queries.apiKeysOf(user.id);
    return ok(
      keys.map((k) => ({
        id: k._id,
        name: k.name,
        tier: k.tier,
        daily_limit: DAILY_LIMITS[k.tier as ApiKeyTier] ?? 0,
        created_at: k.created_at,
        revoked: k.revoked,
        allowed_origins: k.allowed_origins ?? [],
      })),
    );
  }

  @Delete(':id')
  @HttpCode(200)
  @EnvelopeReply(200, REVOKED_API_KEY)
  @PathParam('id', { type: 'string', pattern: KEY_ID.source })
  async revoke(
    @CurrentUser() user: AuthUser,
    @Param('id') id: string,
    @RequestContext() context: CommandContext,
  ): Promise<Envelope<{ id: string; revoked: true }>> {
    if (!KEY_ID.test(id)) throw new DomainError('not_found', 'API key not found');
    await this.commands.execute(new RevokeApiKey({ keyId: id, requestedBy: user.id }, context));
    return ok({ id, revoked: true });
  }
}
