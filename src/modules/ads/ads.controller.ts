/**
 * The ads routes (social-routes §16) under /api/social/ads and /social/ads:
 * creating an ad (its budget held from the advertiser's spark), serving one,
 * charging views and clicks, the advertiser's ads, their analytics, and
 * completing an ad with the refund of its unspent budget.
 */
import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { AD_NOT_FOUND, AD_STATUSES, BUDGET_EXHAUSTED, CLICK_RATE_LIMITED, type ImpressionType, MINIMUM_BUDGET, VIEW_RATE_LIMITED } from '../../aggregates/ads/ad-unit';
import { DEFAULT_PLACEMENT, PLACEMENT_NAMES } from '../../aggregates/ads/placements';
import { INSUFFICIENT_SPARK } from '../../aggregates/contest/wallet';
import { DomainError } from '../../aggregates/shared/domain-error';
import { Clock } from '../../infrastructure/clock';
import { isAdminRole } from '../accounts/accounts.queries';
import { Authenticated, OptionalViewer } from '../accounts/auth/authenticated.guard';
import type { AuthUser } from '../accounts/auth/auth-user';
import { CurrentUser, Viewer } from '../accounts/auth/current-user.decorator';
import type { CommandContext } from '../common/command-executor';
import { type Envelope, ok } from '../common/envelope';
import { envelope, EnvelopeReply, list, obj, oneOf, QueryParam, ReadBody, Refusal, Reply, str } from '../common/openapi';
import { pageQuery, pageQuerySchemas } from '../common/paging';
import { RequestContext } from '../common/request-context';
import { socialPaths } from '../common/social-paths';
import { WITNESS_NONCE_REUSED } from './ad-witness';
import { ChargeAdImpression, CompleteAd, CreateAd } from './ads.commands';
import { type AdAnalytics, AdsQueries, type AdUnitView, type ImpressionView } from './ads.queries';
import { AD_UNIT, ANALYTICS, DELETED, IMPRESSION, SERVED } from './ads.replies';
import { CHARGE_BODY_SCHEMA, chargeRequest, CREATE_AD_BODY_SCHEMA, createAdRequest, serveRequest, statusQuery, TITLE_AND_URL_REQUIRED } from './ads.requests';

const MINE_PAGE = { defaultLimit: 25, cap: 100 };
const ID_SCHEMA = str({ pattern: '^[A-Za-z0-9_.:-]{1,128}$' });

const WITNESS_NONCE_REFUSAL = `\`${WITNESS_NONCE_REUSED}\`: the witness co-signature's nonce already witnessed a charge`;

/** `{success: true}` without data: nothing to serve (§0.1). */
type NoData = { success: true };

@Controller(socialPaths('ads'))
export class AdsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: AdsQueries,
    private readonly clock: Clock,
  ) {}

  @Post()
  @Authenticated()
  @ReadBody(CREATE_AD_BODY_SCHEMA)
  @EnvelopeReply(201, AD_UNIT, 'the new ad, active; its whole budget is held from your spark up front')
  @Refusal(400, `\`${TITLE_AND_URL_REQUIRED}\`, \`${MINIMUM_BUDGET}\`, \`${INSUFFICIENT_SPARK}\`, or a malformed field`)
  async create(@Body() body: unknown, @CurrentUser() caller: AuthUser, @RequestContext() context: CommandContext): Promise<Envelope<AdUnitView>> {
    const ad = createAdRequest(body);
    return ok(await this.commands.execute(new CreateAd({ advertiserId: caller.id, ad }, context)));
  }

  @Get('serve')
  @OptionalViewer()
  @QueryParam('placement', oneOf(PLACEMENT_NAMES, { default: DEFAULT_PLACEMENT }))
  @QueryParam('region', ID_SCHEMA)
  @QueryParam('community_id', ID_SCHEMA)
  @QueryParam('node_id', ID_SCHEMA)
  @Reply(
    200,
    { anyOf: [envelope(SERVED), obj({ success: { const: true } })] },
    'the active ad with the most remaining budget inside its window and matching every targeted dimension (region, community_id, the viewer’s user type), not one the signed-in viewer saw 3 times in the last hour; `{success: true}` without data when none',
  )
  @Refusal(400, 'an unknown placement or a malformed id')
  async serve(@Query() query: Record<string, unknown>, @Viewer() viewer: AuthUser | null): Promise<Envelope<{ ad: AdUnitView; placement: string }> | NoData> {
    const request = serveRequest(query);
    const ad = await this.queries.serve({
      viewerId: viewer?.id ?? null,
      userType: viewer ? await this.queries.userTypeOf(viewer.id) : null,
      region: request.region,
      communityId: request.communityId,
      now: this.clock.now(),
    });
    return ad ? ok({ ad, placement: request.placement }) : { success: true };
  }

  @Get('mine')
  @Authenticated()
  @QueryParam('status', oneOf(AD_STATUSES))
  @QueryParam('limit', pageQuerySchemas(MINE_PAGE).limit)
  @QueryParam('offset', pageQuerySchemas(MINE_PAGE).offset)
  @EnvelopeReply(200, list(AD_UNIT), 'your ads, newest first (no meta)')
  @Refusal(400, 'an unknown status, a limit or offset that is not a whole number')
  async mine(@Query() query: Record<string, unknown>, @CurrentUser() caller: AuthUser): Promise<Envelope<AdUnitView[]>> {
    const status = statusQuery(query.status);
    return ok(await this.queries.mine(caller.id, status, pageQuery(query, MINE_PAGE)));
  }

  @Post(':id/impression')
  @HttpCode(200)
  @Authenticated()
  @ReadBody(CHARGE_BODY_SCHEMA)
  @EnvelopeReply(200, IMPRESSION, 'the view, charged at cost_per_impression; with a node_id, its operator gets 90% of the cost when a peer co-signed it (POST /integrity/witness-impression), else 50%')
  @Refusal(404, `\`${AD_NOT_FOUND}\` (also when the ad is not active)`)
  @Refusal(429, `\`${VIEW_RATE_LIMITED}\` (3 views per user and ad in any hour), \`${BUDGET_EXHAUSTED}\` (the ad is exhausted)`)
  @Refusal(409, WITNESS_NONCE_REFUSAL)
  async impression(@Param('id') id: string, @Body() body: unknown, @CurrentUser() caller: AuthUser, @RequestContext() context: CommandContext): Promise<Envelope<ImpressionView>> {
    return ok(await this.charge(id, 'view', body, caller, context));
  }

  @Post(':id/click')
  @HttpCode(200)
  @Authenticated()
  @ReadBody(CHARGE_BODY_SCHEMA)
  @EnvelopeReply(200, IMPRESSION, 'the click, charged at cost_per_click; the same budget and revenue rules')
  @Refusal(404, `\`${AD_NOT_FOUND}\` (also when the ad is not active)`)
  @Refusal(429, `\`${CLICK_RATE_LIMITED}\` (1 click per user and ad in any hour), \`${BUDGET_EXHAUSTED}\``)
  @Refusal(409, WITNESS_NONCE_REFUSAL)
  async click(@Param('id') id: string, @Body() body: unknown, @CurrentUser() caller: AuthUser, @RequestContext() context: CommandContext): Promise<Envelope<ImpressionView>> {
    return ok(await this.charge(id, 'click', body, caller, context));
  }

  private charge(adId: string, type: ImpressionType, body: unknown, caller: AuthUser, context: CommandContext): Promise<ImpressionView> {
    const request = chargeRequest(body);
    return this.commands.execute(new ChargeAdImpression({ adId, type, userId: caller.id, ...request }, context));
  }

  @Get(':id/analytics')
  @Authenticated()
  @EnvelopeReply(200, ANALYTICS, 'for the advertiser (or an admin)')
  @Refusal(404, `\`${AD_NOT_FOUND}\`, also for anyone but the advertiser`)
  async analytics(@Param('id') id: string, @CurrentUser() caller: AuthUser): Promise<Envelope<AdAnalytics>> {
    const doc = await this.queries.unit(id);
    if (!doc || (doc.advertiser_id !== caller.id && !isAdminRole(caller.role))) throw new DomainError('not_found', AD_NOT_FOUND);
    return ok(await this.queries.analytics(doc));
  }

  @Delete(':id')
  @Authenticated()
  @EnvelopeReply(200, DELETED, 'the ad is completed and its unspent budget refunded to the advertiser’s spark')
  @Refusal(404, `\`${AD_NOT_FOUND}\`, also for anyone but the advertiser (or an admin) and for a completed ad`)
  async remove(@Param('id') id: string, @CurrentUser() caller: AuthUser, @RequestContext() context: CommandContext): Promise<Envelope<{ deleted: true; spark_refunded: number }>> {
    return ok(await this.commands.execute(new CompleteAd({ adId: id, by: caller.id, asAdmin: isAdminRole(caller.role) }, context)));
  }
}
