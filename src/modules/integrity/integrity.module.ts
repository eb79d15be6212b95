/**
 * Integrity: the node's Ed25519 identity, signed node-to-node requests and
 * the §20 answers built on them (the key itself is CommonModule's). Exports the guard and its parts
 * for other node-to-node contexts (federation).
 */
import { Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import { NodeKey } from '../../infrastructure/node-identity/node-key';
import { ReadStoreNonceStore } from '../../infrastructure/node-identity/read-store-nonce-store';
import { READ_STORE, type ReadStore } from '../../infrastructure/read-store/read-store.port';
import { AccountsModule } from '../accounts/accounts.module';
import { CommonModule } from '../common/common.module';
import { ChangeNodeStandingHandler, EvaluateChallengeResponseHandler, IssueIntegrityChallengeHandler } from './integrity.handlers';
import { IntegrityController } from './integrity.controller';
import { IntegrityOversightController } from './integrity-oversight.controller';
import { AuditNodeHandler, RegisterRegistryNodeHandler, ReviewIntegrityAlertHandler } from './integrity-oversight.handlers';
import { IntegrityOversightQueries } from './integrity-oversight.queries';
import { RegistryOnlyGuard } from './registry-only.guard';
import { ImpressionWitness } from './witness.service';
import { SelfSignedRegistrationGuard } from '../federation/self-signed.guard';
import { ChallengeAnswers } from './challenge-answers';
import { ChallengeRounds } from './challenge-rounds';
import { IntegrityQueries } from './integrity.queries';
import { ConfiguredNodeKeys } from './node-keys';
import { NODE_KEY_DIRECTORY, NONCE_STORE, NodeSignatureGuard } from './node-signature.guard';

@Module({
  imports: [CommonModule, AccountsModule],
  controllers: [IntegrityController, IntegrityOversightController],
  providers: [
    { provide: NODE_KEY_DIRECTORY, useFactory: (config: AppConfig, key: NodeKey, readStore: ReadStore) => new ConfiguredNodeKeys(config, key, readStore), inject: [APP_CONFIG, NodeKey, READ_STORE] },
    { provide: NONCE_STORE, useFactory: (readStore: ReadStore) => new ReadStoreNonceStore(readStore), inject: [READ_STORE] },
    NodeSignatureGuard,
    IntegrityQueries,
    ChallengeAnswers,
    ChallengeRounds,
    IssueIntegrityChallengeHandler,
    EvaluateChallengeResponseHandler,
    ChangeNodeStandingHandler,
    IntegrityOversightQueries,
    ImpressionWitness,
    RegistryOnlyGuard,
    SelfSignedRegistrationGuard,
    AuditNodeHandler,
    ReviewIntegrityAlertHandler,
    RegisterRegistryNodeHandler,
  ],
  exports: [NODE_KEY_DIRECTORY, NONCE_STORE, NodeSignatureGuard, IntegrityQueries, IntegrityOversightQueries],
})
export class IntegrityModule {}
