/**
 * The real `openai` adapter against the local OpenAI-compatible test server:
 * what goes over the wire and how the server's failures come back.
 */
import { freePort } from '../../../../test/support/free-port';
import { type OpenAiTestServer, startOpenAiTestServer } from '../../../../test/support/openai-test-server';
import { LlmAbortedError, type LlmDelta, LlmRequestError, LlmUnavailableError } from '../llm.port';
import { OpenAiLanguageModel, type OpenAiLanguageModelOptions } from './openai-language-model';

describe('OpenAiLanguageModel against an OpenAI-compatible server', () => {
  let server: OpenAiTestServer;

  beforeAll(async () => {
    server = await startOpenAiTestServer();
  });
  afterAll(async () => {
    await server.close();
  });
  beforeEach(() => {
    server.requests.length = 0;
    server.configure({ fail: null, delayMs: 0 });
  });

  const adapter = (overrides: Partial<OpenAiLanguageModelOptions> = {}) =>
    new OpenAiLanguageModel({ baseUrl: server.url, apiKey: null, model: 'test-model', timeoutMs: 5000, maxRetries: 0, ...overrides });

  const collect = async (deltas: AsyncIterable<LlmDelta>) => {
    const all: LlmDelta[] = [];
    for await (const delta of deltas) all.push(delta);
    return all;
  };

  it('completes with the default model and reports usage', async () => {
    const llm = adapter();
    const completion = await llm.complete({
      messages: [
        { role: 'system', content: 'be brief' },
        { role: 'user', content: 'hello there' },
      ],
      temperature: 0.2,
      maxTokens: 64,
    });
    expect(llm.kind).toBe('openai');
    expect(llm.defaultModel).toBe('test-model');
    expect(completion).toEqual({
      content: 'echo(test-model): hello there',
      model: 'test-model',
      source: 'model',
      usage: { promptTokens: 4, completionTokens: 3 },
      finishReason: 'stop',
    });
    const [sent] = server.requests;
    expect(sent.path).toBe('/v1/chat/completions');
    expect(sent.stream).toBe(false);
    expect(sent.messages).toEqual([
      { role: 'system', content: 'be brief' },
      { role: 'user', content: 'hello there' },
    ]);
    expect(sent.body).toMatchObject({ temperature: 0.2, max_tokens: 64 });
  });

  it('sends a placeholder key when none is configured, and the key when one is', async () => {
    await adapter().complete({ messages: [{ role: 'user', content: 'a' }] });
    await adapter({ apiKey: 'sk-test-123' }).complete({ messages: [{ role: 'user', content: 'b' }] });
    expect(server.requests.map((r) => r.authorization)).toEqual(['Bearer no-key', 'Bearer sk-test-123']);
  });

  it('given a correlation id, when calling, then it goes out as X-Correlation-Id', async () => {
    await adapter().complete({ messages: [{ role: 'user', content: 'a' }], correlationId: 'corr-llm-1' });
    await adapter().complete({ messages: [{ role: 'user', content: 'b' }] });
    expect(server.requests.map((r) => r.correlationId)).toEqual(['corr-llm-1', null]);
  });

  it('uses the per-call model override', async () => {
    const completion = await adapter().complete({ messages: [{ role: 'user', content: 'quick' }], model: 'test-fast' });
    expect(server.requests[0].model).toBe('test-fast');
    expect(completion.model).toBe('test-fast');
    expect(completion.content).toBe('echo(test-fast): quick');
  });

  it('streams deltas that add up to the answer and ends with done and the finish reason', async () => {
    const deltas = await collect(adapter().stream({ messages: [{ role: 'user', content: 'one two three' }], model: 'test-fast' }));
    expect(server.requests[0].stream).toBe(true);
    expect(server.requests[0].model).toBe('test-fast');
    expect(deltas.length).toBeGreaterThan(2);
    expect(deltas.slice(0, -1).every((d) => !d.done && d.content !== '')).toBe(true);
    expect(deltas[deltas.length - 1]).toMatchObject({ content: '', done: true, finishReason: 'stop' });
    expect(deltas.map((d) => d.content).join('')).toBe('echo(test-fast): one two three');
  });

  it('sends images as image_url parts of the last user message', async () => {
    const images = [{ url: 'https://example.test/cat.png' }, { url: 'data:image/png;base64,iVBORw0KGgo=' }];
    const completion = await adapter().complete({
      messages: [
        { role: 'user', content: 'earlier' },
        { role: 'assistant', content: 'ok' },
        { role: 'user', content: 'what is in the picture?' },
      ],
      images,
    });
    const [sent] = server.requests;
    expect(sent.messages[0]).toEqual({ role: 'user', content: 'earlier' });
    expect(sent.messages[2].content).toEqual([
      { type: 'text', text: 'what is in the picture?' },
      { type: 'image_url', image_url: { url: images[0].url } },
      { type: 'image_url', image_url: { url: images[1].url } },
    ]);
    expect(sent.imageUrls).toEqual(images.map((i) => i.url));
    expect(completion.content).toBe('echo(test-model): what is in the picture? +2 image(s)');
  });

  it.each([401, 400, 404])('turns a %i into LlmRequestError with the server message', async (status) => {
    server.configure({ fail: { status, message: `refused with ${status}` } });
    const call = adapter().complete({ messages: [{ role: 'user', content: 'x' }] });
    await expect(call).rejects.toBeInstanceOf(LlmRequestError);
    await expect(call).rejects.toMatchObject({ status, message: `refused with ${status}` });
  });

  it('turns an unknown model into LlmRequestError (404 from the server)', async () => {
    const call = adapter().complete({ messages: [{ role: 'user', content: 'x' }], model: 'no-such-model' });
    await expect(call).rejects.toMatchObject({ name: 'LlmRequestError', status: 404, message: "The model 'no-such-model' does not exist" });
  });

  it('turns a 4xx on a stream into LlmRequestError', async () => {
    server.configure({ fail: { status: 401, message: 'bad key' } });
    await expect(collect(adapter().stream({ messages: [{ role: 'user', content: 'x' }] }))).rejects.toMatchObject({
      name: 'LlmRequestError',
      status: 401,
      message: 'bad key',
    });
  });

  it.each([500, 503, 429])('turns a %i into LlmUnavailableError', async (status) => {
    server.configure({ fail: { status } });
    const call = adapter().complete({ messages: [{ role: 'user', content: 'x' }] });
    await expect(call).rejects.toBeInstanceOf(LlmUnavailableError);
    await expect(call).rejects.toMatchObject({ status });
  });

  it('retries a 500 when retries are allowed', async () => {
    server.configure({ fail: { status: 500, times: 1 } });
    const completion = await adapter({ maxRetries: 1 }).complete({ messages: [{ role: 'user', content: 'again' }] });
    expect(completion.content).toBe('echo(test-model): again');
    expect(server.requests).toHaveLength(2);
  });

  it('turns a server that is down into LlmUnavailableError', async () => {
    const port = await freePort();
    const llm = new OpenAiLanguageModel({ baseUrl: `http://127.0.0.1:${port}/v1`, apiKey: null, model: 'm', timeoutMs: 2000, maxRetries: 0 });
    await expect(llm.complete({ messages: [{ role: 'user', content: 'x' }] })).rejects.toBeInstanceOf(LlmUnavailableError);
    await expect(collect(llm.stream({ messages: [{ role: 'user', content: 'x' }] }))).rejects.toBeInstanceOf(LlmUnavailableError);
  });

  it('turns a timeout into LlmUnavailableError', async () => {
    server.configure({ delayMs: 1000 });
    const started = Date.now();
    await expect(adapter({ timeoutMs: 150 }).complete({ messages: [{ role: 'user', content: 'slow' }] })).rejects.toBeInstanceOf(
      LlmUnavailableError,
    );
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('turns the caller aborting into LlmAbortedError', async () => {
    server.configure({ delayMs: 1000 });
    const controller = new AbortController();
    const call = adapter().complete({ messages: [{ role: 'user', content: 'x' }], signal: controller.signal });
    setTimeout(() => controller.abort(), 50); // the caller aborts while the (1 s) answer is still on its way
    await expect(call).rejects.toBeInstanceOf(LlmAbortedError);
  });
});
