/** Commands of the marketplace context (social-routes §22): listing an agent for hire, hiring it, reviewing it. */
import type { Actor } from '../../aggregates/agents/task';
import type { ListingCategory } from '../../aggregates/marketplace/listing';
import { DomainCommand } from '../common/domain-command';

export interface ListingInput {
  agentId: string;
  title: string;
  description: string;
  category: ListingCategory;
  priceSpark: number;
}

/** The caller lists one of their agents; answers the new listing's id. */
export class CreateListing extends DomainCommand<{ actor: Actor; input: ListingInput }, { id: string }> {}

export class HireListing extends DomainCommand<{ listingId: string; userId: string }, { listing_id: string; hire_count: number }> {}

export class ReviewListing extends DomainCommand<{ listingId: string; userId: string; rating: number; comment: string }, { rating_avg: number; review_count: number }> {}
