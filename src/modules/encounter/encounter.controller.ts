/**
 * The encounter flow (SPEC §4.7) under /api/social/encounter and
 * /social/encounter. Every route needs a user; every 401 says
 * `unauthenticated`. The controller reads the body (encounter.requests.ts),
 * dispatches a command or asks a query, and wraps the reply in
 * `{success: true, data}`.
 */
import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { DiscoverableView } from '../../aggregates/encounter/discoverable';
import { ENCOUNTER_TOPICS, type MatchView } from '../../aggregates/encounter/encounter-messages';
import type { IcebreakerDraft } from '../../aggregates/encounter/icebreaker-draft';
import type { MapPin } from '../../projections/encounter/encounter-matches.projection';
import { Authenticated, UniformUnauthenticated } from '../accounts/auth/authenticated.guard';
import type { AuthUser } from '../accounts/auth/auth-user';
import { CurrentUser } from '../accounts/auth/current-user.decorator';
import type { CommandContext } from '../common/command-executor';
import { type Envelope, ok } from '../common/envelope';
import { RequestContext } from '../common/request-context';
import {
  ApproveIcebreaker,
  DeclineIcebreaker,
  type DiscoverableReceipt,
  RecordSighting,
  RegisterPubkey,
  SetDiscoverable,
  type SightingCardReply,
  Swipe,
  type SwipeReply,
} from './encounter.commands';
import { EncounterQueries } from './encounter.queries';
import {
  APPROVE_BODY_SCHEMA,
  approveRequest,
  DECLINE_BODY_SCHEMA,
  declineRequest,
  DISCOVERABLE_BODY_SCHEMA,
  discoverableRequest,
  MATCH_ID_BODY_SCHEMA,
  matchIdRequest,
  REGISTER_PUBKEY_BODY_SCHEMA,
  registerPubkeyRequest,
  SIGHTING_BODY_SCHEMA,
  sightingRequest,
  SWIPE_BODY_SCHEMA,
  swipeRequest,
} from './encounter.requests';
import { EnvelopeReply, ReadBody, Refusal } from '../common/openapi';
import { DISCOVERABLE_RECEIPT, DISCOVERABLE_VIEW, ICEBREAKER_DECLINED, ICEBREAKER_DRAFT, ICEBREAKER_SENT, MAP_PINS, MATCHES, PUBKEY_RECEIPT, SIGHTING_CARD, SWIPE_RECEIPT, TOPICS } from './encounter.replies';

@Controller(['api/social/encounter', 'social/encounter'])
@Authenticated()
@UniformUnauthenticated()
export class EncounterController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: EncounterQueries,
  ) {}

  @Post('discoverable')
  @HttpCode(200)
  @ReadBody(DISCOVERABLE_BODY_SCHEMA)
  @EnvelopeReply(200, DISCOVERABLE_RECEIPT)
  @Refusal(403, 'enabling without `age_claim_18: true` in the request')
  @Refusal(429, 'too many toggles in 24 h')
  async setDiscoverable(
    @CurrentUser() user: AuthUser,
    @Body() body: unknown,
    @RequestContext() context: CommandContext,
  ): Promise<Envelope<DiscoverableReceipt>> {
    return ok(await this.commands.execute(new SetDiscoverable({ userId: user.id, ...discoverableRequest(body) }, context)));
  }

  @Get('discoverable')
  @EnvelopeReply(200, DISCOVERABLE_VIEW)
  async discoverable(@CurrentUser() user: AuthUser): Promise<Envelope<DiscoverableView>> {
    return ok(await this.queries.discoverableOf(user.id));
  }

  @Post('register-pubkey')
  @HttpCode(200)
  @ReadBody(REGISTER_PUBKEY_BODY_SCHEMA)
  @EnvelopeReply(200, PUBKEY_RECEIPT)
  @Refusal(409, '`pubkey already registered` (by another user)')
  async registerPubkey(
    @CurrentUser() user: AuthUser,
    @Body() body: unknown,
    @RequestContext() context: CommandContext,
  ): Promise<Envelope<{ registered_at: number }>> {
    return ok(await this.commands.execute(new RegisterPubkey({ userId: user.id, ...registerPubkeyRequest(body) }, context)));
  }

  @Post('sighting')
  @HttpCode(200)
  @ReadBody(SIGHTING_BODY_SCHEMA)
  @EnvelopeReply(200, SIGHTING_CARD)
  @Refusal(404, 'no discoverable peer with that key')
  async sighting(
    @CurrentUser() user: AuthUser,
    @Body() body: unknown,
    @RequestContext() context: CommandContext,
  ): Promise<Envelope<SightingCardReply>> {
    return ok(await this.commands.execute(new RecordSighting({ userId: user.id, ...sightingRequest(body) }, context)));
  }

  @Post('swipe')
  @HttpCode(200)
  @ReadBody(SWIPE_BODY_SCHEMA)
  @EnvelopeReply(200, SWIPE_RECEIPT)
  @Refusal(404, 'unknown sighting')
  async swipe(@CurrentUser() user: AuthUser, @Body() body: unknown, @RequestContext() context: CommandContext): Promise<Envelope<SwipeReply>> {
    return ok(await this.commands.execute(new Swipe({ userId: user.id, ...swipeRequest(body) }, context)));
  }

  @Get('matches')
  @EnvelopeReply(200, MATCHES, 'latest first')
  async matches(@CurrentUser() user: AuthUser): Promise<Envelope<{ matches: MatchView[]; count: number }>> {
    const matches = await this.queries.matchesOf(user.id);
    return ok({ matches, count: matches.length });
  }

  @Get('map-pins')
  @EnvelopeReply(200, MAP_PINS)
  async mapPins(@CurrentUser() user: AuthUser): Promise<Envelope<{ pins: MapPin[]; count: number }>> {
    const pins = await this.queries.mapPinsOf(user.id);
    return ok({ pins, count: pins.length });
  }

  @Post('icebreaker/draft')
  @HttpCode(200)
  @ReadBody(MATCH_ID_BODY_SCHEMA)
  @EnvelopeReply(200, ICEBREAKER_DRAFT)
  @Refusal(403, 'on a central node, no active cloud drafting consent')
  @Refusal(404, 'unknown match, or not the caller’s')
  async draft(@CurrentUser() user: AuthUser, @Body() body: unknown): Promise<Envelope<IcebreakerDraft>> {
    return ok(await this.queries.icebreakerDraft(user.id, matchIdRequest(body)));
  }

  @Post('icebreaker/approve')
  @HttpCode(200)
  @ReadBody(APPROVE_BODY_SCHEMA)
  @EnvelopeReply(200, ICEBREAKER_SENT)
  @Refusal(404, 'unknown match, or not the caller’s')
  async approve(
    @CurrentUser() user: AuthUser,
    @Body() body: unknown,
    @RequestContext() context: CommandContext,
  ): Promise<Envelope<{ match_id: string; status: 'sent' }>> {
    return ok(await this.commands.execute(new ApproveIcebreaker({ callerId: user.id, ...approveRequest(body) }, context)));
  }

  @Post('icebreaker/decline')
  @HttpCode(200)
  @ReadBody(DECLINE_BODY_SCHEMA)
  @EnvelopeReply(200, ICEBREAKER_DECLINED)
  @Refusal(404, 'unknown match, or not the caller’s')
  async decline(
    @CurrentUser() user: AuthUser,
    @Body() body: unknown,
    @RequestContext() context: CommandContext,
  ): Promise<Envelope<{ match_id: string; status: 'declined' }>> {
    return ok(await this.commands.execute(new DeclineIcebreaker({ callerId: user.id, ...declineRequest(body) }, context)));
  }

  @Get('topics')
  @EnvelopeReply(200, TOPICS)
  topics(): Envelope<{ topics: typeof ENCOUNTER_TOPICS }> {
    return ok({ topics: ENCOUNTER_TOPICS });
  }
}
