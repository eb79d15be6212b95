/**
 * `npm run worker`: a process that runs the background work only (projections,
 * sagas, the integration-event relay) against the configured shared stores,
 * so that HTTP nodes started with PROJECTIONS=off stay stateless. Several
 * HTTP nodes can share one worker; read-your-writes on them waits on the
 * worker's checkpoints.
 */
import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module';
import { loadConfigOrExit } from './config/config';
import { createRootLogger, PinoLoggerService } from './infrastructure/observability/logger';
import { startTracing } from './infrastructure/observability/tracing';
import { markRunning } from './infrastructure/running-marker';

async function main(): Promise<void> {
  const config = loadConfigOrExit();
  if (config.observability.tracing) startTracing(config.observability.tracing);
  const logger = createRootLogger({ level: config.logLevel, format: config.observability.logFormat, base: { node: config.nodeId, role: 'worker' } });
  const app = await NestFactory.createApplicationContext(AppModule.forRoot(config, 'worker'), {
    logger: config.logLevel === 'silent' ? false : new PinoLoggerService(logger),
  });
  app.enableShutdownHooks(['SIGTERM', 'SIGINT']);
  await app.init();
  markRunning(config.dataDir, 'worker');
  new Logger('Worker').log(`running projections, sagas and relay (node ${config.nodeId})`);
}

void main();
