/**
 * Compute: node compute settings and the peer node record (event-sourced per
 * node, gossiped to peers), the provider dashboard, and the revenue dashboard.
 */
import { Module } from '@nestjs/common';
import { COMPUTE_OVERRIDES, type ComputeOverrides } from '../../config/compute.config';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import { AccountsModule } from '../accounts/accounts.module';
import { CommonModule } from '../common/common.module';
import {
  CompleteSettlementHandler,
  JoinComputeProviderHandler,
  RecordComputeServedHandler,
  RecordRevenueHandler,
  RequestSettlementHandler,
  UpdateComputeSettingsHandler,
} from './compute.handlers';
import { ComputeQueries } from './compute.queries';
import { ComputeSettingsController } from './compute-settings.controller';
import { RevenueController } from './revenue.controller';

@Module({
  imports: [CommonModule, AccountsModule],
  controllers: [ComputeSettingsController, RevenueController],
  providers: [
    {
      provide: COMPUTE_OVERRIDES,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig): ComputeOverrides => config.compute,
    },
    ComputeQueries,
    UpdateComputeSettingsHandler,
    JoinComputeProviderHandler,
    RecordComputeServedHandler,
    RequestSettlementHandler,
    CompleteSettlementHandler,
    RecordRevenueHandler,
  ],
  exports: [ComputeQueries, COMPUTE_OVERRIDES],
})
export class ComputeModule {}
