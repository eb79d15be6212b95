/**
 * Builds the HTTP application: Fastify with the body limit, the server's
 * timeouts and connection caps, security headers and CORS, one validation
 * pipe and one exception filter for every route, request ids, the access log,
 * /metrics and request spans (http-observability.ts), Nest's logger on pino,
 * and the OpenAPI document with its UI (/docs-json, /openapi.json, /docs).
 * Used by main.ts and the e2e tests, so tests exercise exactly what runs in
 * production.
 */
import type { IncomingMessage } from 'node:http';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { RouteOptions } from 'fastify';
import type { DestinationStream } from 'pino';
import { AppModule } from './app.module';
import type { AppConfig } from './config/config';
import { registerBrowserPolicy } from './infrastructure/http/browser-policy';
import { capConnections, serverTimeoutOptions } from './infrastructure/http/server-limits';
import { installHttpObservability } from './infrastructure/observability/http-observability';
import { createRootLogger, PinoLoggerService } from './infrastructure/observability/logger';
import { Metrics } from './infrastructure/observability/metrics';
import { requestIdOf } from './infrastructure/observability/request-ids';
import { PlatformLifecycle } from './infrastructure/platform-lifecycle';
import type { ProjectionDefinition } from './infrastructure/projections/projection';
import { BodyValidationPipe } from './modules/common/body-validation.pipe';
import { frameworkErrorReply, HttpExceptionFilter } from './modules/common/http-exception.filter';
import { registerJsonBodyParser } from './modules/common/json-body';
import { forwardRegionalWrites, RegionalWrites } from './modules/federation/regional-writes';
import { buildOpenApiDocument } from './openapi/openapi-document';
import { serveOpenApi } from './openapi/openapi.routes';

export interface CreateAppOptions {
  /** projections run beside the service's own (bench/http-server.ts: empty ones, to measure what a read model more costs) */
  extraProjections?: readonly ProjectionDefinition[];
  /** where the JSON log lines go instead of stdout (tests read the access lines) */
  logDestination?: DestinationStream;
  /** sees every route as it is registered, this module's own included (tests that visit every route) */
  onRoute?: (route: RouteOptions) => void;
}

export async function createApp(config: AppConfig, options: CreateAppOptions = {}): Promise<NestFastifyApplication> {
  const logger = createRootLogger({
    level: config.logLevel,
    format: config.observability.logFormat,
    destination: options.logDestination,
    base: { node: config.nodeId },
  });
  const adapter = new FastifyAdapter({
    bodyLimit: config.bodyLimitBytes,
    // a caller's X-Request-Id when it is safe to echo and log, else a new UUID
    genReqId: (request: IncomingMessage) => requestIdOf(request.headers),
    // In-flight requests finish on close; idle keep-alive sockets are closed at once.
    forceCloseConnections: 'idle',
    return503OnClosing: true,
    ...serverTimeoutOptions(config.http),
    frameworkErrors: frameworkErrorReply,
  });
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(config, 'api', options.extraProjections), adapter, {
    logger: config.logLevel === 'silent' ? false : new PinoLoggerService(logger),
    bufferLogs: false,
    // JSON only, with our checks (json-body.ts): not Nest's JSON and form parsers
    bodyParser: false,
  });
  if (options.onRoute) app.getHttpAdapter().getInstance().addHook('onRoute', options.onRoute);
  registerJsonBodyParser(app.getHttpAdapter().getInstance(), config.bodyLimitBytes);
  // a regional node's clients write through central (modules/federation/regional-writes.ts)
  if (config.federation.upstreamUrl !== null) forwardRegionalWrites(app.getHttpAdapter().getInstance(), app.get(RegionalWrites));
  await registerBrowserPolicy(app, config.http);
  installHttpObservability(app.getHttpAdapter().getInstance(), {
    logger,
    metrics: app.get(Metrics),
    accessLog: config.observability.accessLog,
    metricsEnabled: config.observability.metrics.enabled,
    metricsToken: config.observability.metrics.token,
  });
  app.useGlobalPipes(new BodyValidationPipe());
  app.useGlobalFilters(new HttpExceptionFilter());
  capConnections(app.getHttpServer(), config.http);
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
