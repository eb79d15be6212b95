/**
 * Command handlers of the marketplace (social-routes §22). A listing names an
 * agent the caller owns (the agent's stream decides: 404 `Agent not found`,
 * 403 `Not your agent`); hires and reviews are decided on the listing's
 * stream, which serialises them.
 */
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { agentDecider, agentStreamId } from '../../aggregates/agents/agent';
import { listingDecider, listingStreamId } from '../../aggregates/marketplace/listing';
import { ownedBy } from '../agents/agents.handlers';
import { CommandExecutor } from '../common/command-executor';
import { randomHex } from '../common/random-ids';
import { CreateListing, HireListing, ReviewListing } from './marketplace.commands';

@CommandHandler(CreateListing)
export class CreateListingHandler implements ICommandHandler<CreateListing> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ payload, context }: CreateListing): Promise<{ id: string }> {
    const { input, actor } = payload;
    const agent = ownedBy((await this.executor.load(agentDecider, agentStreamId(input.agentId))).state, actor);
    const id = randomHex(10);
    const listing = {
      id,
      agent_id: agent.agentUserId,
      owner_id: agent.ownerId ?? agent.agentUserId,
      title: input.title,
      description: input.description,
      category: input.category,
      price_spark: input.priceSpark,
    };
    await this.executor.execute(listingDecider, listingStreamId(id), { kind: 'create', listing }, context, { newStream: true });
    return { id };
  }
}

@CommandHandler(HireListing)
export class HireListingHandler implements ICommandHandler<HireListing> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ payload, context }: HireListing): Promise<{ listing_id: string; hire_count: number }> {
    // many hires of one listing may arrive at once: each is decided on the count the previous left
    const { state } = await this.executor.execute(listingDecider, listingStreamId(payload.listingId), { kind: 'hire', userId: payload.userId }, context, { maxRetries: 20 });
    return { listing_id: payload.listingId, hire_count: state.status === 'listed' ? state.hireCount : 0 };
  }
}

@CommandHandler(ReviewListing)
export class ReviewListingHandler implements ICommandHandler<ReviewListing> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ payload, context }: ReviewListing): Promise<{ rating_avg: number; review_count: number }> {
    const { listingId, userId, rating, comment } = payload;
    const { events } = await this.executor.execute(listingDecider, listingStreamId(listingId), { kind: 'review', review: { user_id: userId, rating, comment } }, context);
    const reviewed = events.find((e) => e.type === 'ListingReviewed');
    return reviewed?.type === 'ListingReviewed' ? { rating_avg: reviewed.data.rating_avg, review_count: reviewed.data.review_count } : { rating_avg: 0, review_count: 0 };
  }
}
