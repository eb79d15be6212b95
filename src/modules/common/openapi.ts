/**
 * What a route declares for the OpenAPI document (src/openapi/): JSON Schema
 * (2020-12, as OpenAPI 3.1 takes it) builders, the reply decorators and the
 * body schema of routes that read their body by hand. DTO bodies need none of
 * this: their schemas come from their class-validator rules
 * (src/openapi/openapi-document.ts). Nothing here runs on a request.
 */
import { ApiBody, ApiParam, ApiQuery, ApiResponse, type SchemaObject } from '@nestjs/swagger';

export type JsonSchema = Record<string, unknown>;

export const str = (extra: JsonSchema = {}): JsonSchema => ({ type: 'string', ...extra });
export const int = (extra: JsonSchema = {}): JsonSchema => ({ type: 'integer', ...extra });
export const num = (extra: JsonSchema = {}): JsonSchema => ({ type: 'number', ...extra });
export const bool = (extra: JsonSchema = {}): JsonSchema => ({ type: 'boolean', ...extra });
export const oneOf = <T>(values: readonly T[], extra: JsonSchema = {}): JsonSchema => ({ enum: [...values], ...extra });
export const list = (items: JsonSchema, extra: JsonSchema = {}): JsonSchema => ({ type: 'array', items, ...extra });
/** `schema` or null. */
export const orNull = (schema: JsonSchema): JsonSchema => ({ anyOf: [schema, { type: 'null' }] });
/** A JSON flag as body-fields.ts `flag` reads it: a boolean, "true"/"false", or null (absent). */
export const flagSchema = (description?: string): JsonSchema => ({ enum: [true, false, 'true', 'false', null], ...(description ? { description } : {}) });

/** An object with these properties, all required except `optional`; other properties are allowed (ignored on input). */
export function obj(properties: Record<string, JsonSchema>, optional: readonly string[] = [], extra: JsonSchema = {}): JsonSchema {
  const required = Object.keys(properties).filter((name) => !optional.includes(name));
  return { type: 'object', properties, ...(required.length > 0 ? { required } : {}), ...extra };
}

/** `{success: true, data}`, the envelope of the social and account routes. */
export const envelope = (data: JsonSchema): JsonSchema => obj({ success: { const: true }, data });

/** `{success: true, data: [item], meta}`, an offset-paginated list (social-routes §0.1). */
export const pagedList = (item: JsonSchema): JsonSchema =>
  obj({ success: { const: true }, data: list(item), meta: obj({ total: int(), limit: int(), offset: int(), has_more: bool() }) });

/** The reply of a route with its status; `description` says when it comes. */
export function Reply(status: number, schema: JsonSchema, description = 'the reply'): MethodDecorator {
  return ApiResponse({ status, description, content: { 'application/json': { schema: schema as SchemaObject } } });
}

/** A `{success: true, data}` reply. */
export const EnvelopeReply = (status: number, data: JsonSchema, description?: string): MethodDecorator => Reply(status, envelope(data), description);

/** A refusal the route adds to the common ones (src/openapi/operation-facts.ts), with the `{success: false, error}` body. */
export function Refusal(status: number, description: string, extra: Readonly<Record<string, JsonSchema>> = {}): MethodDecorator {
  const schema = obj({ success: { const: false }, error: str(), ...extra });
  return ApiResponse({ status, description, content: { 'application/json': { schema: schema as SchemaObject } } });
}

/** The body schema of a route whose reader (a `*.requests.ts` function) validates it; the reader's spec proves they agree. */
export const ReadBody = (schema: JsonSchema): MethodDecorator => ApiBody({ schema: schema as SchemaObject });

/** An optional query parameter a reader reads (its schema lives beside the reader). */
export const QueryParam = (name: string, schema: JsonSchema): MethodDecorator => ApiQuery({ name, required: false, schema: schema as SchemaObject });

/** A path parameter's shape, when the route refuses others. */
export const PathParam = (name: string, schema: JsonSchema): MethodDecorator => ApiParam({ name, schema: schema as SchemaObject });
