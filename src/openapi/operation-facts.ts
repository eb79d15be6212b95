/**
 * What each operation of the OpenAPI document learns from its route's own
 * declarations: who may call it (the guards and @Authenticated roles), which
 * token buckets it takes from (@RateLimited), and the refusals every route of
 * its kind can give, as the `{success: false, error}` envelope.
 */
import type { INestApplication } from '@nestjs/common';
import { GUARDS_METADATA, METHOD_METADATA } from '@nestjs/common/constants';
import { ModulesContainer } from '@nestjs/core';
import type { OperationObject, ResponseObject, SchemaObject } from '@nestjs/swagger';
import { authenticationRules, AuthenticatedGuard, OptionalAuthenticationGuard, OptionalViewerGuard } from '../modules/accounts/auth/authenticated.guard';
import { PipelineCallerGuard } from '../modules/accounts/auth/pipeline-caller';
import { speaksOpenAi } from '../modules/common/openai-errors';
import { rateLimitsOf } from '../modules/common/rate-limits/rate-limits';

export interface RouteHandler {
  controller: abstract new (...args: never[]) => unknown;
  handler: object;
}

/** Every controller method of the app, by `<Controller>_<method>` (the operation ids @nestjs/swagger is given). */
export function controllerRoutes(app: INestApplication): Map<string, RouteHandler> {
  const routes = new Map<string, RouteHandler>();
  for (const module of app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as RouteHandler['controller'] | null;
      if (!controller) continue;
      for (const name of Object.getOwnPropertyNames(controller.prototype)) {
        const handler = (controller.prototype as Record<string, unknown>)[name];
        if (typeof handler === 'function' && Reflect.getMetadata(METHOD_METADATA, handler) !== undefined) {
          routes.set(`${controller.name}_${name}`, { controller, handler });
        }
      }
    }
  }
  return routes;
}

/** `{success: false, error}` (HttpExceptionFilter); a few refusals add fields (a guardrail's `category`, a budget's figures). */
export const ERROR_SCHEMA: SchemaObject = {
  type: 'object',
  properties: { success: { const: false } as SchemaObject, error: { type: 'string' } },
  required: ['success', 'error'],
};

/** `{error: {message, type, param, code}}`: the refusals of the OpenAI-compatible API under /v1 (common/openai-errors.ts). */
export const OPENAI_ERROR_SCHEMA: SchemaObject = {
  type: 'object',
  properties: {
    error: {
      type: 'object',
      properties: {
        message: { type: 'string' },
        type: { type: 'string', description: 'invalid_request_error, authentication_error, permission_error, rate_limit_error, insufficient_quota, server_error, service_unavailable' },
        param: { anyOf: [{ type: 'string' }, { type: 'null' }] },
        code: { anyOf: [{ type: 'string' }, { type: 'null' }], description: 'e.g. invalid_api_key, model_not_found, unknown_url, rate_limit_exceeded, insufficient_quota' },
      },
      required: ['message', 'type', 'param', 'code'],
    },
  },
  required: ['error'],
};

const error = (description: string, headers?: ResponseObject['headers'], schema = 'Error'): ResponseObject => ({
  description,
  ...(headers ? { headers } : {}),
  content: { 'application/json': { schema: { $ref: `#/components/schemas/${schema}` } } },
});

/** The shared refusals, as components.responses (under /v1 the same, named `OpenAi<name>`, in OpenAI's error shape). */
export const ERROR_RESPONSES: Record<string, ResponseObject> = {
  BadRequest: error('malformed JSON, a body that is not a JSON object, a missing field, a wrong type or a value out of range; one message per field, joined with `; `'),
  Unauthenticated: error('no credential (`unauthenticated`), a bad or revoked token, a bad API key'),
  Forbidden: error("the caller's role is not allowed (`<roles> role required`), or the body names another user"),
  NotFound: error('no such resource (or not the caller’s)'),
  Conflict: error('a unique value is taken, or a concurrent update could not be applied after retries'),
  TooLarge: error('the body is larger than BODY_LIMIT_BYTES (`Request body is too large`)'),
  UnsupportedMediaType: error('a content type other than JSON'),
  RateLimited: error('a token bucket is empty, or an API key’s daily limit is reached', {
    'Retry-After': { description: 'seconds until a token is back', schema: { type: 'integer', minimum: 1 } },
  }),
  Unavailable: error('the node is shutting down (or, on the agent pipeline, the language model is unavailable)'),
};
for (const [name, response] of Object.entries(ERROR_RESPONSES)) {
  ERROR_RESPONSES[`OpenAi${name}`] = error(response.description, response.headers, 'OpenAiError');
}

type Access = 'none' | 'required' | 'optional' | 'viewer' | 'pipeline';

function accessOf({ controller, handler }: RouteHandler): Access {
  const guards: unknown[] = [...(Reflect.getMetadata(GUARDS_METADATA, controller) ?? []), ...(Reflect.getMetadata(GUARDS_METADATA, handler) ?? [])];
  if (guards.includes(PipelineCallerGuard)) return 'pipeline';
  if (guards.includes(AuthenticatedGuard)) return 'required';
  if (guards.includes(OptionalAuthenticationGuard)) return 'optional';
  if (guards.includes(OptionalViewerGuard)) return 'viewer';
  return 'none';
}

const PIPELINE_NOTE =
  'Acts for the caller: with a JWT or API key, that user (a body `user_id` must be the caller’s); without a credential, only from a loopback address while ANONYMOUS_CHAT=local, as the local guest, and then `user_id` is required and must not name a registered user (docs/security.md).';

/** Security, roles and the shared refusals of one operation. */
export function completeOperation(operation: OperationObject, { path, method, route }: { path: string; method: string; route: RouteHandler }): void {
  const access = accessOf(route);
  const { roles, apiKeys, jwt } = authenticationRules(route.handler, route.controller);
  const buckets = rateLimitsOf(route.handler);
  const notes: string[] = [];
  operation.tags = [route.controller.name.replace(/Controller$/, '')];
  switch (access) {
    case 'required':
      operation.security = apiKeys ? [{ bearer: [] }, { api_key: [] }] : [{ bearer: [] }];
      if (!apiKeys) notes.push('Needs a bearer JWT (an API key is refused).');
      if (!jwt) notes.push('Needs an API key, as `Authorization: Bearer ak_...` or `X-API-Key` (a JWT is refused); each request counts against the key’s daily quota.');
      if (roles.length > 0) notes.push(`Roles: ${roles.join(', ')}.`);
      break;
    case 'optional':
      operation.security = [{}, { bearer: [] }, { api_key: [] }];
      notes.push('No credential needed; a credential that is sent must be valid.');
      break;
    case 'viewer':
      operation.security = [{}, { bearer: [] }, { api_key: [] }];
      notes.push('No credential needed; a valid one personalises the reply, a missing or bad one reads as anonymous (never 401).');
      break;
    case 'pipeline':
      operation.security = [{ bearer: [] }, { api_key: [] }, {}];
      notes.push(PIPELINE_NOTE);
      break;
    case 'none':
      operation.security = [];
      break;
  }
  if (buckets.length > 0) notes.push(`Rate limits (docs/security.md): ${buckets.join(', ')}.`);
  if (notes.length > 0) operation.description = [operation.description, ...notes].filter(Boolean).join('\n\n');
  if (access === 'required' && roles.length > 0) Object.assign(operation, { 'x-roles': roles });

  const hasBody = operation.requestBody !== undefined;
  const refusals: [number, string, boolean][] = [
    [400, 'BadRequest', hasBody || (operation.parameters?.length ?? 0) > 0 || access === 'pipeline'],
    [401, 'Unauthenticated', access !== 'none' && access !== 'viewer'],
    [403, 'Forbidden', roles.length > 0 || access === 'pipeline'],
    [404, 'NotFound', path.includes('{')],
    [409, 'Conflict', method !== 'get'],
    [413, 'TooLarge', hasBody],
    [415, 'UnsupportedMediaType', hasBody],
    [429, 'RateLimited', buckets.length > 0 || (access !== 'none' && apiKeys)],
    [503, 'Unavailable', true],
  ];
  for (const [status, name, applies] of refusals) {
    const component = speaksOpenAi(path) ? `OpenAi${name}` : name;
    if (applies && !operation.responses[status]) operation.responses[status] = { $ref: `#/components/responses/${component}` };
  }
}
