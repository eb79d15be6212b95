/**
 * Setup of the `e2e:mongodb+kafka` jest project: the e2e files run against
 * MongoDB and Kafka. Without those servers the files are skipped, with the
 * reason printed (the global setup fails the run instead under REQUIRE_SERVICES=1).
 */
import { markAdapterMode } from './adapters';
import { serviceEndpoint, skipReasonVariable } from './services/registry';

markAdapterMode('mongodb+kafka');

const missing = (['mongo', 'kafka'] as const).filter((name) => !serviceEndpoint(name));
if (missing.length > 0) {
  const reasons = missing.map((name) => process.env[skipReasonVariable(name)] ?? `${name} not started`).join('; ');
  const skip = describe.skip;
  (globalThis as { describe: unknown }).describe = Object.assign(
    (title: string, body: () => void) => {
      process.stdout.write(`skipping "${title}" on mongodb+kafka: ${reasons}\n`);
      skip(title, body);
    },
    { skip, only: skip, each: describe.each },
  );
}
