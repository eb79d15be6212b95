/**
 * Which adapters the HTTP e2e suites run on. The `e2e` jest project uses the
 * embedded default; the `e2e:mongodb+kafka` project runs the same files with
 * READ_STORE=mongodb BUS=kafka against the real servers of the global setup
 * (marked by production-adapters.setup.ts, per test file, never through
 * process.env, which test files share).
 */
import { basename } from 'node:path';
import { serviceEndpoint } from './services/registry';

export type AdapterMode = 'embedded' | 'mongodb+kafka';

const MARK = '__TEST_ADAPTERS__';

export function adapterMode(): AdapterMode {
  return ((globalThis as Record<string, unknown>)[MARK] as AdapterMode | undefined) ?? 'embedded';
}

export function markAdapterMode(mode: AdapterMode): void {
  (globalThis as Record<string, unknown>)[MARK] = mode;
}

/** Environment for an app (in-process or child) whose data lives in `dataDir`: one database per data dir. */
export function adapterEnv(dataDir: string): Record<string, string> {
  if (adapterMode() === 'embedded') return {};
  return {
    READ_STORE: 'mongodb',
    MONGO_URL: serviceEndpoint('mongo') ?? '',
    MONGO_DATABASE: `e2e_${basename(dataDir).replace(/[^A-Za-z0-9_]/g, '_')}`.slice(0, 63),
    BUS: 'kafka',
    KAFKA_BROKERS: serviceEndpoint('kafka') ?? '',
    // one prefix per node (data dir): groups shared by every node of a prefix
    // (the hive's workers) then span only the nodes a test starts together,
    // so a node another test killed cannot hold up their rebalances
    KAFKA_TOPIC_PREFIX: `e2e.${basename(dataDir).replace(/[^A-Za-z0-9_-]/g, '_')}.events`,
  };
}
