/** Referrals and share links (social-routes §14): codes, referrals, their activation. */
import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { CommonModule } from '../common/common.module';
import { ReferralsController } from './referrals.controller';
import { CheckReferralActivationHandler, IssueReferralCodeHandler, UseReferralCodeHandler } from './referrals.handlers';
import { ReferralsQueries } from './referrals.queries';

@Module({
  imports: [CommonModule, AccountsModule],
  controllers: [ReferralsController],
  providers: [ReferralsQueries, IssueReferralCodeHandler, UseReferralCodeHandler, CheckReferralActivationHandler],
  exports: [ReferralsQueries],
})
export class ReferralsModule {}
