/**
 * The sender of the hierarchical sync queue (social-routes §19): every
 * SYNC_INTERVAL_MS, on a node with a parent (SYNC_PARENT_URL), where the
 * background work runs and never on a node replaying an upstream log, one
 * pass sends batches until nothing is due:
 *
 * 1. StartSyncBatch: the queue marks up to SYNC_BATCH_SIZE due items in
 *    progress and hands them over (none due: the pass ends);
 * 2. POST <parent>/api/social/hierarchy/sync `{node_id, items[{id,
 *    operation_type, payload}]}`, signed with this node's key (x-node-*);
 * 3. SettleSyncBatch: the ids in the reply's `processed` complete; every
 *    other id of the batch fails, with the reply's error for it, or the
 *    request's error (parent unreachable, refused, not a batch reply), and is
 *    dead at its 5th failure.
 *
 * A pass stops after a batch that failed as a whole (the parent is down:
 * the next pass tries again) and after MAX_BATCHES_PER_PASS batches.
 */
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { Clock } from '../infrastructure/clock';
import { NodeKey } from '../infrastructure/node-identity/node-key';
import { PlatformLifecycle } from '../infrastructure/platform-lifecycle';
import { SettleSyncBatch, StartSyncBatch } from '../modules/federation/federation-sync.commands';
import { postSyncBatch } from '../modules/federation/sync-batch-client';
import { SweepTimer } from './support/sweep-timer';

const MAX_BATCHES_PER_PASS = 20;

export interface SyncPassResult {
  batches: number;
  sent: number;
  completed: number;
  failed: number;
}

@Injectable()
export class SyncSender implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('SyncSender');
  private readonly timer = new SweepTimer<SyncPassResult>(() => this.pass(), { logger: this.logger, what: 'sync pass', failed: { batches: 0, sent: 0, completed: 0, failed: 0 } });

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly commands: CommandBus,
    private readonly key: NodeKey,
    private readonly clock: Clock,
    private readonly lifecycle: PlatformLifecycle,
  ) {}

  onApplicationBootstrap(): void {
    const { sync } = this.config.federation;
    if (sync.parentUrl === null || sync.intervalMs === 0 || !this.lifecycle.writesInBackground()) return;
    this.timer.every(sync.intervalMs);
  }

  onModuleDestroy(): Promise<void> {
    return this.timer.stop();
  }

  /** One pass now (or the one in flight). */
  send(): Promise<SyncPassResult> {
    return this.timer.run();
  }

  private async pass(): Promise<SyncPassResult> {
    const result: SyncPassResult = { batches: 0, sent: 0, completed: 0, failed: 0 };
    const parent = this.config.federation.sync.parentUrl;
    if (parent === null) return result;
    for (let batch = 0; batch < MAX_BATCHES_PER_PASS; batch++) {
      const context = { actor: 'system:sync-sender', correlationId: `sync-batch:${this.clock.now().toISOString()}:${batch}`, causationId: null };
      const items = await this.commands.execute(new StartSyncBatch({}, context));
      if (items.length === 0) break;
      const attempted = items.map((i) => i.id);
      const reply = await postSyncBatch(this.key, this.config.nodeId, parent, items, this.config.federation.sync.timeoutMs);
      const processed = reply.ok ? reply.processed.filter((id) => attempted.includes(id)) : [];
      await this.commands.execute(new SettleSyncBatch({ attempted, processed, errors: reply.ok ? reply.errors : {}, batchError: reply.ok ? null : reply.error }, context));
      result.batches++;
      result.sent += attempted.length;
      result.completed += processed.length;
      result.failed += attempted.length - processed.length;
      if (!reply.ok) {
        this.logger.warn(`sync batch to ${parent} failed: ${reply.error}`);
        break;
      }
    }
    return result;
  }
}
