/** Ads (social-routes §16): ad units, serving, charged views and clicks, analytics, refunds. */
import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { CommonModule } from '../common/common.module';
import { IntegrityModule } from '../integrity/integrity.module';
import { AdsController } from './ads.controller';
import { ADS_COMMAND_HANDLERS } from './ads.handlers';
import { AdsQueries } from './ads.queries';

@Module({
  imports: [CommonModule, AccountsModule, IntegrityModule],
  controllers: [AdsController],
  providers: [AdsQueries, ...ADS_COMMAND_HANDLERS],
  exports: [AdsQueries],
})
export class AdsModule {}
