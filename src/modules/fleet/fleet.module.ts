/** Fleet and hierarchy (social-routes §18): node tiers and regions, fleet commands, the upgrade to central, provision records. */
import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { CommonModule } from '../common/common.module';
import { SelfSignedRegistrationGuard } from '../federation/self-signed.guard';
import { IntegrityModule } from '../integrity/integrity.module';
import { CentralTierGuard, FleetSignedGuard } from './fleet.guards';
import {
  AssignRegionHandler,
  DecommissionProvisionedNodeHandler,
  DemoteNodeHandler,
  PlanProvisionUpdateHandler,
  PromoteNodeHandler,
  RecordDeployHandler,
  RegisterFleetNodeHandler,
  ReportCapacityHandler,
  UpgradeToCentralHandler,
} from './fleet.handlers';
import { FleetQueries } from './fleet.queries';
import { HierarchyController } from './hierarchy.controller';
import { ProvisionController } from './provision.controller';
import { UpgradeChallenges } from './upgrade-challenges';
import { READ_STORE, type ReadStore } from '../../infrastructure/read-store/read-store.port';

@Module({
  imports: [CommonModule, AccountsModule, IntegrityModule],
  controllers: [HierarchyController, ProvisionController],
  providers: [
    FleetQueries,
    CentralTierGuard,
    FleetSignedGuard,
    SelfSignedRegistrationGuard,
    { provide: UpgradeChallenges, useFactory: (readStore: ReadStore) => new UpgradeChallenges(readStore), inject: [READ_STORE] },
    RegisterFleetNodeHandler,
    AssignRegionHandler,
    ReportCapacityHandler,
    PromoteNodeHandler,
    DemoteNodeHandler,
    UpgradeToCentralHandler,
    RecordDeployHandler,
    PlanProvisionUpdateHandler,
    DecommissionProvisionedNodeHandler,
  ],
  exports: [FleetQueries],
})
export class FleetModule {}
