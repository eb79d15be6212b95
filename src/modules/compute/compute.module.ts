/**
 * Compute, in three concerns:
 * - node settings: node compute config and the peer node record, event-sourced
 *   per node and gossiped to peers (compute-settings.*, peer-gossip.ts);
 * - provider: the dashboards, joining, served compute and settlements
 *   (compute-provider.*);
 * - revenue: the revenue entries and dashboard (compute-revenue.*).
 * Commands and their handlers are shared (compute.commands.ts,
 * compute.handlers.ts), request DTOs and readers too (compute.requests.ts).
 */
import { Module } from '@nestjs/common';
import { COMPUTE_OVERRIDES, type ComputeOverrides } from '../../config/compute.config';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import { AccountsModule } from '../accounts/accounts.module';
import { CommonModule } from '../common/common.module';
import { COMPUTE_COMMAND_HANDLERS } from './compute.handlers';
import { ComputeProviderController } from './compute-provider.controller';
import { ComputeProviderQueries } from './compute-provider.queries';
import { ComputeRevenueController } from './compute-revenue.controller';
import { ComputeRevenueQueries } from './compute-revenue.queries';
import { ComputeSettingsController } from './compute-settings.controller';
import { ComputeSettingsQueries } from './compute-settings.queries';

@Module({
  imports: [CommonModule, AccountsModule],
  controllers: [ComputeSettingsController, ComputeProviderController, ComputeRevenueController],
  providers: [
    {
      provide: COMPUTE_OVERRIDES,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig): ComputeOverrides => config.compute,
    },
    ComputeSettingsQueries,
    ComputeProviderQueries,
    ComputeRevenueQueries,
    ...COMPUTE_COMMAND_HANDLERS,
  ],
  exports: [ComputeSettingsQueries, COMPUTE_OVERRIDES],
})
export class ComputeModule {}
