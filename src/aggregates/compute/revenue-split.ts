/**
 * The 90 / 9 / 1 split of revenue and prizes (SPEC §1, §8) in integer cents.
 * The infrastructure pool gets floor(9 % of gross), central floor(1 %), and
 * the user pool everything else, so the three parts always sum to the gross
 * to the cent and rounding never favours the platform.
 */
export interface RevenueSplit {
  user_pool_cents: number;
  infra_pool_cents: number;
  central_cents: number;
}

export function splitRevenue(grossCents: number): RevenueSplit {
  if (!Number.isSafeInteger(grossCents) || grossCents < 0) throw new RangeError(`gross must be a non-negative integer of cents, got ${grossCents}`);
  const infra = Math.floor((grossCents * 9) / 100);
  const central = Math.floor(grossCents / 100);
  return { user_pool_cents: grossCents - infra - central, infra_pool_cents: infra, central_cents: central };
}

/** Cents to a number of currency units with two decimals (exact for integer cents). */
export function centsToUnits(cents: number): number {
  return Number((cents / 100).toFixed(2));
}
