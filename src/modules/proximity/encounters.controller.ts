/**
 * The durable encounter routes (social-routes §13), under /api/social and
 * /social: `/encounters…` (plural). The BLE flow's `/encounter/…` (singular)
 * is the encounter context's. Literal segments (`suggestions`, `bonds`,
 * `nearby`) win over `{user_id}` in the router.
 */
import { Body, Controller, Get, HttpCode, Param, Patch, Post, Put, Query } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { MATCH_NOT_FOUND, NOT_YOUR_MATCH } from '../../aggregates/proximity/proximity-pair';
import { ENCOUNTER_NOT_FOUND } from '../../aggregates/proximity/social-encounter';
import { DomainError } from '../../aggregates/shared/domain-error';
import { Clock } from '../../infrastructure/clock';
import { Authenticated } from '../accounts/auth/authenticated.guard';
import type { AuthUser } from '../accounts/auth/auth-user';
import { CurrentUser } from '../accounts/auth/current-user.decorator';
import type { CommandContext } from '../common/command-executor';
import { type Envelope, ok } from '../common/envelope';
import { bool, EnvelopeReply, int, list, obj, oneOf, QueryParam, ReadBody, Refusal } from '../common/openapi';
import { pageQuery, pageQuerySchemas } from '../common/paging';
import { RequestContext } from '../common/request-context';
import { socialPaths } from '../common/social-paths';
import { AcknowledgeSocialEncounter, PingLocation, type PingOutcome, RevealProximityMatch, SetLocationSharing } from './proximity.commands';
import { LOCATION_PING_BODY_SCHEMA, LOCATION_SETTINGS_BODY_SCHEMA, locationPingRequest, locationSettingsRequest } from './proximity.requests';
import {
  encounterView,
  MATCH_STATUSES,
  type MatchStatus,
  type MatchView,
  ProximityQueries,
  type EncounterBond,
  type EncounterSuggestion,
  type EncounterView,
  type EncounterWithOther,
  type UserCard,
} from './proximity.queries';
import { MATCH_VIEW } from './proximity.replies';
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

  @Post('location-ping')
  @HttpCode(200)
  @ReadBody(LOCATION_PING_BODY_SCHEMA)
  @EnvelopeReply(
    200,
    obj({ nearby_count: int({ description: 'others within 100 m' }), new_matches: int(), rate_limited: bool() }, ['new_matches']),
    'one stored ping per 30 s (a faster one answers rate_limited: true); matches with everyone within 100 m',
  )
  @Refusal(400, '`lat and lon required`, `Invalid coordinates`, `Coordinates out of range`')
  async ping(@Body() body: unknown, @CurrentUser() caller: AuthUser, @RequestContext() context: CommandContext): Promise<Envelope<PingOutcome | Omit<PingOutcome, 'new_matches'>>> {
    const outcome = await this.commands.execute(new PingLocation({ userId: caller.id, ...locationPingRequest(body) }, context));
    return ok(outcome.rate_limited ? { nearby_count: outcome.nearby_count, rate_limited: true } : outcome);
  }

  @Get('nearby-now')
  @EnvelopeReply(200, obj({ nearby_count: int() }), "others whose live ping lies within 500 m of the caller's last location")
  async nearbyNow(@CurrentUser() caller: AuthUser): Promise<Envelope<{ nearby_count: number }>> {
    return ok(await this.queries.nearbyNow(caller.id, this.clock.now()));
  }

  @Get('location-settings')
  @EnvelopeReply(200, obj({ location_sharing_enabled: bool(), has_location: bool() }))
  async locationSettings(@CurrentUser() caller: AuthUser): Promise<Envelope<{ location_sharing_enabled: boolean; has_location: boolean }>> {
    return ok(await this.queries.locationSettings(caller.id, this.clock.now()));
  }

  @Patch('location-settings')
  @ReadBody(LOCATION_SETTINGS_BODY_SCHEMA)
  @EnvelopeReply(200, obj({ location_sharing_enabled: bool() }), 'turning it off clears the stored location')
  async setLocationSettings(@Body() body: unknown, @CurrentUser() caller: AuthUser, @RequestContext() context: CommandContext): Promise<Envelope<{ location_sharing_enabled: boolean }>> {
    return ok(await this.commands.execute(new SetLocationSharing({ userId: caller.id, ...locationSettingsRequest(body) }, context)));
  }

  @Put('location-settings')
  @ReadBody(LOCATION_SETTINGS_BODY_SCHEMA)
  @EnvelopeReply(200, obj({ location_sharing_enabled: bool() }), 'the same as PATCH')
  putLocationSettings(@Body() body: unknown, @CurrentUser() caller: AuthUser, @RequestContext() context: CommandContext): Promise<Envelope<{ location_sharing_enabled: boolean }>> {
    return this.setLocationSettings(body, caller, context);
  }

  @Get('proximity-matches')
  @EnvelopeReply(200, list(MATCH_VIEW), "the caller's proximity matches, newest first; expired ones only with status=expired")
  @QueryParam('status', oneOf(MATCH_STATUSES))
  async proximityMatches(@Query() query: { status?: unknown }, @CurrentUser() caller: AuthUser): Promise<Envelope<MatchView[]>> {
    const status = typeof query.status === 'string' ? query.status.trim() || null : query.status === undefined ? null : String(query.status);
    if (status && !(MATCH_STATUSES as readonly string[]).includes(status)) throw new DomainError('invalid', `status must be one of ${MATCH_STATUSES.join(', ')}`);
    return ok(await this.queries.matchesOf(caller.id, status as MatchStatus | null, this.clock.now()));
  }

  @Post('proximity/:match_id/reveal')
  @HttpCode(200)
  @EnvelopeReply(200, MATCH_VIEW, 'pending → revealed_a / revealed_b → matched; once matched the two profiles')
  @Refusal(400, '`Match not found or expired`, `Not your match`, `Already matched`, `Already revealed`')
  async reveal(@Param('match_id') matchId: string, @CurrentUser() caller: AuthUser, @RequestContext() context: CommandContext): Promise<Envelope<MatchView>> {
    const match = await this.queries.match(matchId);
    if (!match) throw new DomainError('invalid', MATCH_NOT_FOUND);
    if (match.user_a_id !== caller.id && match.user_b_id !== caller.id) throw new DomainError('invalid', NOT_YOUR_MATCH);
    const otherUserId = match.user_a_id === caller.id ? match.user_b_id : match.user_a_id;
    await this.commands.execute(new RevealProximityMatch({ matchId, callerId: caller.id, otherUserId }, context));
    const revealed = await this.queries.match(matchId);
    return ok(await this.queries.matchView(revealed ?? match, caller.id, this.clock.now()));
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
