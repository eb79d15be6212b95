/**
 * Ratings and trust (social-routes §15), under /api/social and /social. The
 * literal `context` segment of `/ratings/context/{type}/{id}` has more
 * segments than `/ratings/{user_id}…`, so the two never meet in the router.
 */
import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { DomainError } from '../../aggregates/shared/domain-error';
import { Authenticated, OptionalViewer } from '../accounts/auth/authenticated.guard';
import type { AuthUser } from '../accounts/auth/auth-user';
import { CurrentUser } from '../accounts/auth/current-user.decorator';
import type { CommandContext } from '../common/command-executor';
import { type Envelope, ok, paged, type PagedEnvelope } from '../common/envelope';
import { EnvelopeReply, list, pagedList, QueryParam, ReadBody, Refusal, Reply } from '../common/openapi';
import { pageQuery, pageQuerySchemas } from '../common/paging';
import { RequestContext } from '../common/request-context';
import { socialPaths } from '../common/social-paths';
import { RateUser } from './gamification.commands';
import { GamificationQueries, type RatingSummary, type RatingView, type TrustView } from './gamification.queries';
import { RATING, RATING_SUMMARY, TRUST_VIEW } from './gamification.replies';
import { RATING_BODY_SCHEMA, ratingRequest } from './gamification.requests';

const RATINGS_PAGE = { defaultLimit: 50, cap: 100 };
export const OWN_GIVEN_ONLY = 'Can only view your own given ratings';

@Controller(socialPaths('ratings'))
export class RatingsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: GamificationQueries,
  ) {}

  @Post()
  @HttpCode(200)
  @Authenticated()
  @ReadBody(RATING_BODY_SCHEMA)
  @EnvelopeReply(200, RATING, 'the rating; a repeat of (rater, rated, context, dimension) revises it. The weight is taken from the rater’s wallet signal now')
  @Refusal(400, '`Cannot rate yourself`, `rated_id is required`, `dimension must be one of …`, `score must be an integer from 1 to 5`')
  @Refusal(404, '`User not found`')
  async rate(@Body() body: unknown, @CurrentUser() caller: AuthUser, @RequestContext() context: CommandContext): Promise<Envelope<RatingView>> {
    const request = ratingRequest(body);
    return ok(await this.commands.execute(new RateUser({ raterId: caller.id, ...request }, context)));
  }

  @Get('context/:type/:id')
  @OptionalViewer()
  @EnvelopeReply(200, list(RATING), 'the ratings given in that context, most recent first (up to 200)')
  async ofContext(@Param('type') type: string, @Param('id') id: string): Promise<Envelope<RatingView[]>> {
    return ok(await this.queries.ofContext(type, id));
  }

  @Get(':user_id')
  @OptionalViewer()
  @EnvelopeReply(200, RATING_SUMMARY, 'weighted means per dimension and the composite; zeros when unrated')
  async summary(@Param('user_id') userId: string): Promise<Envelope<RatingSummary>> {
    return ok(await this.queries.summary(userId));
  }

  @Get(':user_id/received')
  @OptionalViewer()
  @QueryParam('limit', pageQuerySchemas(RATINGS_PAGE).limit)
  @QueryParam('offset', pageQuerySchemas(RATINGS_PAGE).offset)
  @Reply(200, pagedList(RATING), 'most recent first')
  async received(@Param('user_id') userId: string, @Query() query: { limit?: string; offset?: string }): Promise<PagedEnvelope<RatingView>> {
    return this.page({ rated_id: userId }, query);
  }

  @Get(':user_id/given')
  @Authenticated()
  @QueryParam('limit', pageQuerySchemas(RATINGS_PAGE).limit)
  @QueryParam('offset', pageQuerySchemas(RATINGS_PAGE).offset)
  @Reply(200, pagedList(RATING), 'most recent first')
  @Refusal(403, `\`${OWN_GIVEN_ONLY}\``)
  async given(@Param('user_id') userId: string, @Query() query: { limit?: string; offset?: string }, @CurrentUser() caller: AuthUser): Promise<PagedEnvelope<RatingView>> {
    if (userId !== caller.id) throw new DomainError('forbidden', OWN_GIVEN_ONLY);
    return this.page({ rater_id: caller.id }, query);
  }

  private async page(filter: Record<string, string>, query: { limit?: string; offset?: string }): Promise<PagedEnvelope<RatingView>> {
    const page = pageQuery(query, RATINGS_PAGE);
    const { items, total } = await this.queries.ratings(filter, page);
    return paged(items, total, page);
  }
}

@Controller(socialPaths('trust'))
export class TrustController {
  constructor(private readonly queries: GamificationQueries) {}

  @Get(':user_id')
  @OptionalViewer()
  @EnvelopeReply(200, TRUST_VIEW, 'the weighted means per dimension and the composite trust; zeros when unrated')
  @Refusal(404, '`User not found`')
  async trust(@Param('user_id') userId: string): Promise<Envelope<TrustView>> {
    return ok(await this.queries.trust(userId));
  }
}
