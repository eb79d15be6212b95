/**
 * The same /chat flow with LLM_BASE_URL set: the pipeline talks to an
 * OpenAI-compatible server (here the test support's local one) through the
 * openai adapter. Actions no built-in tool can do go to the model; casual
 * answers come from it; model_config overrides the model per call; only the
 * redacted prompt reaches the server; a server that is down is a 503.
 */
import { startOpenAiTestServer, type OpenAiTestServer } from '../support/openai-test-server';
import { startTestApp, type TestApp, uniqueName } from '../support/app';

jest.setTimeout(60_000);

describe('POST /chat on an OpenAI-compatible server', () => {
  let server: OpenAiTestServer;
  let t: TestApp;

  beforeAll(async () => {
    server = await startOpenAiTestServer({ models: ['test-model', 'other-model'] });
    t = await startTestApp({ LLM_BASE_URL: server.url, LLM_MODEL: 'test-model', LLM_MAX_RETRIES: '0', LLM_TIMEOUT_MS: '5000' });
  });
  afterAll(async () => {
    await t?.close();
    await server?.close();
  });

  const chat = (body: Record<string, unknown>) => t.request('POST', '/chat', { body });

  it('given the newcomer flow, when the recipe runs, then model steps are answered by the model and tool steps by the tools', async () => {
    const user = uniqueName('u');
    const first = await chat({ user_id: user, prompt_id: 'mix', prompt: '1. write a haiku about rain\n2. what is 6 * 7' });
    expect(first.body.response).toContain('Creation Mode');
    expect(first.body.response).not.toContain('No language model is configured');
    await chat({ user_id: user, prompt_id: 'mix', prompt: 'looks good' });
    const saved = await chat({ user_id: user, prompt_id: 'mix', prompt: 'approve' });
    expect(saved.body).toMatchObject({ recipe_saved: true, actions_completed: 2 });
    expect(saved.body.response).toContain('echo(test-model): write a haiku about rain');
    expect(saved.body.response).toContain('42');
    const reused = await chat({ user_id: user, prompt_id: 'mix', prompt: 'again' });
    expect(reused.body).toMatchObject({ actions_completed: 2, recipe_saved: false });
  });

  it('given casual_conv and a model_config, when chatting, then the model named in the request answers', async () => {
    const res = await chat({ user_id: uniqueName('u'), prompt_id: 'c', prompt: 'hello there', casual_conv: true, model_config: { model: 'other-model' } });
    expect(res.status).toBe(200);
    expect(res.body.response).toBe('echo(other-model): hello there');
    expect(server.requests[server.requests.length - 1].model).toBe('other-model');
  });

  it('given a secret in the prompt, when sent to the model, then the server only sees it redacted', async () => {
    const secret = 'ghp_' + 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8';
    await chat({ user_id: uniqueName('u'), prompt_id: 's', prompt: `my token is ${secret}, keep it safe`, casual_conv: true });
    const sent = JSON.stringify(server.requests[server.requests.length - 1].messages);
    expect(sent).not.toContain(secret);
    expect(sent).toContain('[REDACTED:');
  });

  it('given an image, when /visual_agent runs, then the image reaches the model as an image part', async () => {
    const res = await t.request('POST', '/visual_agent', {
      body: { user_id: uniqueName('u'), prompt_id: 'v', prompt: 'describe it', image_url: 'https://example.com/cat.png' },
    });
    expect(res.body).toMatchObject({ source: 'model', response: 'echo(test-model): describe it +1 image(s)' });
    expect(server.requests[server.requests.length - 1].imageUrls).toEqual(['https://example.com/cat.png']);
  });

  it('given the model server failing, when chatting casually, then 503 and nothing half-written', async () => {
    server.configure({ fail: { status: 500 } });
    try {
      const res = await chat({ user_id: uniqueName('u'), prompt_id: 'down', prompt: 'hi', casual_conv: true });
      expect(res.status).toBe(503);
      expect(res.body.success).toBe(false);
    } finally {
      server.configure({ fail: null });
    }
  });
});

describe('POST /chat budget on a priced model', () => {
  it('given priced responses, when the day\'s spend leaves less than the next estimate, then 402 with the estimate', async () => {
    const server = await startOpenAiTestServer({ models: ['test-model'] });
    const t = await startTestApp({
      LLM_BASE_URL: server.url,
      LLM_MODEL: 'test-model',
      LLM_MAX_RETRIES: '0',
      LLM_PRICE_PER_1K_TOKENS_USD: '1000',
      CHAT_EXPECTED_COMPLETION_TOKENS: '0',
      CHAT_DAILY_BUDGET_USD: '1.5',
    });
    try {
      const body = { user_id: uniqueName('u'), prompt_id: 'priced', prompt: 'hi', casual_conv: true };
      const first = await t.request('POST', '/chat', { body });
      expect(first.status).toBe(200);
      const second = await t.request('POST', '/chat', { body: { ...body, prompt_id: 'priced-2' } });
      expect(second.status).toBe(402);
      expect(second.body).toMatchObject({ success: false, estimate_usd: expect.any(Number), remaining_usd: 0 });
    } finally {
      await t.close();
      await server.close();
    }
  });
});

