/** What every feature module uses: commands into events, and the rate limits of its routes. */
import { Module } from '@nestjs/common';
import { CommandExecutor } from './command-executor';
import { NodeSigningKey } from './node-signing-key';
import { RateLimitGuard, RateLimits } from './rate-limits/rate-limits';

@Module({
  providers: [CommandExecutor, RateLimits, RateLimitGuard, NodeSigningKey],
  exports: [CommandExecutor, RateLimits, RateLimitGuard, NodeSigningKey],
})
export class CommonModule {}
