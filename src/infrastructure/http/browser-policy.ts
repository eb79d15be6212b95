/**
 * What browsers are told (docs/security.md):
 *
 * - Security headers on every response (helmet): nosniff, no framing (the
 *   embed pages replace the framing policy with their own), no referrer
 *   across origins, HSTS (browsers honour it on HTTPS only), and a
 *   Content-Security-Policy that lets pages of this service load their own
 *   scripts and styles only. The headers are the same for every response, so
 *   helmet runs once at start and the set it writes is added to each reply
 *   (@fastify/helmet ran helmet, parsing the CSP directives, on every
 *   request: 8 % of a sighting's CPU).
 * - CORS (@fastify/cors) only for the origins of CORS_ORIGINS (off by
 *   default: a preflight from another origin gets no Allow-Origin and the
 *   browser refuses the call). Credentials are headers, never cookies, so no
 *   origin is sent `Access-Control-Allow-Credentials`.
 * - The routes the chat widget calls from other people's sites
 *   (WIDGET_ROUTES) answer any origin, whatever CORS_ORIGINS says: the widget
 *   authenticates with its API key in a header (which a key may restrict to
 *   listed origins), never with cookies, so letting any page read the answer
 *   gives it nothing the key's holder could not fetch anyway.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import fastifyCors from '@fastify/cors';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import helmet, { type HelmetOptions } from 'helmet';
import type { HttpConfig } from '../../config/http.config';

/** Request headers a browser client may send, and response headers it may read. */
const ALLOWED_HEADERS = ['authorization', 'content-type', 'x-api-key', 'x-correlation-id', 'x-request-id', 'last-event-id'];
const EXPOSED_HEADERS = ['retry-after', 'x-request-id', 'x-correlation-id'];

/** Paths the widget script (/widget.js) calls from any site: CORS for every origin (/visual_agent: an image, with `multimodal`). */
export const WIDGET_ROUTES: ReadonlySet<string> = new Set(['/chat', '/visual_agent']);

/** The headers helmet writes for `options`: it is run once on a response that records them. */
export function securityHeaders(options: Readonly<HelmetOptions>): Readonly<Record<string, string>> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader: (name: string, value: string | number | readonly string[]) => {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  };
  let done = false;
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
    done = true;
  });
  if (!done) throw new Error('helmet did not finish synchronously: its headers depend on the request');
  return headers;
}

const pathOf = (url: string): string => {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
};

export async function registerBrowserPolicy(app: NestFastifyApplication, http: HttpConfig): Promise<void> {
  const headers = securityHeaders({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        frameAncestors: ["'none'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
      },
    },
    crossOriginResourcePolicy: { policy: http.corsOrigins.length > 0 ? 'cross-origin' : 'same-origin' },
    referrerPolicy: { policy: 'no-referrer' },
  });
  const fastify = app.getHttpAdapter().getInstance();
  fastify.addHook('onRequest', (_request, reply, done) => {
    void reply.headers(headers);
    done();
  });
  const shared = { allowedHeaders: ALLOWED_HEADERS, exposedHeaders: EXPOSED_HEADERS, credentials: false, maxAge: 600 };
  const widget = { ...shared, origin: '*', methods: ['POST'] };
  const site =
    http.corsOrigins.length === 0
      ? { origin: false as const }
      : { ...shared, origin: http.corsOrigins === '*' ? '*' : [...http.corsOrigins], methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] };
  // one policy per request: the widget's routes for any origin, the rest as CORS_ORIGINS says
  await app.register(fastifyCors, {
    delegator: (request, callback) => callback(null, WIDGET_ROUTES.has(pathOf(request.url ?? '')) ? widget : site),
  });
}
