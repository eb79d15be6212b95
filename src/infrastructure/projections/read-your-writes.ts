/**
 * Read-your-writes for REST clients (DESIGN.md §4): after a command appended
 * events up to position P, wait (bounded) until every projection that applies
 * one of those event types has reached P.
 */
import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import { ProjectionRegistry } from './projection-registry';
import { ProjectionRunner } from './projection-runner';

@Injectable()
export class ReadYourWrites {
  private readonly logger = new Logger('ReadYourWrites');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly registry: ProjectionRegistry,
    private readonly runner: ProjectionRunner,
  ) {}

  /** Resolves true when caught up, false when the configured bound passed first. */
  async waitFor(position: number, eventTypes: readonly string[]): Promise<boolean> {
    const names = this.registry.namesFor(eventTypes);
    if (names.length === 0 || position <= 0) return true;
    const timeoutMs = this.config.readYourWritesTimeoutMs;
    const reached = await this.runner.waitFor(names, position, timeoutMs);
    if (!reached) this.logger.warn(`projections ${names.join(', ')} did not reach ${position} within ${timeoutMs} ms`);
    return reached;
  }
}
