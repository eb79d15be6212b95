/**
 * Starts the service. On SIGTERM/SIGINT: report not-ready, stop taking
 * requests, let in-flight ones finish, then close projections and stores
 * (see PlatformLifecycle). A shutdown that hangs is cut off after
 * SHUTDOWN_TIMEOUT_MS.
 */
import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { createApp } from './app.factory';
import { loadConfigOrExit } from './config/config';
import { startTracing } from './infrastructure/observability/tracing';
import { PlatformLifecycle } from './infrastructure/platform-lifecycle';
import { markRunning } from './infrastructure/running-marker';

async function main(): Promise<void> {
  const config = loadConfigOrExit();
  // before the app is built: the SDK is loaded only when an OTLP endpoint is configured
  const tracing = config.observability.tracing ? startTracing(config.observability.tracing) : null;
  const app = await createApp(config);
  await app.listen(config.port, config.host);
  markRunning(config.dataDir, 'api');
  const logger = new Logger('Main');
  logger.log(`listening on ${config.host}:${config.port}, data in ${config.dataDir}`);

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    logger.log(`${signal}: draining`);
    app.get(PlatformLifecycle).beginDrain();
    // Sockets that turn idle after their last in-flight response are closed too.
    const server = app.getHttpServer() as import('node:http').Server;
    setInterval(() => server.closeIdleConnections(), 50).unref();
    setTimeout(() => {
      logger.error(`shutdown took longer than ${config.shutdownTimeoutMs} ms, exiting`);
      process.exit(1);
    }, config.shutdownTimeoutMs).unref();
    app
      .close()
      .then(() => tracing?.shutdown())
      .then(() => process.exit(0))
      .catch((error: unknown) => {
        logger.error(`shutdown failed: ${error instanceof Error ? error.stack : String(error)}`);
        process.exit(1);
      });
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

void main();
