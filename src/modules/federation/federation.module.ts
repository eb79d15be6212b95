/** Federation (issue 17, item 2): the node registry and log export (central), the replicator (regional), the discovery descriptor. */
import { Module } from '@nestjs/common';
import { RegionalReplicator } from '../../infrastructure/federation/regional-replicator';
import { AccountsModule } from '../accounts/accounts.module';
import { CommonModule } from '../common/common.module';
import { IntegrityModule } from '../integrity/integrity.module';
import { DiscoveryController } from './discovery.controller';
import { FederationController } from './federation.controller';
import { ApproveFederationNodeHandler, RegisterFederationNodeHandler } from './federation.handlers';
import { FederationQueries } from './federation.queries';
import { SelfSignedRegistrationGuard } from './self-signed.guard';

@Module({
  imports: [CommonModule, AccountsModule, IntegrityModule],
  controllers: [FederationController, DiscoveryController],
  providers: [FederationQueries, SelfSignedRegistrationGuard, RegisterFederationNodeHandler, ApproveFederationNodeHandler, RegionalReplicator],
})
export class FederationModule {}
