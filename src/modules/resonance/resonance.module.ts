/** The social platform's wallet economy (social-routes §15): wallets, ledger, leaderboard, boosts, levels, streaks. */
import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { CommonModule } from '../common/common.module';
import { ResonanceController } from './resonance.controller';
import { RESONANCE_COMMAND_HANDLERS } from './resonance.handlers';
import { ResonanceQueries } from './resonance.queries';

@Module({
  imports: [CommonModule, AccountsModule],
  controllers: [ResonanceController],
  providers: [ResonanceQueries, ...RESONANCE_COMMAND_HANDLERS],
})
export class ResonanceModule {}
