/**
 * The missed-connection routes (social-routes §13), under /api/social and
 * /social: `/encounters/missed-connections…`. The literal segments (`mine`,
 * `suggest-locations`) win over `{id}` in the router, as the static
 * `/encounters/missed-connections` wins over `/encounters/{user_id}`.
 * Create and respond answer 201 (the original's double-status 500 is §23's
 * defect). Every command runs on the poster's stream (found here in the read
 * model); exact coordinates never leave the service.
 */
import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { MISSED_CONNECTION_NOT_FOUND, RESPONSE_NOT_FOUND } from '../../aggregates/proximity/missed-connections';
import { DomainError } from '../../aggregates/shared/domain-error';
import { Clock } from '../../infrastructure/clock';
import type { MissedConnectionDoc } from '../../projections/proximity/missed-connections.projection';
import { Authenticated } from '../accounts/auth/authenticated.guard';
import type { AuthUser } from '../accounts/auth/auth-user';
import { CurrentUser } from '../accounts/auth/current-user.decorator';
import type { CommandContext } from '../common/command-executor';
import { type Envelope, ok, paged, type PagedEnvelope } from '../common/envelope';
import { bool, EnvelopeReply, list, num, obj, oneOf, QueryParam, ReadBody, Refusal } from '../common/openapi';
import { pageQuery, pageQuerySchemas } from '../common/paging';
import { RequestContext } from '../common/request-context';
import { socialPaths } from '../common/social-paths';
import { PagedReply } from '../social/social.replies';
import { AcceptMissedConnectionResponse, PostMissedConnection, RespondToMissedConnection, WithdrawMissedConnection } from './proximity.commands';
import {
  DEFAULT_RADIUS_M,
  MAX_RADIUS_M,
  MISSED_CONNECTION_BODY_SCHEMA,
  MISSED_CONNECTION_RESPONSE_BODY_SCHEMA,
  MISSED_SORTS,
  missedConnectionRequest,
  missedConnectionResponseRequest,
  nearQuery,
  pointQuery,
} from './missed-connections.requests';
import {
  type MissedConnectionDetail,
  MissedConnectionQueries,
  type MissedConnectionView,
  missedConnectionView,
  type MissedResponseView,
  missedResponseView,
  type NearbyMissedConnection,
} from './missed-connections.queries';
import { LOCATION_SUGGESTION, MISSED_CONNECTION, MISSED_CONNECTION_DETAIL, MISSED_RESPONSE, NEARBY_MISSED_CONNECTION } from './proximity.replies';

const MISSED_PAGE = { defaultLimit: 20, cap: 50 };
const COORDINATE_REFUSALS = '`lat and lon required`, `Invalid coordinates`, `Coordinates out of range`';

@Controller(socialPaths('encounters/missed-connections'))
@Authenticated()
export class MissedConnectionsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: MissedConnectionQueries,
    private readonly clock: Clock,
  ) {}

  private async existing(id: string): Promise<MissedConnectionDoc> {
    const doc = await this.queries.post(id);
    if (!doc) throw new DomainError('invalid', MISSED_CONNECTION_NOT_FOUND);
    return doc;
  }

  @Post()
  @HttpCode(201)
  @ReadBody(MISSED_CONNECTION_BODY_SCHEMA)
  @EnvelopeReply(201, MISSED_CONNECTION, 'the new missed connection; it expires 7 days after creation')
  @Refusal(400, `${COORDINATE_REFUSALS}, each field's check, was_at outside the past 7 days, more than 3 posts this UTC day`)
  async create(@Body() body: unknown, @CurrentUser() caller: AuthUser, @RequestContext() context: CommandContext): Promise<Envelope<MissedConnectionView>> {
    const d = await this.commands.execute(new PostMissedConnection({ posterId: caller.id, ...missedConnectionRequest(body) }, context));
    return ok(missedConnectionView({ _id: d.missed_connection_id, ...d, is_active: true, response_count: 0 }));
  }

  @Get()
  @PagedReply(NEARBY_MISSED_CONNECTION, 'active, unexpired posts within the radius, each with its distance label; never coordinates')
  @QueryParam('lat', num({ minimum: -90, maximum: 90, description: 'required' }))
  @QueryParam('lon', num({ minimum: -180, maximum: 180, description: 'required' }))
  @QueryParam('radius', num({ exclusiveMinimum: 0, maximum: MAX_RADIUS_M, default: DEFAULT_RADIUS_M, description: 'metres' }))
  @QueryParam('sort', oneOf(MISSED_SORTS, { default: 'recent' }))
  @QueryParam('limit', pageQuerySchemas(MISSED_PAGE).limit)
  @QueryParam('offset', pageQuerySchemas(MISSED_PAGE).offset)
  @Refusal(400, `${COORDINATE_REFUSALS}, a bad radius, sort, limit or offset`)
  async near(@Query() query: Record<string, unknown>): Promise<PagedEnvelope<NearbyMissedConnection>> {
    const { point, radius, sort } = nearQuery(query);
    const page = pageQuery(query, MISSED_PAGE);
    const { items, total } = await this.queries.near(point, radius, sort, page, this.clock.now());
    return paged(items, total, page);
  }

  @Get('mine')
  @PagedReply(MISSED_CONNECTION, "the caller's posts, inactive ones included, newest first")
  @QueryParam('limit', pageQuerySchemas(MISSED_PAGE).limit)
  @QueryParam('offset', pageQuerySchemas(MISSED_PAGE).offset)
  async mine(@Query() query: Record<string, unknown>, @CurrentUser() caller: AuthUser): Promise<PagedEnvelope<MissedConnectionView>> {
    const page = pageQuery(query, MISSED_PAGE);
    const { items, total } = await this.queries.mine(caller.id, page);
    return paged(items, total, page);
  }

  @Get('suggest-locations')
  @EnvelopeReply(200, list(LOCATION_SUGGESTION), 'up to 10 location names of active posts within 5 km, most used first')
  @QueryParam('lat', num({ minimum: -90, maximum: 90, description: 'required' }))
  @QueryParam('lon', num({ minimum: -180, maximum: 180, description: 'required' }))
  @Refusal(400, COORDINATE_REFUSALS)
  async suggestLocations(@Query() query: Record<string, unknown>): Promise<Envelope<Array<{ name: string; count: number }>>> {
    return ok(await this.queries.suggestLocations(pointQuery(query), this.clock.now()));
  }

  @Get(':id')
  @EnvelopeReply(200, MISSED_CONNECTION_DETAIL, 'the post, its poster, its responses with their responders, and whether the caller posted it')
  @Refusal(400, MISSED_CONNECTION_NOT_FOUND)
  async detail(@Param('id') id: string, @CurrentUser() caller: AuthUser): Promise<Envelope<MissedConnectionDetail>> {
    return ok(await this.queries.detail(await this.existing(id), caller.id));
  }

  @Delete(':id')
  @EnvelopeReply(200, obj({ deleted: bool() }), 'marked inactive (the poster only)')
  @Refusal(400, `${MISSED_CONNECTION_NOT_FOUND}, \`Not your missed connection\``)
  async withdraw(@Param('id') id: string, @CurrentUser() caller: AuthUser, @RequestContext() context: CommandContext): Promise<Envelope<{ deleted: true }>> {
    const doc = await this.existing(id);
    await this.commands.execute(new WithdrawMissedConnection({ missedConnectionId: id, callerId: caller.id, posterId: doc.user_id }, context));
    return ok({ deleted: true });
  }

  @Post(':id/respond')
  @HttpCode(201)
  @ReadBody(MISSED_CONNECTION_RESPONSE_BODY_SCHEMA)
  @EnvelopeReply(201, MISSED_RESPONSE, 'the pending response')
  @Refusal(400, `${MISSED_CONNECTION_NOT_FOUND}, the message's check, one's own post, an inactive or expired post, a second response`)
  async respond(@Param('id') id: string, @Body() body: unknown, @CurrentUser() caller: AuthUser, @RequestContext() context: CommandContext): Promise<Envelope<MissedResponseView>> {
    const { message } = missedConnectionResponseRequest(body);
    const doc = await this.existing(id);
    const d = await this.commands.execute(new RespondToMissedConnection({ missedConnectionId: id, responderId: caller.id, message, posterId: doc.user_id }, context));
    return ok(missedResponseView({ _id: d.response_id, ...d }));
  }

  @Post(':id/accept/:response_id')
  @HttpCode(200)
  @EnvelopeReply(200, MISSED_RESPONSE, 'the response, accepted; an encounter (context missed_connection) and 5 pulse each follow')
  @Refusal(400, `${MISSED_CONNECTION_NOT_FOUND}, \`Not your missed connection\`, ${RESPONSE_NOT_FOUND}, a response no longer pending`)
  async accept(
    @Param('id') id: string,
    @Param('response_id') responseId: string,
    @CurrentUser() caller: AuthUser,
    @RequestContext() context: CommandContext,
  ): Promise<Envelope<MissedResponseView>> {
    const doc = await this.existing(id);
    await this.commands.execute(new AcceptMissedConnectionResponse({ missedConnectionId: id, responseId, callerId: caller.id, posterId: doc.user_id }, context));
    const response = await this.queries.response(responseId);
    if (!response) throw new DomainError('invalid', RESPONSE_NOT_FOUND);
    return ok({ ...response, status: 'accepted' });
  }
}
