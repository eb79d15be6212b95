/**
 * The referred accounts turning 3 days old (social-routes §14), which no
 * event marks: every hour, where the background work runs and never on a
 * regional node (it replays central's log, whose sweeper does this), the
 * pending referrals whose referred account was registered between 3 and 10
 * days ago are checked (CheckReferralActivation; the referral decides, so a
 * check repeated by the next sweep records nothing). An account that becomes
 * eligible later, by a post, comment or vote, is activated by
 * ReferralActivationSaga; the 7-day window bridges a node that was down.
 */
import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ACTIVATION_MIN_AGE_MS } from '../aggregates/referrals/referral';
import { Clock } from '../infrastructure/clock';
import { PlatformLifecycle } from '../infrastructure/platform-lifecycle';
import { CheckReferralActivation } from '../modules/referrals/referrals.commands';
import { ReferralsQueries } from '../modules/referrals/referrals.queries';
import { SweepTimer } from './support/sweep-timer';

const SWEEP_INTERVAL_MS = 60 * 60 * 1000;
const LOOKBACK_MS = 7 * 24 * 3600_000;
const SWEEP_LIMIT = 1000;

@Injectable()
export class ReferralActivationSweeper implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('ReferralActivation');
  private readonly timer = new SweepTimer(() => this.pass(), { logger: this.logger, what: 'referral sweep', failed: 0 });

  constructor(
    private readonly queries: ReferralsQueries,
    private readonly commands: CommandBus,
    private readonly clock: Clock,
    private readonly lifecycle: PlatformLifecycle,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.lifecycle.writesInBackground()) return;
    this.timer.every(SWEEP_INTERVAL_MS);
  }

  onModuleDestroy(): Promise<void> {
    return this.timer.stop();
  }

  /** Checks the pending referrals of accounts 3 to 10 days old; how many were checked. */
  sweep(): Promise<number> {
    return this.timer.run();
  }

  private async pass(): Promise<number> {
    const to = new Date(this.clock.now().getTime() - ACTIVATION_MIN_AGE_MS + 1);
    const referred = await this.queries.pendingRegisteredBetween(new Date(to.getTime() - LOOKBACK_MS), to, SWEEP_LIMIT);
    for (const referredId of referred) {
      const context = { actor: 'system:referral-activation', correlationId: `referral-sweep:${referredId}`, causationId: null };
      await this.commands.execute(new CheckReferralActivation({ referredId }, context));
    }
    return referred.length;
  }
}
