/**
 * The OpenAPI document (GET /docs-json, /openapi.json) and its UI (GET /docs):
 * every route the app registers is in it, an OpenAPI 3.1 validator accepts
 * it, and real replies conform to the schemas it shows.
 */
import { validate } from '@readme/openapi-parser';
import { replyProblems } from '../support/openapi';
import { startTestApp, type TestApp, uniqueName } from '../support/app';

/** The documentation's own routes, which the document does not describe. */
const DOCUMENTATION = /^\/(docs|docs-json|openapi\.json)(\/|$)/;
/** The CORS plugin's catch-all preflight route: no path to describe; the widget's routes show their `options` operation. */
const PREFLIGHT = 'OPTIONS /*';
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];
/** Operations that never succeed by design: the stateless MCP transport answers GET (no stream) and DELETE (no session) with 405. */
const ALWAYS_405 = new Set(['get /mcp', 'delete /mcp']);

describe('the OpenAPI document', () => {
  let t: TestApp;
  let routes: { method: string; path: string }[];
  let document: any;

  beforeAll(async () => {
    t = await startTestApp();
    // in OpenAPI's form: /goals/{id}
    routes = t.routes.map((r) => ({ method: r.method, path: r.url.replace(/:([A-Za-z0-9_]+)/g, '{$1}') }));
    document = (await t.request('GET', '/docs-json')).body;
  });
  afterAll(() => t.close());

  const documented = (): string[] =>
    Object.entries(document.paths).flatMap(([path, item]) => METHODS.filter((m) => (item as object)[m as keyof object]).map((m) => `${m.toUpperCase()} ${path}`));

  it('given the running app, when its registered routes are listed, then each is in the document with its method', () => {
    const registered = routes
      .filter((r) => r.method !== 'HEAD' && !DOCUMENTATION.test(r.path))
      .map((r) => `${r.method} ${r.path}`)
      .filter((route) => route !== PREFLIGHT && route !== 'OPTIONS *');
    expect(registered.length).toBeGreaterThan(70);
    expect(registered.filter((route) => !documented().includes(route))).toEqual([]);
  });

  it('given the document, then every operation in it is a route the app registers', () => {
    const registered = new Set(routes.map((r) => `${r.method} ${r.path}`));
    expect(documented().filter((operation) => !registered.has(operation))).toEqual([]);
  });

  it('given the document, when an OpenAPI 3.1 validator checks it, then it is valid', async () => {
    expect(document.openapi).toBe('3.1.0');
    const result = await validate(structuredClone(document));
    expect(result.valid ? [] : result.errors).toEqual([]);
    // and the validator is awake: a document without its info is refused
    const { info: _info, ...broken } = structuredClone(document);
    expect((await validate(broken)).valid).toBe(false);
  });

  it('given /openapi.json, then it serves the same document, versioned as the service', async () => {
    const alias = await t.request('GET', '/openapi.json');
    expect(alias.status).toBe(200);
    expect(alias.body).toEqual(document);
    const status = await t.request('GET', '/status');
    expect(document.info.version).toBe(status.body.version);
  });

  it('given every operation, then it documents a success reply and its refusals as the error envelope', () => {
    const missing: string[] = [];
    for (const [path, item] of Object.entries<any>(document.paths)) {
      for (const method of METHODS.filter((m) => item[m])) {
        const responses = item[method].responses;
        const success = Object.keys(responses).find((status) => status.startsWith('2'));
        if (ALWAYS_405.has(`${method} ${path}`)) {
          if (!responses['405']?.content) missing.push(`${method} ${path}: no 405 reply`);
        } else if (!success || !responses[success].content) missing.push(`${method} ${path}: no success reply`);
        if (!responses['503']) missing.push(`${method} ${path}: no 503`);
      }
    }
    expect(missing).toEqual([]);
    expect(document.components.schemas.Error).toMatchObject({ required: ['success', 'error'] });
    expect(document.components.responses.RateLimited.headers['Retry-After']).toBeDefined();
  });

  it('given every request body, then its schema names its fields (no empty DTO schema)', () => {
    const empty: string[] = [];
    for (const [path, item] of Object.entries<any>(document.paths)) {
      for (const method of METHODS.filter((m) => item[m]?.requestBody)) {
        let schema = item[method].requestBody.content['application/json'].schema;
        if (schema.$ref) schema = document.components.schemas[schema.$ref.split('/').pop()];
        if (Object.keys(schema.properties ?? {}).length === 0) empty.push(`${method} ${path}`);
      }
    }
    expect(empty).toEqual([]);
  });

  it('given the routes’ guards, then each operation shows who may call it', () => {
    expect(document.paths['/chat'].post.security).toEqual([{ bearer: [] }, { api_key: [] }, {}]);
    expect(document.paths['/api/social/admin/stats'].get).toMatchObject({ security: [{ bearer: [] }, { api_key: [] }], 'x-roles': ['admin'] });
    expect(document.paths['/api/v1/intelligence/keys'].post.security).toEqual([{ bearer: [] }]);
    expect(document.paths['/api/hive/contest/info'].get.security).toEqual([]);
    expect(document.paths['/api/settings/compute/provider/join'].post.security).toEqual([{}, { bearer: [] }, { api_key: [] }]);
    expect(document.paths['/v1/chat/completions'].post.description).toContain('Needs an API key');
  });

  it('given the /v1 routes, then their refusals are documented in OpenAI’s error shape', () => {
    const operation = document.paths['/v1/chat/completions'].post;
    expect(operation.responses['401']).toEqual({ $ref: '#/components/responses/OpenAiUnauthenticated' });
    expect(operation.responses['429']).toEqual({ $ref: '#/components/responses/OpenAiRateLimited' });
    expect(document.components.schemas.OpenAiError).toMatchObject({ required: ['error'] });
  });

  it('given real replies, then they conform to the schemas the document shows', async () => {
    const username = uniqueName('doc');
    const registered = await t.request('POST', '/api/social/auth/register', { body: { username, email: `${username}@example.com`, password: 'password-1' } });
    const token = registered.body.data.token;
    const key = (await t.request('POST', '/api/v1/intelligence/keys', { token, body: { name: 'doc', tier: 'free' } })).body.data.key;
    const replies = [
      ['POST', '/api/social/auth/register', registered],
      ['POST', '/api/social/auth/login', await t.request('POST', '/api/social/auth/login', { body: { username, password: 'password-1' } })],
      ['POST', '/api/social/auth/login', await t.request('POST', '/api/social/auth/login', { body: { username } })],
      ['GET', '/api/social/auth/me', await t.request('GET', '/api/social/auth/me', { token })],
      ['GET', '/status', await t.request('GET', '/status')],
      ['GET', '/ready', await t.request('GET', '/ready')],
      ['GET', '/api/hive/contest/info', await t.request('GET', '/api/hive/contest/info')],
      ['GET', '/api/hive/contest/leaderboard', await t.request('GET', '/api/hive/contest/leaderboard')],
      ['POST', '/api/hive/contest/join', await t.request('POST', '/api/hive/contest/join', { token, body: { track: 'digital' } })],
      ['GET', '/api/social/encounter/discoverable', await t.request('GET', '/api/social/encounter/discoverable', { token })],
      ['GET', '/api/social/encounter/topics', await t.request('GET', '/api/social/encounter/topics', { token })],
      ['POST', '/chat', await t.request('POST', '/chat', { token, body: { prompt_id: 'doc-1', prompt: 'what is 2 + 2', casual_conv: true } })],
      ['POST', '/goals', await t.request('POST', '/goals', { token, body: { goal: 'say hello', subtasks: ['say hello'] } })],
      ['GET', '/api/v1/intelligence/keys', await t.request('GET', '/api/v1/intelligence/keys', { token })],
      ['GET', '/v1/models', await t.request('GET', '/v1/models', { token: key })],
      ['POST', '/v1/chat/completions', await t.request('POST', '/v1/chat/completions', { token: key, body: { model: 'agent-platform-1', messages: [{ role: 'user', content: 'hi' }] } })],
      ['POST', '/v1/chat/completions', await t.request('POST', '/v1/chat/completions', { token: key, body: { model: 'other', messages: [{ role: 'user', content: 'hi' }] } })],
      ['GET', '/v1/models', await t.request('GET', '/v1/models', { token })],
    ] as const;
    expect(replies.flatMap(([method, path, response]) => replyProblems(document, method, path, response))).toEqual([]);
  });

  it('given a browser, when it opens /docs, then the UI page and its assets are served', async () => {
    const page = await t.request('GET', '/docs');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    for (const asset of [...(page.body as string).matchAll(/(?:href|src)="(\/docs\/[^"]+)"/g)].map((m) => m[1])) {
      const response = await fetch(`${t.url}${asset}`);
      expect({ asset, status: response.status }).toEqual({ asset, status: 200 });
    }
    expect((await t.request('GET', '/docs/package.json')).status).toBe(404);
  });
});
