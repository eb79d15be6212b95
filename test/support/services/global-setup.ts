/**
 * Jest global setup: starts the real servers the suites need (Kafka in KRaft
 * mode, a MongoDB wire-protocol server) on free loopback ports, once per run.
 * TEST_SERVICES=none skips them (quick local runs); REQUIRE_SERVICES=1 turns
 * a server that fails to start into a failed run.
 */
import { endpointVariable, type ServiceName, skipReasonVariable } from './registry';

export interface RunningService {
  stop(): Promise<void>;
}

type Starter = () => Promise<{ endpoint: string; service: RunningService }>;

const STARTERS: Record<ServiceName, Starter> = {
  kafka: async () => {
    // required lazily: a run with TEST_SERVICES=none never loads the launchers
    const { startKafkaServer } = require('./kafka-server') as {
      startKafkaServer(): Promise<RunningService & { brokers: string }>;
    };
    const server = await startKafkaServer();
    return { endpoint: server.brokers, service: server };
  },
  mongo: async () => {
    const { startMongoServer } = require('./mongo-server') as {
      startMongoServer(): Promise<RunningService & { url: string }>;
    };
    const server = await startMongoServer();
    return { endpoint: server.url, service: server };
  },
};

const running: RunningService[] = [];

export default async function globalSetup(): Promise<void> {
  const wanted = (process.env.TEST_SERVICES ?? 'kafka,mongo').split(',').map((s) => s.trim()).filter(Boolean);
  const required = process.env.REQUIRE_SERVICES === '1';
  for (const name of Object.keys(STARTERS) as ServiceName[]) {
    if (process.env[endpointVariable(name)]) continue; // given from outside
    if (!wanted.includes(name)) {
      process.env[skipReasonVariable(name)] = `TEST_SERVICES=${process.env.TEST_SERVICES ?? ''} leaves it out`;
      continue;
    }
    const started = Date.now();
    try {
      const { endpoint, service } = await STARTERS[name]();
      running.push(service);
      process.env[endpointVariable(name)] = endpoint;
      process.stdout.write(`\n[services] ${name} at ${endpoint} (${((Date.now() - started) / 1000).toFixed(1)} s)\n`);
    } catch (error) {
      const reason = `${name} did not start: ${error instanceof Error ? error.message : String(error)}`;
      if (required) {
        await stopAll();
        throw new Error(`REQUIRE_SERVICES=1: ${reason}`);
      }
      process.env[skipReasonVariable(name)] = reason;
      process.stdout.write(`\n[services] ${reason}\n`);
    }
  }
  (globalThis as { __TEST_SERVICES__?: RunningService[] }).__TEST_SERVICES__ = running;
}

export async function stopAll(): Promise<void> {
  const services = (globalThis as { __TEST_SERVICES__?: RunningService[] }).__TEST_SERVICES__ ?? running;
  await Promise.allSettled(services.splice(0).map((s) => s.stop()));
}
