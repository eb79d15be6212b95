/**
 * Consents of a user (SPEC §4.4 `PUT, GET /users/<id>/consent/cloud-data`),
 * event-sourced on `consent-<userId>`. The body names the consent type and
 * scope (default `cloud_capability` / `*`); rule 11 of the encounter flow
 * reads them. Only the owner reads or changes their consents (the original
 * wrote the caller's record whatever the id: a known defect not kept here).
 */
import { Body, Controller, Get, HttpCode, Param, Put } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { activeConsents, consentDecider, hasCloudDraftingConsent } from '../../aggregates/encounter/consent';
import { consentStreamId } from '../../aggregates/encounter/encounter.events';
import { DomainError } from '../../aggregates/shared/domain-error';
import { Authenticated } from '../accounts/auth/authenticated.guard';
import type { AuthUser } from '../accounts/auth/auth-user';
import { CurrentUser } from '../accounts/auth/current-user.decorator';
import { CommandExecutor, type CommandContext } from '../common/command-executor';
import { type Envelope, ok } from '../common/envelope';
import { RequestContext } from '../common/request-context';
import { consentRequest } from './encounter-requests';
import { SetConsent } from './encounter.commands';

export interface ConsentReply {
  /** whether the named consent (PUT) or any cloud-drafting consent (GET) is active */
  cloud_data_consent: boolean;
  consent_type?: string;
  scope?: string;
  consents: { consent_type: string; scope: string; granted_at: string }[];
}

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
    private readonly executor: CommandExecutor,
  ) {}

  @Put(':id/consent/cloud-data')
  @HttpCode(200)
  async set(
    @CurrentUser() user: AuthUser,
    @Param('id') id: string,
    @Body() body: unknown,
    @RequestContext() context: CommandContext,
  ): Promise<Envelope<ConsentReply>> {
    ownerOnly(user, id);
    const request = consentRequest(body);
    await this.commands.execute(new SetConsent(user.id, request.consent, request.consentType, request.scope, context));
    const consents = await this.consentsOf(user.id);
    const active = consents.some((c) => c.consent_type === request.consentType && c.scope === request.scope);
    return ok({ cloud_data_consent: active, consent_type: request.consentType, scope: request.scope, consents });
  }

  @Get(':id/consent/cloud-data')
  async get(@CurrentUser() user: AuthUser, @Param('id') id: string): Promise<Envelope<ConsentReply>> {
    ownerOnly(user, id);
    const { state } = await this.executor.load(consentDecider, consentStreamId(user.id));
    return ok({ cloud_data_consent: hasCloudDraftingConsent(state), consents: activeConsents(state) });
  }

  private async consentsOf(userId: string): Promise<ConsentReply['consents']> {
    const { state } = await this.executor.load(consentDecider, consentStreamId(userId));
    return activeConsents(state);
  }
}
