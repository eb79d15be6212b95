/**
 * For the OpenAPI suite: an app like startTestApp's that also records every
 * route Fastify registers (its onRoute hook, added before Nest registers
 * the controllers' routes), and a check of a reply against the document.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import { createApp } from '../../src/app.factory';
import { loadConfig } from '../../src/config/config';
import { request, testAppEnv, type HttpResponse, type TestApp } from './app';

export interface RegisteredRoute {
  method: string;
  /** in OpenAPI's form: `/goals/{id}` */
  path: string;
}

export async function startAppRecordingRoutes(): Promise<TestApp & { routes: RegisteredRoute[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-openapi-'));
  const config = loadConfig(testAppEnv(dir));
  const app = await createApp(config);
  const routes: RegisteredRoute[] = [];
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onRoute', (route) => {
      for (const method of [route.method].flat()) routes.push({ method, path: route.url.replace(/:([A-Za-z0-9_]+)/g, '{$1}') });
    });
  await app.listen(0, '127.0.0.1');
  const url = `http://127.0.0.1:${(app.getHttpServer().address() as { port: number }).port}`;
  return {
    app,
    url,
    dataDir: dir,
    routes,
    request: (method, path, options) => request(url, method, path, options),
    async close() {
      await app.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The schema problems of `response` against what `document` says `method path` replies with that status (none: it conforms). */
export function replyProblems(document: any, method: string, path: string, response: HttpResponse): string[] {
  const operation = document.paths[path]?.[method.toLowerCase()];
  if (!operation) return [`${method} ${path} is not in the document`];
  let declared = operation.responses[String(response.status)];
  if (!declared) return [`${method} ${path} documents no ${response.status} reply`];
  if (declared.$ref) declared = document.components.responses[declared.$ref.split('/').pop()];
  const schema = declared.content?.['application/json']?.schema;
  if (!schema) return [`${method} ${path} ${response.status} has no JSON schema`];
  const ajv = new Ajv2020({ strict: false, allErrors: true, logger: false });
  ajv.addSchema({ $id: 'doc', components: document.components }, 'doc');
  const validate = ajv.compile(JSON.parse(JSON.stringify(schema).replace(/"#\/components\//g, '"doc#/components/')));
  return validate(response.body) ? [] : (validate.errors ?? []).map((e) => `${method} ${path} ${response.status}: ${e.instancePath} ${e.message}`);
}
