import { type DynamicModule, Module } from '@nestjs/common';
import type { AppConfig } from './config/config';
import type { ProcessRole } from './infrastructure/process-role';
import type { ProjectionDefinition } from './infrastructure/projections/projection';
import { InfrastructureModule } from './infrastructure/infrastructure.module';
import { AccountsModule } from './modules/accounts/accounts.module';
import { AdsModule } from './modules/ads/ads.module';
import { AgentsModule } from './modules/agents/agents.module';
import { AuditModule } from './modules/audit/audit.module';
import { FederationModule } from './modules/federation/federation.module';
import { FleetModule } from './modules/fleet/fleet.module';
import { IntegrityModule } from './modules/integrity/integrity.module';
import { SocialModule } from './modules/social/social.module';
import { ProximityModule } from './modules/proximity/proximity.module';
import { ResonanceModule } from './modules/resonance/resonance.module';
import { ReferralsModule } from './modules/referrals/referrals.module';
import { ExperimentsModule } from './modules/experiments/experiments.module';
import { SyncModule } from './modules/sync/sync.module';
import { ComputeModule } from './modules/compute/compute.module';
import { A2aModule } from './modules/a2a/a2a.module';
import { ChatModule } from './modules/chat/chat.module';
import { ScheduleModule } from './modules/chat/schedule/schedule.module';
import { ContestModule } from './modules/contest/contest.module';
import { EncounterModule } from './modules/encounter/encounter.module';
import { EncounterStreamModule } from './modules/encounter/stream/encounter-stream.module';
import { EmbedsModule } from './modules/embeds/embeds.module';
import { EngineModule } from './modules/engine/engine.module';
import { GamificationModule } from './modules/gamification/gamification.module';
import { GoalsModule } from './modules/goals/goals.module';
import { OpenAiModule } from './modules/openai/openai.module';
import { HealthModule } from './modules/health/health.module';
import { McpModule } from './modules/mcp/mcp.module';
import { MarketplaceModule } from './modules/marketplace/marketplace.module';
import { ContentModule } from './modules/content/content.module';
import { ALL_PROJECTIONS } from './projections';
import { PERSONAL_DATA } from './aggregates/personal-data';
import { SagasModule } from './sagas/sagas.module';

@Module({})
export class AppModule {
  /** `extraProjections`: run beside ALL_PROJECTIONS (the bench registers empty ones to show what a read model more costs). */
  static forRoot(config: AppConfig, role: ProcessRole = 'api', extraProjections: readonly ProjectionDefinition[] = []): DynamicModule {
    return {
      module: AppModule,
      imports: [
        InfrastructureModule.forRoot(config, role, [...ALL_PROJECTIONS, ...extraProjections], PERSONAL_DATA),
        HealthModule,
        AccountsModule,
        ContestModule,
        ComputeModule,
        EncounterModule,
        EncounterStreamModule,
        ChatModule,
        OpenAiModule,
        ScheduleModule,
        GoalsModule,
        McpModule,
        A2aModule,
        EmbedsModule,
        AuditModule,
        IntegrityModule,
        FederationModule,
        FleetModule,
        ContentModule,
        SocialModule,
        ProximityModule,
        ResonanceModule,
        SyncModule,
        AgentsModule,
        MarketplaceModule,
        EngineModule,
        GamificationModule,
        ReferralsModule,
        ExperimentsModule,
        AdsModule,
        SagasModule,
      ],
    };
  }
}
