/**
 * Timings of the hive machinery. Not environment variables: the defaults suit
 * production and tests alike; a test module may provide HIVE_OPTIONS to
 * speed things up.
 */
export interface HiveOptions {
  /** how often the worker re-reads the compute settings to join or leave `hive-workers` */
  policyPollMs: number;
  /** how often the origin looks for sub-tasks past their deadline (and for undispatched ones) */
  timeoutSweepMs: number;
  /** an expert run waits this long for a worker before nobody takes it any more */
  expertTtlSec: number;
}

export const HIVE_OPTIONS = Symbol('HIVE_OPTIONS');

export const DEFAULT_HIVE_OPTIONS: HiveOptions = { policyPollMs: 2000, timeoutSweepMs: 1000, expertTtlSec: 900 };
