/**
 * Which real servers this test run has (DESIGN.md §6). The jest global setup
 * (global-setup.ts) starts them once and publishes their addresses in the
 * environment; suites read them here. A server that could not start makes its
 * suites skip with the reason printed, unless REQUIRE_SERVICES=1, under which
 * the global setup fails the run instead.
 */
export type ServiceName = 'kafka' | 'mongo';

const ENDPOINT_VARIABLE: Record<ServiceName, string> = { kafka: 'TEST_KAFKA_BROKERS', mongo: 'TEST_MONGO_URL' };

export function endpointVariable(name: ServiceName): string {
  return ENDPOINT_VARIABLE[name];
}

export function skipReasonVariable(name: ServiceName): string {
  return `${ENDPOINT_VARIABLE[name]}_SKIP_REASON`;
}

/** The server's address (Kafka: `host:port` list; MongoDB: a mongodb:// URL), or null when it is not running. */
export function serviceEndpoint(name: ServiceName): string | null {
  return process.env[ENDPOINT_VARIABLE[name]] || null;
}

/** `describe` when the server runs, otherwise `describe.skip` with the reason printed once. */
export function describeWithService(name: ServiceName, title: string, body: () => void): void {
  if (serviceEndpoint(name)) {
    describe(title, body);
    return;
  }
  const reason = process.env[skipReasonVariable(name)] ?? `${name} was not started`;
  process.stdout.write(`skipping "${title}": ${reason}\n`);
  describe.skip(title, body);
}
