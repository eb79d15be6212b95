/**
 * The durable encounter routes (social-routes §13), under /api/social and
 * /social: `/encounters…` (plural). The BLE flow's `/encounter/…` (singular)
 * is the encounter context's. Literal segments (`suggestions`, `bonds`,
 * `nearby`) win over `{user_id}` in the router.
 */
import { Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ENCOUNTER_NOT_FOUND } from '../../aggregates/proximity/social-encounter';
import { DomainError } from '../../aggregates/shared/domain-error';
import { Clock } from '../../infrastructure/clock';
import { Authenticated } from '../accounts/auth/authenticated.guard';
import type { AuthUser } from '../accounts/auth/auth-user';
import { CurrentUser } from '../accounts/auth/current-user.decorator';
import type { CommandContext } from '../common/command-executor';
import { type Envelope, ok } from '../common/envelope';
import { EnvelopeReply, list, QueryParam, Refusal } from '../common/openapi';
import { pageQuery, pageQuerySchemas } from '../common/paging';
import { RequestContext } from '../common/request-context';
import { socialPaths } from '../common/social-paths';
import { AcknowledgeSocialEncounter } from './proximity.commands';
import {
  encounterView,
  ProximityQueries,
  type EncounterBond,
  type EncounterSuggestion,
  type EncounterView,
  type EncounterWithOther,
  type UserCard,
} from './proximity.queries';
import { ENCOUNTER, ENCOUNTER_BOND, ENCOUNTER_LIST, ENCOUNTER_SUGGESTION, ENCOUNTER_WITH_OTHER, USER_CARD } from './proximity.replies';

const ENCOUNTERS_PAGE = { defaultLimit: 20, cap: 50 };

@Controller(socialPaths('encounters'))
@Authenticated()
export class EncountersController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: ProximityQueries,
    private readonly clock: Clock,
  ) {}

  @Get()
  @EnvelopeReply(200, list(ENCOUNTER_WITH_OTHER), "the caller's encounters, latest first")
  @QueryParam('limit', pageQuerySchemas(ENCOUNTERS_PAGE).limit)
  async list(@Query() query: { limit?: string }, @CurrentUser() caller: AuthUser): Promise<Envelope<EncounterWithOther[]>> {
    const { limit } = pageQuery({ limit: query.limit }, ENCOUNTERS_PAGE);
    return ok(await this.queries.encountersOf(caller.id, limit));
  }

  @Get('suggestions')
  @EnvelopeReply(200, list(ENCOUNTER_SUGGESTION), 'people met at least twice in all, most encounters first, up to 10')
  async suggestions(@CurrentUser() caller: AuthUser): Promise<Envelope<EncounterSuggestion[]>> {
    return ok(await this.queries.suggestions(caller.id));
  }

  @Get('bonds')
  @EnvelopeReply(200, list(ENCOUNTER_BOND), 'one entry per person with bond level at least 1, highest first')
  async bonds(@CurrentUser() caller: AuthUser): Promise<Envelope<EncounterBond[]>> {
    return ok(await this.queries.bonds(caller.id));
  }

  @Get('nearby')
  @EnvelopeReply(200, list(USER_CARD), "up to 20 people of the caller's region active in the last 24 h; [] without a region")
  async nearby(@CurrentUser() caller: AuthUser): Promise<Envelope<UserCard[]>> {
    return ok(await this.queries.nearby(caller.id, this.clock.now()));
  }

  @Get(':user_id')
  @EnvelopeReply(200, ENCOUNTER_LIST, 'the encounters of the caller with that user')
  async between(@Param('user_id') userId: string, @CurrentUser() caller: AuthUser): Promise<Envelope<EncounterView[]>> {
    return ok(await this.queries.between(caller.id, userId));
  }

  @Post(':id/acknowledge')
  @HttpCode(200)
  @EnvelopeReply(200, ENCOUNTER, 'the encounter, is_mutual_aware set')
  @Refusal(404, `${ENCOUNTER_NOT_FOUND} (also when the caller is not one of its pair)`)
  async acknowledge(@Param('id') id: string, @CurrentUser() caller: AuthUser, @RequestContext() context: CommandContext): Promise<Envelope<EncounterView>> {
    const row = await this.queries.encounter(id);
    if (!row || (row.user_a_id !== caller.id && row.user_b_id !== caller.id)) throw new DomainError('not_found', ENCOUNTER_NOT_FOUND);
    const otherUserId = row.user_a_id === caller.id ? row.user_b_id : row.user_a_id;
    return ok(encounterView(await this.commands.execute(new AcknowledgeSocialEncounter({ encounterId: id, callerId: caller.id, otherUserId }, context))));
  }
}
