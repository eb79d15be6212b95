/** What every feature module uses: commands into events, the rate limits of its routes, and the node's identity key. */
import { Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import { NodeKey } from '../../infrastructure/node-identity/node-key';
import { CommandExecutor } from './command-executor';
import { RateLimitGuard, RateLimits } from './rate-limits/rate-limits';

/** The node's one Ed25519 key (configured, or DATA_DIR/node-key.pem): loaded once per process. */
const NODE_KEY = { provide: NodeKey, useFactory: (config: AppConfig) => NodeKey.load({ dataDir: config.dataDir, privateKey: config.integrity.nodePrivateKey }), inject: [APP_CONFIG] };

@Module({
  providers: [CommandExecutor, RateLimits, RateLimitGuard, NODE_KEY],
  exports: [CommandExecutor, RateLimits, RateLimitGuard, NodeKey],
})
export class CommonModule {}
