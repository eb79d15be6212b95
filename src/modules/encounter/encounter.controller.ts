/**
 * The encounter flow (SPEC §4.7) under /api/social/encounter and
 * /social/encounter. Every route needs a user; every 401 says
 * `unauthenticated`. The controller reads the body (encounter-requests.ts),
 * dispatches, and wraps the reply in `{success: true, data}`.
 */
import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { discoverableDecider, discoverableView, type DiscoverableView } from '../../aggregates/encounter/discoverable';
import { discoverableStreamId } from '../../aggregates/encounter/encounter.events';
import { ENCOUNTER_TOPICS } from '../../aggregates/encounter/encounter-messages';
import type { IcebreakerDraft } from '../../aggregates/encounter/icebreaker-draft';
import { Clock } from '../../infrastructure/clock';
import { Authenticated, UniformUnauthenticated } from '../accounts/auth/authenticated.guard';
import type { AuthUser } from '../accounts/auth/auth-user';
import { CurrentUser } from '../accounts/auth/current-user.decorator';
import { CommandExecutor, type CommandContext } from '../common/command-executor';
import { type Envelope, ok } from '../common/envelope';
import { RequestContext } from '../common/request-context';
import {
  approveRequest,
  declineRequest,
  discoverableRequest,
  matchIdRequest,
  registerPubkeyRequest,
  sightingRequest,
  swipeRequest,
} from './encounter-requests';
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
import { IcebreakerDrafting } from './icebreaker-drafting';
import type { MatchView } from '../../aggregates/encounter/encounter-messages';
import type { MapPin } from '../../projections/encounter/encounter-matches.projection';

@Controller(['api/social/encounter', 'social/encounter'])
@Authenticated()
@UniformUnauthenticated()
export class EncounterController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: EncounterQueries,
    private readonly executor: CommandExecutor,
    private readonly drafting: IcebreakerDrafting,
    private readonly clock: Clock,
  ) {}

  @Post('discoverable')
  @HttpCode(200)
  async setDiscoverable(
    @CurrentUser() user: AuthUser,
    @Body() body: unknown,
    @RequestContext() context: CommandContext,
  ): Promise<Envelope<DiscoverableReceipt>> {
    return ok(await this.commands.execute(new SetDiscoverable(user.id, discoverableRequest(body), context)));
  }

  @Get('discoverable')
  async discoverable(@CurrentUser() user: AuthUser): Promise<Envelope<DiscoverableView>> {
    const { state } = await this.executor.load(discoverableDecider, discoverableStreamId(user.id));
    return ok(discoverableView(state, this.clock.now()));
  }

  @Post('register-pubkey')
  @HttpCode(200)
  async registerPubkey(
    @CurrentUser() user: AuthUser,
    @Body() body: unknown,
    @RequestContext() context: CommandContext,
  ): Promise<Envelope<{ registered_at: number }>> {
    return ok(await this.commands.execute(new RegisterPubkey(user.id, registerPubkeyRequest(body), context)));
  }

  @Post('sighting')
  @HttpCode(200)
  async sighting(
    @CurrentUser() user: AuthUser,
    @Body() body: unknown,
    @RequestContext() context: CommandContext,
  ): Promise<Envelope<SightingCardReply>> {
    return ok(await this.commands.execute(new RecordSighting(user.id, sightingRequest(body), context)));
  }

  @Post('swipe')
  @HttpCode(200)
  async swipe(@CurrentUser() user: AuthUser, @Body() body: unknown, @RequestContext() context: CommandContext): Promise<Envelope<SwipeReply>> {
    const { sightingId, decision } = swipeRequest(body);
    return ok(await this.commands.execute(new Swipe(user.id, sightingId, decision, context)));
  }

  @Get('matches')
  async matches(@CurrentUser() user: AuthUser): Promise<Envelope<{ matches: MatchView[]; count: number }>> {
    const matches = await this.queries.matchesOf(user.id);
    return ok({ matches, count: matches.length });
  }

  @Get('map-pins')
  async mapPins(@CurrentUser() user: AuthUser): Promise<Envelope<{ pins: MapPin[]; count: number }>> {
    const pins = await this.queries.mapPinsOf(user.id);
    return ok({ pins, count: pins.length });
  }

  @Post('icebreaker/draft')
  @HttpCode(200)
  async draft(@CurrentUser() user: AuthUser, @Body() body: unknown): Promise<Envelope<IcebreakerDraft>> {
    return ok(await this.drafting.draft(user.id, matchIdRequest(body)));
  }

  @Post('icebreaker/approve')
  @HttpCode(200)
  async approve(
    @CurrentUser() user: AuthUser,
    @Body() body: unknown,
    @RequestContext() context: CommandContext,
  ): Promise<Envelope<{ match_id: string; status: 'sent' }>> {
    const { matchId, text } = approveRequest(body);
    return ok(await this.commands.execute(new ApproveIcebreaker(user.id, matchId, text, context)));
  }

  @Post('icebreaker/decline')
  @HttpCode(200)
  async decline(
    @CurrentUser() user: AuthUser,
    @Body() body: unknown,
    @RequestContext() context: CommandContext,
  ): Promise<Envelope<{ match_id: string; status: 'declined' }>> {
    const { matchId, reason } = declineRequest(body);
    return ok(await this.commands.execute(new DeclineIcebreaker(user.id, matchId, reason, context)));
  }

  @Get('topics')
  topics(): Envelope<{ topics: typeof ENCOUNTER_TOPICS }> {
    return ok({ topics: ENCOUNTER_TOPICS });
  }
}
