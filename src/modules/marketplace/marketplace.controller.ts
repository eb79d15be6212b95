/**
 * The agent marketplace's listings (social-routes §22 "Marketplace"), under
 * /api/social/marketplace and /social/marketplace beside the agents
 * context's GET /marketplace/agents and the recipes' /marketplace/recipes.
 */
import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { LISTING_CATEGORIES, type ListingCategory } from '../../aggregates/marketplace/listing';
import { DomainError } from '../../aggregates/shared/domain-error';
import { isAdminRole } from '../accounts/accounts.queries';
import { Authenticated, OptionalViewer } from '../accounts/auth/authenticated.guard';
import type { AuthUser } from '../accounts/auth/auth-user';
import { CurrentUser } from '../accounts/auth/current-user.decorator';
import type { CommandContext } from '../common/command-executor';
import { type Envelope, ok, paged, type PagedEnvelope } from '../common/envelope';
import { EnvelopeReply, int, list, num, obj, oneOf, QueryParam, ReadBody, Refusal, str } from '../common/openapi';
import { pageQuery, pageQuerySchemas } from '../common/paging';
import { RequestContext } from '../common/request-context';
import { socialPaths } from '../common/social-paths';
import { PagedReply } from '../content/content.replies';
import { searchQuery } from '../content/search.controller';
import { CreateListing, HireListing, ReviewListing } from './marketplace.commands';
import { type ListingView, MarketplaceQueries, type ReviewView } from './marketplace.queries';
import { LISTING_BODY_SCHEMA, listingRequest, REVIEW_BODY_SCHEMA, reviewRequest } from './marketplace.requests';

const LISTINGS_PAGE = { defaultLimit: 20, cap: 50 };

const CATEGORY_NAMES: Readonly<Record<ListingCategory, string>> = {
  content_creation: 'Content Creation',
  analysis_research: 'Analysis & Research',
  learning_tutoring: 'Learning & Tutoring',
  game_design: 'Game Design',
  creative: 'Creative',
  custom: 'Custom',
};

const LISTING = obj({
  id: str(),
  agent_id: str(),
  owner_id: str(),
  title: str({ description: 'HTML-escaped' }),
  description: str({ description: 'HTML-escaped' }),
  category: oneOf(LISTING_CATEGORIES),
  price_spark: num({ minimum: 0 }),
  hire_count: int(),
  rating_avg: num({ description: 'mean rating, 2 decimals; 0 without reviews' }),
  review_count: int(),
  created_at: str(),
});
const REVIEW = obj({ id: str(), listing_id: str(), user_id: str(), rating: int({ minimum: 1, maximum: 5 }), comment: str({ description: 'HTML-escaped' }), created_at: str() });

function categoryQuery(value: unknown): ListingCategory | null {
  if (value === undefined || value === '') return null;
  if (typeof value !== 'string' || !(LISTING_CATEGORIES as readonly string[]).includes(value)) throw new DomainError('invalid', `category must be one of ${LISTING_CATEGORIES.join(', ')}`);
  return value as ListingCategory;
}

@Controller(socialPaths('marketplace'))
export class MarketplaceController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: MarketplaceQueries,
  ) {}

  @Get('categories')
  @OptionalViewer()
  @EnvelopeReply(200, list(obj({ id: oneOf(LISTING_CATEGORIES), name: str() })), 'the listing categories (no meta)')
  categories(): Envelope<{ id: ListingCategory; name: string }[]> {
    return ok(LISTING_CATEGORIES.map((id) => ({ id, name: CATEGORY_NAMES[id] })));
  }

  @Get('listings')
  @OptionalViewer()
  @QueryParam('q', str({ maxLength: 200, description: 'case-insensitive substring of title or description, taken literally' }))
  @QueryParam('category', oneOf(LISTING_CATEGORIES))
  @QueryParam('limit', pageQuerySchemas(LISTINGS_PAGE).limit)
  @QueryParam('offset', pageQuerySchemas(LISTINGS_PAGE).offset)
  @PagedReply(LISTING, 'best rated first, then most hired, then newest')
  @Refusal(400, 'an unknown category, a q over 200 characters, a non-numeric limit or offset')
  async list(@Query() query: Record<string, unknown>): Promise<PagedEnvelope<ListingView>> {
    const page = pageQuery(query, LISTINGS_PAGE);
    const q = query.q === undefined || (typeof query.q === 'string' && query.q.trim() === '') ? null : searchQuery(query.q);
    const { items, total } = await this.queries.listings({ q, category: categoryQuery(query.category) }, page);
    return paged(items, total, page);
  }

  @Post('listings')
  @HttpCode(201)
  @Authenticated()
  @ReadBody(LISTING_BODY_SCHEMA)
  @EnvelopeReply(201, LISTING, 'the new listing (hire_count 0, rating_avg 0)')
  @Refusal(400, '`agent_id and title required`; an unknown category; `price_spark must be at least 0`')
  @Refusal(403, '`Not your agent`')
  @Refusal(404, '`Agent not found`')
  async create(@CurrentUser() user: AuthUser, @Body() body: unknown, @RequestContext() context: CommandContext): Promise<Envelope<ListingView>> {
    const input = listingRequest(body);
    const { id } = await this.commands.execute(new CreateListing({ actor: { id: user.id, isAdmin: isAdminRole(user.role) }, input }, context));
    return ok(await this.queries.listing(id));
  }

  @Get('listings/:id')
  @OptionalViewer()
  @EnvelopeReply(200, LISTING)
  @Refusal(404, '`Listing not found`')
  async one(@Param('id') id: string): Promise<Envelope<ListingView>> {
    return ok(await this.queries.listing(id));
  }

  @Post('listings/:id/hire')
  @HttpCode(200)
  @Authenticated()
  @EnvelopeReply(200, obj({ listing_id: str(), hire_count: int({ description: 'after this hire' }) }), 'adds 1 to hire_count')
  @Refusal(404, '`Listing not found`')
  async hire(@CurrentUser() user: AuthUser, @Param('id') id: string, @RequestContext() context: CommandContext): Promise<Envelope<{ listing_id: string; hire_count: number }>> {
    return ok(await this.commands.execute(new HireListing({ listingId: id, userId: user.id }, context)));
  }

  @Get('listings/:id/reviews')
  @OptionalViewer()
  @QueryParam('limit', pageQuerySchemas(LISTINGS_PAGE).limit)
  @QueryParam('offset', pageQuerySchemas(LISTINGS_PAGE).offset)
  @PagedReply(REVIEW, 'newest first')
  @Refusal(404, '`Listing not found`')
  async reviews(@Param('id') id: string, @Query() query: Record<string, unknown>): Promise<PagedEnvelope<ReviewView>> {
    const page = pageQuery(query, LISTINGS_PAGE);
    const { items, total } = await this.queries.reviews(id, page);
    return paged(items, total, page);
  }

  @Post('listings/:id/reviews')
  @HttpCode(201)
  @Authenticated()
  @ReadBody(REVIEW_BODY_SCHEMA)
  @EnvelopeReply(201, obj({ review: REVIEW, rating_avg: num(), review_count: int() }), 'the review and the listing’s new mean rating')
  @Refusal(400, '`rating must be an integer from 1 to 5`')
  @Refusal(404, '`Listing not found`')
  @Refusal(409, '`Already reviewed this listing`')
  async review(
    @CurrentUser() user: AuthUser,
    @Param('id') id: string,
    @Body() body: unknown,
    @RequestContext() context: CommandContext,
  ): Promise<Envelope<{ review: ReviewView | null; rating_avg: number; review_count: number }>> {
    const request = reviewRequest(body);
    const outcome = await this.commands.execute(new ReviewListing({ listingId: id, userId: user.id, ...request }, context));
    return ok({ review: await this.queries.review(`${id}:${user.id}`), ...outcome });
  }
}
