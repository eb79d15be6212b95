/**
 * How long the encounter inbox keeps a message: SVC_ENCOUNTER_INBOX_RETENTION_DAYS
 * (default 7). The inbox exists so that a reconnecting SSE client can resume
 * (Last-Event-ID); messages older than that are deleted, hourly, where the
 * background work runs. Privacy as much as size: the opener texts in it
 * should not outlive their use. A rebuild of the inbox from the log brings
 * old messages back until the next sweep; the event log keeps them all.
 */
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { Clock } from '../infrastructure/clock';
import { PlatformLifecycle } from '../infrastructure/platform-lifecycle';
import { READ_STORE, type ReadStore } from '../infrastructure/read-store/read-store.port';
import { ENCOUNTER_INBOX } from '../projections/encounter/encounter-inbox.projection';
import { SweepTimer } from './support/sweep-timer';

const SWEEP_INTERVAL_MS = 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

@Injectable()
export class EncounterInboxSweeper implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('EncounterInbox');
  private readonly timer = new SweepTimer(() => this.pass(), { logger: this.logger, what: 'inbox sweep', failed: 0 });

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(READ_STORE) private readonly store: ReadStore,
    private readonly clock: Clock,
    private readonly lifecycle: PlatformLifecycle,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.lifecycle.runsBackgroundWork()) return;
    void this.sweep();
    this.timer.every(SWEEP_INTERVAL_MS);
  }

  onModuleDestroy(): Promise<void> {
    return this.timer.stop();
  }

  /** Deletes the messages older than the retention; how many. */
  sweep(): Promise<number> {
    return this.timer.run();
  }

  private async pass(): Promise<number> {
    const cutoff = new Date(this.clock.now().getTime() - this.config.encounter.inboxRetentionDays * DAY_MS).toISOString();
    const { deletedCount } = await this.store.collection(ENCOUNTER_INBOX).deleteMany({ at: { $lt: cutoff } });
    return deletedCount;
  }
}
