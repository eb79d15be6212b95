/** The revenue dashboard (SPEC §2.3) from the `revenue_daily` read model. */
import { Inject, Injectable } from '@nestjs/common';
import { centsToUnits, splitRevenue } from '../../aggregates/compute/revenue-split';
import { READ_STORE, type ReadStore } from '../../infrastructure/read-store/read-store.port';
import { REVENUE_DAILY, type RevenueDailyDoc } from '../../projections/compute/revenue.projection';

@Injectable()
export class ComputeRevenueQueries {
  constructor(@Inject(READ_STORE) private readonly store: ReadStore) {}

  /** The period is the last `periodDays` UTC days, today included. */
  async dashboard(periodDays: number, now: Date) {
    const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - (periodDays - 1)));
    const days = await this.store.collection<RevenueDailyDoc>(REVENUE_DAILY).find({ day: { $gte: first.toISOString().slice(0, 10) } });
    const sum = (field: 'api_cents' | 'ad_cents' | 'hosting_payout_cents') => days.reduce((total, d) => total + (d[field] ?? 0), 0);
    const api = sum('api_cents');
    const ad = sum('ad_cents');
    const hosting = sum('hosting_payout_cents');
    const gross = api + ad + hosting;
    const split = splitRevenue(gross);
    return {
      revenue: {
        period_days: periodDays,
        api_revenue: centsToUnits(api),
        ad_revenue: centsToUnits(ad),
        hosting_payouts: centsToUnits(hosting),
        total_gross: centsToUnits(gross),
        user_pool_share: centsToUnits(split.user_pool_cents),
        infra_pool_share: centsToUnits(split.infra_pool_cents),
        central_share: centsToUnits(split.central_cents),
      },
      // No subsystem records portfolios or escrows yet: these blocks are empty by construction.
      trading: { portfolios: [], total_pnl: 0 },
      compute_borrowing: { active_escrows: 0, total_spark_escrowed: 0 },
    };
  }
}
