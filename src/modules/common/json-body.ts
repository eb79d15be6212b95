/**
 * The one body parser of the service: `application/json` only, checked
 * before any pipe or handler sees it.
 *
 * - Nesting deeper than MAX_JSON_DEPTH levels is 400, found by a linear scan
 *   of the text before it is parsed (deep bodies overflowed the stack of the
 *   validation pipe).
 * - The text is parsed by Fastify's own parser (secure-json-parse: a
 *   `__proto__` or `constructor.prototype` key is refused) within the body
 *   limit (413).
 * - A string (value or key) holding a lone surrogate or a NUL character is
 *   400: no field of the API takes either, and they break what they reach
 *   (e-mail checks, logs, storage).
 * - Every other content type is 415 with one text (JSON_ONLY,
 *   http-exception.filter.ts): a form post from another site is refused
 *   before any route sees it. A request without a body needs no content type.
 */
import type { FastifyInstance } from 'fastify';
import { invalid } from './body-fields';

export const MAX_JSON_DEPTH = 32;
/** The text of every 415. */
export const JSON_ONLY = 'Content-Type must be application/json';

const OPEN_BRACKET = 0x5b;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACKET = 0x5d;
const CLOSE_BRACE = 0x7d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** 400 when arrays and objects nest deeper than `max` levels in the JSON text; linear, no recursion. */
export function checkJsonDepth(text: string, max = MAX_JSON_DEPTH): void {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) {
      inString = true;
    } else if (c === OPEN_BRACKET || c === OPEN_BRACE) {
      if (++depth > max) throw invalid(`request body is nested too deeply (at most ${max} levels)`);
    } else if (c === CLOSE_BRACKET || c === CLOSE_BRACE) {
      depth--;
    }
  }
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** What is wrong with a string of a request, or null: a lone surrogate or a NUL character. */
export function invalidUnicodeIn(value: string): string | null {
  if (LONE_SURROGATE.test(value)) return 'a lone surrogate';
  if (value.includes('\0')) return 'a NUL character';
  return null;
}

/** 400 when any string of a parsed body, value or key, holds a lone surrogate or a NUL. Depth is bounded by checkJsonDepth. */
export function checkJsonStrings(value: unknown): void {
  if (typeof value === 'string') {
    const problem = invalidUnicodeIn(value);
    if (problem) throw invalid(`request body contains invalid unicode (${problem})`);
  } else if (Array.isArray(value)) {
    for (const item of value) checkJsonStrings(item);
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      checkJsonStrings(key);
      checkJsonStrings(item);
    }
  }
}

const RAW_TEXT = Symbol('rawJsonText');

/** The JSON text a request's body was parsed from (what a node signed: signed-request.ts), or null without a body. */
export function rawJsonTextOf(request: object): string | null {
  return (request as { [RAW_TEXT]?: string })[RAW_TEXT] ?? null;
}

/** Replaces Fastify's parsers (JSON and text/plain) with the checked JSON parser; call before the app starts. */
export function registerJsonBodyParser(fastify: FastifyInstance, bodyLimit: number): void {
  const parse = fastify.getDefaultJsonParser('error', 'error');
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit }, (request, text, done) => {
    (request as { [RAW_TEXT]?: string })[RAW_TEXT] = text as string;
    try {
      checkJsonDepth(text as string);
    } catch (error) {
      done(error as Error, undefined);
      return;
    }
    parse(request, text as string, (error, body) => {
      if (error) {
        done(error, undefined);
        return;
      }
      try {
        checkJsonStrings(body);
      } catch (problem) {
        done(problem as Error, undefined);
        return;
      }
      done(null, body);
    });
  });
}
