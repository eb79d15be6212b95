/**
 * Integrity: the node's Ed25519 identity, signed node-to-node requests and
 * the §20 answers built on them. Exports the key, the guard and its parts
 * for other node-to-node contexts (federation).
 */
import { Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import { NodeKey } from '../../infrastructure/node-identity/node-key';
import { ReadStoreNonceStore } from '../../infrastructure/node-identity/read-store-nonce-store';
import { READ_STORE, type ReadStore } from '../../infrastructure/read-store/read-store.port';
import { AccountsModule } from '../accounts/accounts.module';
import { CommonModule } from '../common/common.module';
import { EvaluateChallengeResponseHandler, IssueIntegrityChallengeHandler } from './integrity.handlers';
import { IntegrityController } from './integrity.controller';
import { IntegrityQueries } from './integrity.queries';
import { ConfiguredNodeKeys } from './node-keys';
import { NODE_KEY_DIRECTORY, NONCE_STORE, NodeSignatureGuard } from './node-signature.guard';

@Module({
  imports: [CommonModule, AccountsModule],
  controllers: [IntegrityController],
  providers: [
    { provide: NodeKey, useFactory: (config: AppConfig) => NodeKey.load({ dataDir: config.dataDir, privateKey: config.integrity.nodePrivateKey }), inject: [APP_CONFIG] },
    { provide: NODE_KEY_DIRECTORY, useFactory: (config: AppConfig, key: NodeKey) => new ConfiguredNodeKeys(config, key), inject: [APP_CONFIG, NodeKey] },
    { provide: NONCE_STORE, useFactory: (readStore: ReadStore) => new ReadStoreNonceStore(readStore), inject: [READ_STORE] },
    NodeSignatureGuard,
    IntegrityQueries,
    IssueIntegrityChallengeHandler,
    EvaluateChallengeResponseHandler,
  ],
  exports: [NodeKey, NODE_KEY_DIRECTORY, NONCE_STORE, NodeSignatureGuard],
})
export class IntegrityModule {}
