/**
 * Serves the OpenAPI document and a Swagger UI with our own small Fastify
 * routes: GET /docs-json and /openapi.json (the document, serialised once at
 * start), GET /docs (the UI page) and GET /docs/<asset> (swagger-ui-dist's
 * files, read from the package on first use and kept in memory). No
 * @fastify/static: its versions that fit Fastify 5 need a newer Node.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { OpenAPIObject } from '@nestjs/swagger';
import type { FastifyInstance } from 'fastify';

export const DOCUMENT_PATHS = ['/docs-json', '/openapi.json'] as const;
export const UI_PATH = '/docs';

const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'application/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

// Kept out of the page so a Content-Security-Policy without 'unsafe-inline' still lets it run.
const INITIALIZER = `window.onload = function () {
  window.ui = SwaggerUIBundle({ url: '${DOCUMENT_PATHS[0]}', dom_id: '#swagger-ui', deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset], layout: 'StandaloneLayout' });
};
`;

const page = (title: string): string => `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>${title.replace(/[<>&"]/g, '')} – API</title>
  <link rel="stylesheet" href="${UI_PATH}/swagger-ui.css">
  <link rel="icon" type="image/png" href="${UI_PATH}/favicon-32x32.png">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="${UI_PATH}/swagger-ui-bundle.js"></script>
  <script src="${UI_PATH}/swagger-ui-standalone-preset.js"></script>
  <script src="${UI_PATH}/swagger-initializer.js"></script>
</body>
</html>
`;

export function serveOpenApi(fastify: FastifyInstance, document: OpenAPIObject): void {
  const json = JSON.stringify(document);
  const html = page(document.info.title);
  const uiDir = dirname(require.resolve('swagger-ui-dist/package.json'));
  const assets = new Map<string, Buffer>();
  for (const path of DOCUMENT_PATHS) {
    fastify.get(path, async (_request, reply) => reply.type('application/json; charset=utf-8').send(json));
  }
  fastify.get(UI_PATH, async (_request, reply) => reply.type('text/html; charset=utf-8').send(html));
  fastify.get(`${UI_PATH}/swagger-initializer.js`, async (_request, reply) => reply.type('application/javascript; charset=utf-8').send(INITIALIZER));
  fastify.get<{ Params: { asset: string } }>(`${UI_PATH}/:asset`, async (request, reply) => {
    const type = Object.hasOwn(ASSETS, request.params.asset) ? ASSETS[request.params.asset] : undefined;
    if (!type) return reply.callNotFound();
    let content = assets.get(request.params.asset);
    if (!content) {
      content = readFileSync(join(uiDir, request.params.asset));
      assets.set(request.params.asset, content);
    }
    return reply.type(type).header('cache-control', 'public, max-age=86400').send(content);
  });
}
