/**
 * The OpenAI-compatible API under /v1, driven by the official `openai`
 * client pointed at the app's `/v1`: the model list, plain and streamed chat
 * completions on the offline engine (and passed through from an upstream
 * OpenAI-compatible server), images through the vision path, OpenAI-shaped
 * errors raised as the client's own error classes, the free tier's 100
 * requests a day counted exactly under concurrency, and every answered call
 * metered as api revenue of $0.
 */
import OpenAI, { AuthenticationError, BadRequestError, NotFoundError, RateLimitError } from 'openai';
import { READ_STORE, type ReadStore } from '../../src/infrastructure/read-store/read-store.port';
import { OFFLINE_DISCLOSURE } from '../../src/infrastructure/llm/llm.port';
import { REVENUE_DAILY } from '../../src/projections/compute/revenue.projection';
import { startOpenAiTestServer, type OpenAiTestServer } from '../support/openai-test-server';
import { settled, startTestApp, type TestApp, uniqueName } from '../support/app';

jest.setTimeout(60_000);

const MODEL = 'agent-platform-1';
/** a 1 x 1 PNG */
const PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

async function session(t: TestApp): Promise<string> {
  const username = uniqueName('v1');
  const res = await t.request('POST', '/api/social/register', { body: { username, email: `${username}@example.com`, password: 'correct horse battery' } });
  return res.body.data.token;
}

async function freeKey(t: TestApp, token?: string): Promise<string> {
  const res = await t.request('POST', '/api/v1/intelligence/keys', { token: token ?? (await session(t)), body: { name: 'sdk', tier: 'free' } });
  expect(res.status).toBe(201);
  return res.body.data.key;
}

const clientFor = (t: TestApp, apiKey: string) => new OpenAI({ baseURL: `${t.url}/v1`, apiKey, maxRetries: 0 });

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail');
}

describe('the OpenAI-compatible API on the offline engine', () => {
  let t: TestApp;
  let client: OpenAI;

  beforeAll(async () => {
    t = await startTestApp();
    client = clientFor(t, await freeKey(t));
  });
  afterAll(() => t.close());

  it('given a key, when the client lists models, then it sees the one stable model id', async () => {
    const models = await client.models.list();
    expect(models.data.map((m) => m.id)).toEqual([MODEL]);
    expect(models.data[0]).toMatchObject({ object: 'model', owned_by: expect.any(String) });
  });

  it('given a prompt, when the client creates a completion, then choices[0].message.content, finish_reason and usage come back', async () => {
    const completion = await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'what is 6 * 7' }] });
    expect(completion).toMatchObject({ object: 'chat.completion', model: MODEL, id: expect.stringMatching(/^chatcmpl-/) });
    expect(completion.choices).toHaveLength(1);
    expect(completion.choices[0].finish_reason).toBe('stop');
    expect(completion.choices[0].message.role).toBe('assistant');
    expect(completion.choices[0].message.content).toContain(OFFLINE_DISCLOSURE);
    expect(completion.choices[0].message.content).toContain('42');
    const usage = completion.usage!;
    expect(usage.prompt_tokens).toBeGreaterThan(0);
    expect(usage.completion_tokens).toBeGreaterThan(0);
    expect(usage.total_tokens).toBe(usage.prompt_tokens + usage.completion_tokens);
  });

  it('given stream: true, when the client iterates the chunks, then they add up to the plain answer, end with a finish_reason and the usage', async () => {
    const messages = [{ role: 'user' as const, content: 'what is 6 * 7\nwrite a poem' }];
    const plain = await client.chat.completions.create({ model: MODEL, messages });
    const stream = await client.chat.completions.create({ model: MODEL, messages, stream: true, stream_options: { include_usage: true } });
    let content = '';
    const reasons: (string | null)[] = [];
    let usage: OpenAI.CompletionUsage | null | undefined;
    let chunks = 0;
    for await (const chunk of stream) {
      chunks += 1;
      expect(chunk).toMatchObject({ object: 'chat.completion.chunk', model: MODEL });
      for (const choice of chunk.choices) {
        content += choice.delta.content ?? '';
        reasons.push(choice.finish_reason);
      }
      if (chunk.usage) usage = chunk.usage;
    }
    expect(chunks).toBeGreaterThan(3);
    expect(content).toBe(plain.choices[0].message.content);
    expect(reasons.filter(Boolean)).toEqual(['stop']);
    expect(reasons[reasons.length - 1]).toBe('stop');
    expect(usage).toEqual(plain.usage);
  });

  it('given stream: true, when read as raw server-sent events, then every event is a data line and the last is [DONE]', async () => {
    const key = await freeKey(t);
    const res = await fetch(`${t.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'hello' }], stream: true }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const events = (await res.text()).split('\n\n').filter(Boolean);
    expect(events.every((e) => e.startsWith('data: '))).toBe(true);
    expect(events[events.length - 1]).toBe('data: [DONE]');
    expect(events.slice(0, -1).every((e) => JSON.parse(e.slice(6)).usage === undefined)).toBe(true);
  });

  it('given an image_url part, when the client asks about it, then the vision path answers about that image', async () => {
    const completion = await client.chat.completions.create({
      model: MODEL,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'what is in this picture?' }, { type: 'image_url', image_url: { url: PNG } }] }],
    });
    const content = completion.choices[0].message.content!;
    expect(content).toContain('Vision needs a language model');
    expect(content).toMatch(/PNG.*1\s*[x×]\s*1/i);
  });

  it('given a wrong key, when the client calls, then AuthenticationError with an OpenAI-shaped body', async () => {
    const key = await freeKey(t);
    const error = await rejection(clientFor(t, `${key.slice(0, -2)}xx`).models.list());
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({ status: 401, code: 'invalid_api_key', type: 'authentication_error', error: { message: 'Invalid API key', param: null } });
  });

  it('given a login token instead of a key, when the client calls, then 401: the API is metered per key', async () => {
    const error = await rejection(clientFor(t, await session(t)).models.list());
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as AuthenticationError).message).toContain('needs an API key');
  });

  it('given no credential, then 401 in the OpenAI shape, not the service envelope', async () => {
    const res = await t.request('GET', '/v1/models');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: { message: 'unauthenticated', type: 'authentication_error', param: null, code: 'invalid_api_key' } });
  });

  it('given another model id, when the client asks it, then NotFoundError model_not_found', async () => {
    const error = await rejection(client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }));
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ status: 404, code: 'model_not_found', type: 'invalid_request_error' });
  });

  it('given an invalid body, when the client sends it, then BadRequestError naming the field', async () => {
    const error = await rejection(client.chat.completions.create({ model: MODEL, messages: [{ role: 'tool', content: 'x', tool_call_id: 't' }] }));
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error).toMatchObject({ status: 400, type: 'invalid_request_error' });
    expect((error as BadRequestError).message).toContain('messages[0].role must be one of');
  });

  it('given malformed JSON or an unknown /v1 route, then the refusal is OpenAI-shaped too', async () => {
    const key = await freeKey(t);
    const malformed = await t.request('POST', '/v1/chat/completions', { rawBody: '{"model":', headers: { authorization: `Bearer ${key}` } });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error).toMatchObject({ type: 'invalid_request_error', message: expect.any(String) });
    const unknown = await t.request('GET', '/v1/embeddings', { token: key });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toMatchObject({ type: 'invalid_request_error', code: 'unknown_url' });
  });

  it('given a fresh free key, when 120 requests arrive at once, then exactly 100 succeed and 20 get RateLimitError insufficient_quota', async () => {
    const fresh = clientFor(t, await freeKey(t));
    const outcomes = await Promise.allSettled(
      Array.from({ length: 120 }, () => fresh.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'what is 1 + 1' }] })),
    );
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(100);
    const refused = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason] : []));
    expect(refused).toHaveLength(20);
    for (const error of refused) {
      expect(error).toBeInstanceOf(RateLimitError);
      expect(error).toMatchObject({ status: 429, code: 'insufficient_quota', type: 'insufficient_quota' });
      // the quota is back at the next UTC day: clients are told not to retry in seconds
      expect(error.headers.get('x-should-retry')).toBe('false');
      expect(Number(error.headers.get('retry-after'))).toBeGreaterThan(0);
    }
  });

  it('given answered calls on a free key, then each is metered as api revenue of 0 cents', async () => {
    const before = await revenueToday();
    const metered = clientFor(t, await freeKey(t));
    for (let i = 0; i < 3; i++) await metered.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: `what is ${i} + 1` }] });
    await settled(t);
    const after = await revenueToday();
    expect(after.api_calls - before.api_calls).toBe(3);
    expect(after.api_cents).toBe(before.api_cents);
    expect(after.api_tokens).toBeGreaterThan(before.api_tokens);
  });

  async function revenueToday(): Promise<{ api_calls: number; api_cents: number; api_tokens: number }> {
    const doc = await t.app.get<ReadStore>(READ_STORE).collection(REVENUE_DAILY).findOne({ _id: new Date().toISOString().slice(0, 10) });
    return { api_calls: Number(doc?.api_calls ?? 0), api_cents: Number(doc?.api_cents ?? 0), api_tokens: Number(doc?.api_tokens ?? 0) };
  }
});

describe('the OpenAI-compatible API on an upstream OpenAI-compatible server', () => {
  let server: OpenAiTestServer;
  let t: TestApp;
  let client: OpenAI;

  beforeAll(async () => {
    server = await startOpenAiTestServer({ models: ['upstream-model'] });
    t = await startTestApp({ LLM_BASE_URL: server.url, LLM_MODEL: 'upstream-model', LLM_MAX_RETRIES: '0', LLM_TIMEOUT_MS: '5000', V1_MODEL_ID: 'house-model' });
    client = clientFor(t, await freeKey(t));
  });
  afterAll(async () => {
    await t?.close();
    await server?.close();
  });

  it('given V1_MODEL_ID, when the client lists models, then it sees that id, not the upstream model', async () => {
    expect((await client.models.list()).data.map((m) => m.id)).toEqual(['house-model']);
  });

  it('given a streamed request, when the upstream streams, then its text passes through chunk by chunk under the house model id', async () => {
    const stream = await client.chat.completions.create({ model: 'house-model', messages: [{ role: 'user', content: 'one two three' }], stream: true });
    const contents: string[] = [];
    for await (const chunk of stream) {
      expect(chunk.model).toBe('house-model');
      const text = chunk.choices[0]?.delta.content;
      if (text) contents.push(text);
    }
    expect(contents.length).toBeGreaterThan(1);
    expect(contents.join('')).toBe('echo(upstream-model): one two three');
    expect(server.requests[server.requests.length - 1]).toMatchObject({ model: 'upstream-model', stream: true });
  });

  it('given image_url parts, then they reach the upstream as image_url parts of the last user message', async () => {
    const completion = await client.chat.completions.create({
      model: 'house-model',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'describe' }, { type: 'image_url', image_url: { url: 'https://example.test/cat.png' } }] }],
    });
    expect(completion.choices[0].message.content).toBe('echo(upstream-model): describe +1 image(s)');
    expect(server.requests[server.requests.length - 1].imageUrls).toEqual(['https://example.test/cat.png']);
  });
});
