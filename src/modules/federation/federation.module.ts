/**
 * Federation (issue 17, item 2): the node registry and log export (central), the replicator (regional), the discovery descriptor;
 * and social-routes §19: the hierarchical sync queue (POST /hierarchy/sync, GET /sync/queue), federation between peers
 * (inbox, outbox, follow, pull, feed) and the peer network (/peers).
 */
import { Module } from '@nestjs/common';
import { RegionalReplicator } from '../../infrastructure/federation/regional-replicator';
import { AccountsModule } from '../accounts/accounts.module';
import { CommonModule } from '../common/common.module';
import { FleetModule } from '../fleet/fleet.module';
import { IntegrityModule } from '../integrity/integrity.module';
import { DiscoveryController } from './discovery.controller';
import { FederationController } from './federation.controller';
import { ApproveFederationNodeHandler, RegisterFederationNodeHandler } from './federation.handlers';
import { FederationQueries } from './federation.queries';
import { FederationNetworkController } from './federation-network.controller';
import {
  AddFollowerHandler,
  AnnouncePeerHandler,
  EnqueueSyncItemHandler,
  FollowPeerHandler,
  LearnPeersHandler,
  ReceiveFederatedPostHandler,
  ReceiveSyncBatchHandler,
  SettleSyncBatchHandler,
  StartSyncBatchHandler,
  UnfollowPeerHandler,
} from './federation-sync.handlers';
import { FederationSyncQueries } from './federation-sync.queries';
import { HierarchySyncController, SyncQueueController } from './hierarchy-sync.controller';
import { PeersController } from './peers.controller';
import { HierarchySyncEffects } from './hierarchy-sync-effects';
import { RegionalWriteApplier } from './regional-write-applier';
import { RegionalWrites } from './regional-writes';
import { SelfSignedRegistrationGuard } from './self-signed.guard';

@Module({
  imports: [CommonModule, AccountsModule, IntegrityModule, FleetModule],
  controllers: [FederationController, DiscoveryController, HierarchySyncController, SyncQueueController, FederationNetworkController, PeersController],
  providers: [
    FederationQueries,
    SelfSignedRegistrationGuard,
    RegisterFederationNodeHandler,
    ApproveFederationNodeHandler,
    RegionalReplicator,
    RegionalWrites,
    RegionalWriteApplier,
    HierarchySyncEffects,
    FederationSyncQueries,
    EnqueueSyncItemHandler,
    StartSyncBatchHandler,
    SettleSyncBatchHandler,
    ReceiveSyncBatchHandler,
    ReceiveFederatedPostHandler,
    FollowPeerHandler,
    UnfollowPeerHandler,
    AddFollowerHandler,
    AnnouncePeerHandler,
    LearnPeersHandler,
  ],
  exports: [FederationSyncQueries, RegionalWrites],
})
export class FederationModule {}
