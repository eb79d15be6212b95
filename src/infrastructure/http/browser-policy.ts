/**
 * What browsers are told (docs/security.md):
 *
 * - Security headers on every response (@fastify/helmet): nosniff, no
 *   framing (the iframe embed of the interop work will open its own pages),
 *   no referrer across origins, HSTS (browsers honour it on HTTPS only), and
 *   a Content-Security-Policy that lets pages of this service load their own
 *   scripts and styles only.
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
import fastifyCors from '@fastify/cors';
import fastifyHelmet from '@fastify/helmet';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { HttpConfig } from '../../config/http.config';

/** Request headers a browser client may send, and response headers it may read. */
const ALLOWED_HEADERS = ['authorization', 'content-type', 'x-api-key', 'x-correlation-id', 'x-request-id', 'last-event-id'];
const EXPOSED_HEADERS = ['retry-after', 'x-request-id', 'x-correlation-id'];

/** Paths the widget script (/widget.js) calls from any site: CORS for every origin (/visual_agent: an image, with `multimodal`). */
export const WIDGET_ROUTES: ReadonlySet<string> = new Set(['/chat', '/visual_agent']);

const pathOf = (url: string): string => {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
};

export async function registerBrowserPolicy(app: NestFastifyApplication, http: HttpConfig): Promise<void> {
  await app.register(fastifyHelmet, {
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
