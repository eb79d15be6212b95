/**
 * A2A end to end (SPEC §4.6, facts "A2A"): an agent created through /chat
 * gets a card and a JSON-RPC endpoint; the official `@a2a-js/sdk` 1.x client
 * resolves the card, sends, gets and cancels; the seed's spellings and error
 * codes; visibility; the gateway probe.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type * as A2aSdkClient from '@a2a-js/sdk/client' with { 'resolution-mode': 'import' };
import { READ_STORE, type ReadStore } from '../../src/infrastructure/read-store/read-store.port';
import { A2A_AGENTS, type A2aAgentDoc } from '../../src/projections/a2a/a2a-agents.projection';
import { startTestApp, type TestApp, uniqueName } from '../support/app';

jest.setTimeout(60_000);

// The SDK's types are declared as ES modules; its CommonJS build is what jest loads.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { ClientFactory, ClientFactoryOptions, createAuthenticatingFetchWithRetry, DefaultAgentCardResolver, JsonRpcTransportFactory } = require('@a2a-js/sdk/client') as typeof A2aSdkClient;
type Client = A2aSdkClient.Client;

interface Account {
  token: string;
  userId: string;
  apiKey: string;
}

describe('A2A: agents of the /chat pipeline over JSON-RPC', () => {
  let t: TestApp;
  let gateway: Server;
  let gatewayUrl: string;
  let owner: Account;
  let stranger: Account;
  let agentId: string;

  beforeAll(async () => {
    gateway = createServer((req, res) => {
      if (req.url === '/.well-known/agent.json') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ name: 'peer bot', description: 'a peer', url: 'http://peer.example/a2a', version: '1', protocolVersion: '0.3.0', skills: [{ id: 's', name: 's' }] }));
      } else {
        res.writeHead(404).end();
      }
    });
    await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
    gatewayUrl = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}`;
    t = await startTestApp({
      CHAT_RATE_LIMIT_PER_MINUTE: '1000',
      SVC_ADMIN_USERS: 'a2aadmin',
      A2A_GATEWAY_URLS: `${gatewayUrl},http://127.0.0.1:1`,
      A2A_PROBE_ALLOW_PRIVATE: 'true',
      A2A_PROBE_TIMEOUT_MS: '2000',
    });
    owner = await account();
    stranger = await account();
    const created = await t.request('POST', '/chat', { token: owner.token, body: { prompt_id: 'a2a-calc', prompt: '1. what is 3 * 3\n2. reverse "abc"', autonomous: true } });
    expect(created.body).toMatchObject({ recipe_saved: true });
    const agent = await t.app.get<ReadStore>(READ_STORE).collection<A2aAgentDoc>(A2A_AGENTS).findOne({ owner_id: owner.userId, prompt_id: 'a2a-calc' });
    agentId = agent!.agent_id;
  });
  afterAll(async () => {
    await t?.close();
    await new Promise((resolve) => gateway?.close(resolve));
  });

  async function account(username = uniqueName('a2a')): Promise<Account> {
    const registered = await t.request('POST', '/api/social/register', { body: { username, email: `${username}@example.com`, password: 'correct horse battery' } });
    const token = registered.body.data.token as string;
    const me = await t.request('GET', '/api/social/auth/me', { token });
    const key = await t.request('POST', '/api/v1/intelligence/keys', { token, body: { name: 'a2a', tier: 'free' } });
    return { token, userId: me.body.data.id ?? me.body.data.user?.id, apiKey: key.body.data.key };
  }

  /** The official client, as docs/api.md shows it: the card's URL, the API key on every request. */
  async function sdkClient(apiKey: string): Promise<Client> {
    const fetchImpl = createAuthenticatingFetchWithRetry(fetch, { headers: async () => ({ 'X-API-Key': apiKey }), shouldRetryWithHeaders: async () => undefined });
    const factory = new ClientFactory(
      ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
        transports: [new JsonRpcTransportFactory({ fetchImpl })],
        cardResolver: new DefaultAgentCardResolver({ fetchImpl }),
      }),
    );
    return factory.createFromUrl(`${t.url}/a2a/${agentId}/.well-known/agent-card.json`, '');
  }

  const rpc = (body: unknown, auth: Account | null = owner, agent = agentId) =>
    t.request('POST', `/a2a/${agent}/jsonrpc`, { body, headers: auth ? { 'x-api-key': auth.apiKey } : {} });

  describe('the agent card', () => {
    it('given an agent saved through /chat, when its card is fetched, then it carries the SPEC fields, the A2A ones and its JSON-RPC url', async () => {
      const res = await t.request('GET', `/a2a/${agentId}/.well-known/agent.json`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        name: expect.any(String),
        description: expect.any(String),
        url: `${t.url}/a2a/${agentId}/jsonrpc`,
        version: '1',
        protocolVersion: expect.any(String),
        defaultInputModes: ['text/plain'],
        defaultOutputModes: ['text/plain'],
        capabilities: { streaming: true, pushNotifications: false },
        skills: [{ id: 'a2a-calc', name: expect.any(String), description: expect.any(String), tags: expect.arrayContaining(['recipe']) }],
      });
    });

    it('given an agent, when the card is asked by its A2A 1.0 name, then the same card', async () => {
      const [json, card] = await Promise.all([t.request('GET', `/a2a/${agentId}/.well-known/agent.json`), t.request('GET', `/a2a/${agentId}/.well-known/agent-card.json`)]);
      expect(card.body).toEqual(json.body);
    });

    it("given an owner, when listing their agents, then each with its card's and endpoint's URLs; a stranger lists none of them", async () => {
      const mine = await t.request('GET', '/a2a/agents', { token: owner.token });
      expect(mine.body.agents).toEqual([
        { agent_id: agentId, name: expect.any(String), prompt_id: 'a2a-calc', version: 1, card_url: `${t.url}/a2a/${agentId}/.well-known/agent.json`, url: `${t.url}/a2a/${agentId}/jsonrpc` },
      ]);
      expect((await t.request('GET', '/a2a/agents', { token: stranger.token })).body.agents).toEqual([]);
    });

    it('given no such agent, when its card is fetched, then 404', async () => {
      expect((await t.request('GET', '/a2a/recipe_none/.well-known/agent.json')).status).toBe(404);
    });
  });

  describe('the official @a2a-js/sdk client', () => {
    it('given the card, when the client sends a message, then the recipe runs and the task completes with its answer', async () => {
      const client = await sdkClient(owner.apiKey);
      const result = await client.sendMessage({ message: { messageId: uniqueName('m'), role: 1, parts: [{ content: { $case: 'text', value: 'run it' } }] } } as never);
      const task = result as unknown as { id: string; status: { state: number }; artifacts: { parts: { content: { value: string } }[] }[] };
      expect(task.status.state).toBe(3); // TASK_STATE_COMPLETED
      expect(task.artifacts[0].parts[0].content.value).toContain('cba');
    });

    it('given a sent message, when the client gets the task, then it is completed', async () => {
      const client = await sdkClient(owner.apiKey);
      const messageId = uniqueName('m');
      await client.sendMessage({ message: { messageId, role: 1, parts: [{ content: { $case: 'text', value: 'again' } }] } } as never);
      const task = await client.getTask({ id: messageId } as never);
      expect(task).toMatchObject({ id: messageId, status: { state: 3 } });
    });

    it('given a completed task, when the client cancels it, then TaskNotCancelable', async () => {
      const client = await sdkClient(owner.apiKey);
      const messageId = uniqueName('m');
      await client.sendMessage({ message: { messageId, role: 1, parts: [{ content: { $case: 'text', value: 'again' } }] } } as never);
      await expect(client.cancelTask({ id: messageId } as never)).rejects.toMatchObject({ name: 'TaskNotCancelableError' });
    });

    it('given no such task, when the client gets it, then TaskNotFound', async () => {
      const client = await sdkClient(owner.apiKey);
      await expect(client.getTask({ id: 'nope' } as never)).rejects.toMatchObject({ name: 'TaskNotFoundError' });
    });

    it('given the card, when the client streams a message, then submitted, working, then a final completed update', async () => {
      const client = await sdkClient(owner.apiKey);
      const states: number[] = [];
      for await (const event of client.sendMessageStream({ message: { messageId: uniqueName('m'), role: 1, parts: [{ content: { $case: 'text', value: 'stream' } }] } } as never)) {
        const e = event as unknown as { payload?: { $case: string; value: { status?: { state: number } } }; status?: { state: number } };
        states.push((e.payload?.value.status ?? e.status)!.state);
      }
      expect(states).toEqual([1, 2, 3]);
    });
  });

  describe("the seed's spellings", () => {
    it('given message/send with typed parts, when sent, then the SPEC task result; message/get shows it; task/cancel refuses it', async () => {
      const messageId = uniqueName('m');
      const sent = await rpc({ jsonrpc: '2.0', id: 'r1', method: 'message/send', params: { message: { messageId, role: 'user', parts: [{ type: 'text', text: 'go' }] } } });
      expect(sent.status).toBe(200);
      expect(sent.body).toMatchObject({ jsonrpc: '2.0', id: 'r1', result: { id: messageId, status: 'completed', artifacts: [{ parts: [{ type: 'text', text: expect.stringContaining('cba') }] }] } });

      const got = await rpc({ jsonrpc: '2.0', id: 'r2', method: 'message/get', params: { taskId: messageId } });
      expect(got.body.result).toEqual({ id: messageId, contextId: messageId, state: 'completed', timestamp: expect.any(String), content: expect.stringContaining('cba') });

      const canceled = await rpc({ jsonrpc: '2.0', id: 'r3', method: 'task/cancel', params: { taskId: messageId } });
      expect(canceled.status).toBe(200);
      expect(canceled.body).toEqual({ jsonrpc: '2.0', id: 'r3', error: { code: -32600, message: 'Cannot cancel task in state completed' } });
    });

    it('given an unknown task, when got, then HTTP 200 with −32602 "Task X not found"', async () => {
      const res = await rpc({ jsonrpc: '2.0', id: 1, method: 'message/get', params: { taskId: 'ghost' } });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'Task ghost not found' } });
    });

    it('given an unknown method, then HTTP 400 with −32601', async () => {
      const res = await rpc({ jsonrpc: '2.0', id: 1, method: 'tasks/explode', params: {} });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe(-32601);
    });

    it('given an unknown agent, then HTTP 404 with −32602', async () => {
      const res = await rpc({ jsonrpc: '2.0', id: 1, method: 'message/get', params: { taskId: 'x' } }, owner, 'recipe_none');
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ jsonrpc: '2.0', id: 1, error: { code: -32602 } });
    });

    it('given a body that is not JSON, then −32700', async () => {
      const res = await t.request('POST', `/a2a/${agentId}/jsonrpc`, { rawBody: '{"jsonrpc":', headers: { 'x-api-key': owner.apiKey } });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
    });

    it('given an envelope that is not JSON-RPC 2.0, then HTTP 400 with −32600', async () => {
      const res = await rpc({ jsonrpc: '1.0', id: 1, method: 'message/send' });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ jsonrpc: '2.0', id: 1, error: { code: -32600 } });
    });

    it('given no credential, then 401 as a JSON-RPC error', async () => {
      const res = await rpc({ jsonrpc: '2.0', id: 1, method: 'message/get', params: { taskId: 'x' } }, null);
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ jsonrpc: '2.0', id: 1, error: { code: -32000 } });
    });
  });

  describe('visibility', () => {
    it("given another user's agent, when a stranger calls it, then it is not found for them", async () => {
      const res = await rpc({ jsonrpc: '2.0', id: 1, method: 'message/send', params: { message: { parts: [{ type: 'text', text: 'hi' }] } } }, stranger);
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe(-32602);
    });

    it('given a task, then it is recorded on the caller’s own stream, so another caller with the same id never sees it', async () => {
      const messageId = uniqueName('m');
      await rpc({ jsonrpc: '2.0', id: 1, method: 'message/send', params: { message: { messageId, parts: [{ type: 'text', text: 'go' }] } } });
      const events = await t.app.get<ReadStore>(READ_STORE).collection('a2a_tasks').find({ task_id: messageId });
      expect(events.map((doc) => doc._id)).toEqual([`${owner.userId}/${messageId}`]);
    });
  });

  describe('gateway probing', () => {
    it('given configured gateways, when an admin lists the peers, then the A2A-compatible one shows its card and the dead one why not', async () => {
      const admin = await account('a2aadmin');
      const res = await t.request('GET', '/a2a/peers', { token: admin.token });
      expect(res.status).toBe(200);
      expect(res.body.peers).toEqual([
        { gateway: gatewayUrl, compatible: true, card: expect.objectContaining({ name: 'peer bot', url: 'http://peer.example/a2a', protocolVersion: '0.3.0', skills: 1 }) },
        { gateway: 'http://127.0.0.1:1', compatible: false, reason: expect.any(String) },
      ]);
    });
  });
});
