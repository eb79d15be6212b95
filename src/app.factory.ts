/**
 * Builds the HTTP application: Fastify with the body limit, one validation
 * pipe and one exception filter for every route, and the OpenAPI document
 * with its UI (/docs-json, /openapi.json, /docs). Used by main.ts and the e2e
 * tests, so tests exercise exactly what runs in production.
 */
import { randomUUID } from 'node:crypto';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppModule } from './app.module';
import type { AppConfig } from './config/config';
import { PlatformLifecycle } from './infrastructure/platform-lifecycle';
import type { ProjectionDefinition } from './infrastructure/projections/projection';
import { BodyValidationPipe } from './modules/common/body-validation.pipe';
import { HttpExceptionFilter } from './modules/common/http-exception.filter';
import { buildOpenApiDocument } from './openapi/openapi-document';
import { serveOpenApi } from './openapi/openapi.routes';

export interface CreateAppOptions {
  /** projections run beside the service's own (bench/http-server.ts: empty ones, to measure what a read model more costs) */
  extraProjections?: readonly ProjectionDefinition[];
}

export async function createApp(config: AppConfig, options: CreateAppOptions = {}): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({
    bodyLimit: config.bodyLimitBytes,
    genReqId: () => randomUUID(),
    // In-flight requests finish on close; idle keep-alive sockets are closed at once.
    forceCloseConnections: 'idle',
    return503OnClosing: true,
  });
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(config, 'api', options.extraProjections), adapter, {
    logger: config.logLevel === 'silent' ? false : logLevels(config.logLevel),
    bufferLogs: false,
  });
  app.useGlobalPipes(new BodyValidationPipe());
  app.useGlobalFilters(new HttpExceptionFilter());
  // built once, from the routes' own declarations (src/openapi/)
  serveOpenApi(app.getHttpAdapter().getInstance(), buildOpenApiDocument(app, config));
  closeConnectionsWhileDraining(app);
  return app;
}

/**
 * While draining, every response asks the client to close its connection, so
 * keep-alive sockets of requests that were in flight do not hold the server open.
 */
function closeConnectionsWhileDraining(app: NestFastifyApplication): void {
  const lifecycle = app.get(PlatformLifecycle);
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onSend', async (_request, reply, payload) => {
      if (lifecycle.isDraining()) void reply.header('connection', 'close');
      return payload;
    });
}

function logLevels(level: Exclude<AppConfig['logLevel'], 'silent'>): ('error' | 'warn' | 'log' | 'debug' | 'verbose')[] {
  const order = ['error', 'warn', 'log', 'debug', 'verbose'] as const;
  return order.slice(0, order.indexOf(level) + 1);
}
