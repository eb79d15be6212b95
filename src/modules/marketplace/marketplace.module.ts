/** The agent marketplace (social-routes §22 "Marketplace"): listings of agents for hire, hires and reviews. */
import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { CommonModule } from '../common/common.module';
import { MarketplaceController } from './marketplace.controller';
import { CreateListingHandler, HireListingHandler, ReviewListingHandler } from './marketplace.handlers';
import { MarketplaceQueries } from './marketplace.queries';

@Module({
  imports: [CommonModule, AccountsModule],
  controllers: [MarketplaceController],
  providers: [MarketplaceQueries, CreateListingHandler, HireListingHandler, ReviewListingHandler],
})
export class MarketplaceModule {}
