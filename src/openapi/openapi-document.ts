/**
 * The OpenAPI 3.1 document of the HTTP API, built once at start from what the
 * routes themselves declare, so it cannot drift from them:
 *
 * - paths, methods, path parameters, success statuses and DTO body references:
 *   @nestjs/swagger's explorer over the Nest controllers (createDocument only;
 *   no SwaggerModule.setup, which would need @fastify/static);
 * - DTO body schemas: the DTOs' own class-validator rules, the ones the
 *   validation pipe enforces (class-validator-jsonschema);
 * - bodies read by hand: the reader module's exported schema (`ReadBody`),
 *   which its spec proves the reader agrees with;
 * - replies: `Reply` / `EnvelopeReply` beside each handler (common/openapi.ts);
 * - security, roles and the refusals every route shares: the route's own
 *   guards and decorators (operation-facts.ts).
 */
import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { validationMetadatasToSchemas } from 'class-validator-jsonschema';
import type { AppConfig } from '../config/config';
import { WIDGET_ROUTES } from '../infrastructure/http/browser-policy';
import { completeOperation, controllerRoutes, ERROR_RESPONSES, ERROR_SCHEMA, OPENAI_ERROR_SCHEMA, type RouteHandler } from './operation-facts';

const DESCRIPTION = [
  'Event-sourced agent-platform service. Prose: docs/api.md; who may call what: docs/security.md.',
  'Account and social routes reply `{success: true, data}`; the SPEC core routes (/chat, /visual_agent, /add_history, compute settings and dashboards) reply plain JSON.',
  'Every error: `{success: false, error: "<message>"}`; under `/v1`, the OpenAI-compatible API, OpenAI\'s own shape `{error: {message, type, param, code}}`.',
].join('\n\n');

export function buildOpenApiDocument(app: INestApplication, config: Pick<AppConfig, 'version' | 'host' | 'port' | 'observability'>): OpenAPIObject {
  const base = new DocumentBuilder()
    .setOpenAPIVersion('3.1.0')
    .setTitle('Agent platform service')
    .setDescription(DESCRIPTION)
    .setVersion(config.version)
    .addServer('/', 'this node, as the client addresses it')
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT or API key', description: 'a JWT from register, login or guest routes, or an API key `ak_<id>_<secret>`' }, 'bearer')
    .addApiKey({ type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'an API key `ak_<16 hex>_<secret>` (POST /api/v1/intelligence/keys)' }, 'api_key');
  if (config.port !== 0) base.addServer(`http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${config.port}`, 'HOST and PORT of this node');
  const handlers = controllerRoutes(app);
  const document = SwaggerModule.createDocument(app, base.build(), {
    operationIdFactory: (controller, method) => `${controller}_${method}`,
  });
  useValidatorSchemas(document);
  document.components = {
    ...document.components,
    schemas: { ...document.components?.schemas, Error: ERROR_SCHEMA, OpenAiError: OPENAI_ERROR_SCHEMA },
    responses: { ...ERROR_RESPONSES },
  };
  const seen = new Map<string, number>();
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of ['get', 'put', 'post', 'delete', 'patch'] as const) {
      const operation = item[method];
      if (!operation) continue;
      const key = (operation.operationId ?? '').replace(/\[\d+\]$/, '');
      const route: RouteHandler | undefined = handlers.get(key);
      if (!route) throw new Error(`OpenAPI: no handler found for ${method.toUpperCase()} ${path} (${operation.operationId})`);
      const count = seen.get(key) ?? 0;
      seen.set(key, count + 1);
      // one operation id per path: an alias path (e.g. /social/... beside /api/social/...) gets a suffix
      operation.operationId = count === 0 ? key : `${key}_alias${count}`;
      completeOperation(operation, { path, method, route });
    }
  }
  if (config.observability.metrics.enabled) document.paths['/metrics'] = metricsPath(config.observability.metrics.token !== null);
  for (const path of WIDGET_ROUTES) if (document.paths[path]) document.paths[path].options = widgetPreflight(path);
  return document;
}

/** The CORS preflight of a route the widget calls from any site (infrastructure/http/browser-policy.ts). */
function widgetPreflight(path: string): NonNullable<OpenAPIObject['paths'][string]['options']> {
  return {
    operationId: `preflight_${path.replace(/\W/g, '')}`,
    summary: 'CORS preflight: any origin may POST with X-API-Key (the chat widget on other sites)',
    tags: ['Embedding'],
    security: [],
    responses: { '204': { description: 'allowed: Access-Control-Allow-Origin `*`, methods POST, no credentials' } },
  };
}

/** GET /metrics, served by the observability hooks rather than a controller (docs/operations.md). */
function metricsPath(needsToken: boolean): OpenAPIObject['paths'][string] {
  return {
    get: {
      operationId: 'metrics',
      summary: 'Prometheus metrics of this process (text exposition format)',
      tags: ['Operations'],
      ...(needsToken ? { security: [{ bearer: [] }] } : { security: [] }),
      responses: {
        '200': { description: 'the metrics', content: { 'text/plain': { schema: { type: 'string' } } } },
        ...(needsToken ? { '401': { $ref: '#/components/responses/Unauthenticated' } } : {}),
        '503': { $ref: '#/components/responses/Unavailable' },
      },
    },
  };
}

/** Each DTO body's component schema is the DTO's class-validator rules, as the validation pipe applies them. */
function useValidatorSchemas(document: OpenAPIObject): void {
  const fromRules = validationMetadatasToSchemas({ refPointerPrefix: '#/components/schemas/' });
  const schemas = document.components?.schemas ?? {};
  for (const name of Object.keys(schemas)) {
    if (fromRules[name]) schemas[name] = fromRules[name] as (typeof schemas)[string];
  }
}
