/**
 * Consents of a user (SPEC §4.4 `PUT, GET /users/<id>/consent/cloud-data`),
 * event-sourced on `consent-<userId>`. The body names the consent type and
 * scope (default `cloud_capability` / `*`); rule 11 of the encounter flow
 * reads them. Only the owner reads or changes their consents (the original
 * wrote the caller's record whatever the id: a known defect not kept here).
 */
import { Body, Controller, Get, HttpCode, Param, Put } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { DomainError } from '../../aggregates/shared/domain-error';
import { Authenticated } from '../accounts/auth/authenticated.guard';
import type { AuthUser } from '../accounts/auth/auth-user';
import { CurrentUser } from '../accounts/auth/current-user.decorator';
import type { CommandContext } from '../common/command-executor';
import { type Envelope, ok } from '../common/envelope';
import { RequestContext } from '../common/request-context';
import { type ConsentReply, SetConsent } from './encounter.commands';
import { EncounterQueries } from './encounter.queries';
import { CONSENT_BODY_SCHEMA, consentRequest } from './encounter.requests';
import { EnvelopeReply, ReadBody, Refusal } from '../common/openapi';
import { CONSENTS } from './encounter.replies';

function ownerOnly(user: AuthUser, id: string): void {
  if (id !== user.id && id.toLowerCase() !== user.username.toLowerCase()) {
    throw new DomainError('forbidden', "Cannot access another user's consent");
  }
}

@Controller(['api/social/users', 'social/users'])
@Authenticated()
export class ConsentController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: EncounterQueries,
  ) {}

  @Put(':id/consent/cloud-data')
  @HttpCode(200)
  @ReadBody(CONSENT_BODY_SCHEMA)
  @EnvelopeReply(200, CONSENTS)
  @Refusal(403, "`Cannot access another user's consent`")
  async set(
    @CurrentUser() user: AuthUser,
    @Param('id') id: string,
    @Body() body: unknown,
    @RequestContext() context: CommandContext,
  ): Promise<Envelope<ConsentReply>> {
    ownerOnly(user, id);
    return ok(await this.commands.execute(new SetConsent({ userId: user.id, ...consentRequest(body) }, context)));
  }

  @Get(':id/consent/cloud-data')
  @EnvelopeReply(200, CONSENTS)
  @Refusal(403, "`Cannot access another user's consent`")
  async get(@CurrentUser() user: AuthUser, @Param('id') id: string): Promise<Envelope<ConsentReply>> {
    ownerOnly(user, id);
    return ok(await this.queries.consentsOf(user.id));
  }
}
