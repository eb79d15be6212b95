/**
 * The MCP server at /mcp, driven by the official SDK's own client over the
 * streamable HTTP transport against the running app: it lists the tools,
 * calls each as the API key's user, and a client without a credential is
 * refused. The contest's claude-code.mcp snippet points at it.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { startTestApp, type TestApp } from '../support/app';
import { discoverableUser, type EncounterUser, mutualLike } from '../support/encounter';

jest.setTimeout(60_000);

describe('the MCP server at /mcp', () => {
  let t: TestApp;
  const clients: Client[] = [];

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await t.close();
  });

  async function apiKeyOf(user: EncounterUser): Promise<string> {
    const res = await t.request('POST', '/api/v1/intelligence/keys', { token: user.token, body: { name: 'mcp', tier: 'free' } });
    expect(res.status).toBe(201);
    return res.body.data.key;
  }

  async function connect(headers: Record<string, string>): Promise<Client> {
    const client = new Client({ name: 'mcp-e2e', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${t.url}/mcp`), { requestInit: { headers } }));
    clients.push(client);
    return client;
  }

  /** A tool's JSON reply (the text content the server writes). */
  function replyOf(result: unknown): any {
    const { content, isError } = result as CallToolResult;
    expect(isError).toBeFalsy();
    expect(content[0].type).toBe('text');
    return JSON.parse((content[0] as { text: string }).text);
  }

  function errorOf(result: unknown): string {
    const { content, isError } = result as CallToolResult;
    expect(isError).toBe(true);
    return (content[0] as { text: string }).text;
  }

  it('given an API key, when the SDK client lists the tools, then chat, contest join and leaderboard and encounter matches are offered with input schemas', async () => {
    const client = await connect({ 'x-api-key': await apiKeyOf(await discoverableUser(t)) });
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(['chat', 'contest_join', 'contest_leaderboard', 'encounter_matches']);
    const chat = tools.find((tool) => tool.name === 'chat')!;
    expect(chat.inputSchema).toMatchObject({ type: 'object', required: expect.arrayContaining(['prompt_id', 'prompt']) });
    const join = tools.find((tool) => tool.name === 'contest_join')!;
    expect(join.inputSchema.properties?.track).toMatchObject({ enum: ['digital', 'embodied', 'human_wellness'] });
    expect(client.getServerVersion()?.name).toBe('hive');
  });

  it('given an API key as a Bearer token, when calling chat, then the pipeline answers as the key’s user', async () => {
    const user = await discoverableUser(t);
    const client = await connect({ authorization: `Bearer ${await apiKeyOf(user)}` });
    const reply = replyOf(await client.callTool({ name: 'chat', arguments: { prompt_id: 'mcp-chat-1', prompt: 'what is 2 + 2' } }));
    expect(reply).toMatchObject({ prompt_id: 'mcp-chat-1', response: expect.any(String), flow_id: expect.any(String) });
    const history = await t.request('POST', '/chat', { token: user.token, body: { prompt_id: 'mcp-chat-1', prompt: 'and 3 + 3?' } });
    expect(history.status).toBe(200);
  });

  it('given a chat call with a malformed prompt_id, then the tool refuses with an error result, not a crash', async () => {
    const client = await connect({ 'x-api-key': await apiKeyOf(await discoverableUser(t)) });
    const message = errorOf(await client.callTool({ name: 'chat', arguments: { prompt_id: 'no spaces allowed', prompt: 'hi' } }));
    expect(message).toMatch(/prompt_id/);
  });

  it('given an API key, when joining the contest twice through the tool, then the key’s user is on the track and the second receipt says already registered', async () => {
    const user = await discoverableUser(t);
    const client = await connect({ 'x-api-key': await apiKeyOf(user) });
    const first = replyOf(await client.callTool({ name: 'contest_join', arguments: { track: 'embodied' } }));
    expect(first).toMatchObject({ ok: true, already_registered: false, track: 'embodied' });
    const again = replyOf(await client.callTool({ name: 'contest_join', arguments: { track: 'embodied' } }));
    expect(again).toMatchObject({ already_registered: true, joined_at: first.joined_at });
    const http = await t.request('POST', '/api/hive/contest/join', { token: user.token, body: { track: 'embodied' } });
    expect(http.body).toMatchObject({ already_registered: true, joined_at: first.joined_at });
  });

  it('given an unknown track, when joining through the tool, then an error result names the problem', async () => {
    const client = await connect({ 'x-api-key': await apiKeyOf(await discoverableUser(t)) });
    expect(errorOf(await client.callTool({ name: 'contest_join', arguments: { track: 'gold' } }))).toMatch(/track/);
  });

  it('given a joined user, when reading the leaderboard through the tool, then it is the HTTP route’s board', async () => {
    const user = await discoverableUser(t);
    const client = await connect({ 'x-api-key': await apiKeyOf(user) });
    replyOf(await client.callTool({ name: 'contest_join', arguments: { track: 'digital' } }));
    const board = replyOf(await client.callTool({ name: 'contest_leaderboard', arguments: { limit: 200 } }));
    expect(board.meta).toEqual({ track: 'overall', count: board.data.length });
    expect(board.data.map((entry: { user_id: string }) => entry.user_id)).toContain(user.id);
    const http = await t.request('GET', '/api/hive/contest/leaderboard?limit=200');
    expect(board.data).toEqual(http.body.data);
    const digital = replyOf(await client.callTool({ name: 'contest_leaderboard', arguments: { track: 'digital', limit: 1 } }));
    expect(digital.meta).toEqual({ track: 'digital', count: 1 });
  });

  it('given two users who liked each other, when each asks for encounter matches, then each sees the match and a third user sees none, even naming one of them', async () => {
    const a = await discoverableUser(t);
    const b = await discoverableUser(t);
    const matchId = await mutualLike(t, a, b);
    const asA = replyOf(await (await connect({ 'x-api-key': await apiKeyOf(a) })).callTool({ name: 'encounter_matches', arguments: {} }));
    expect(asA.count).toBe(1);
    expect(asA.matches[0]).toMatchObject({ id: matchId });
    const http = await t.request('GET', '/api/social/encounter/matches', { token: a.token });
    expect(asA).toEqual(http.body.data);
    const asB = replyOf(await (await connect({ 'x-api-key': await apiKeyOf(b) })).callTool({ name: 'encounter_matches', arguments: {} }));
    expect(asB.matches.map((m: { id: string }) => m.id)).toEqual([matchId]);
    const stranger = await connect({ 'x-api-key': await apiKeyOf(await discoverableUser(t)) });
    expect(replyOf(await stranger.callTool({ name: 'encounter_matches', arguments: {} }))).toEqual({ matches: [], count: 0 });
    // a user named in the arguments is not who the tool acts as: the key's user is
    expect(replyOf(await stranger.callTool({ name: 'encounter_matches', arguments: { user_id: a.id } }))).toEqual({ matches: [], count: 0 });
  });

  it('given a JWT instead of a key, then the client connects too', async () => {
    const client = await connect({ authorization: `Bearer ${(await discoverableUser(t)).token}` });
    expect((await client.listTools()).tools).toHaveLength(4);
  });

  it('given no credential, when the SDK client connects, then it is refused with 401', async () => {
    const client = new Client({ name: 'mcp-e2e', version: '1.0.0' });
    const refused = client.connect(new StreamableHTTPClientTransport(new URL(`${t.url}/mcp`)));
    await expect(refused).rejects.toBeInstanceOf(StreamableHTTPError);
    await expect(refused).rejects.toMatchObject({ code: 401 });
  });

  it('given a revoked-looking key, when the SDK client connects, then it is refused with 401', async () => {
    const client = new Client({ name: 'mcp-e2e', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(`${t.url}/mcp`), { requestInit: { headers: { 'x-api-key': `ak_${'0'.repeat(16)}_${'a'.repeat(43)}` } } });
    await expect(client.connect(transport)).rejects.toMatchObject({ code: 401 });
  });

  it('given hostile JSON-RPC bodies from a client that accepts the transport, then each is refused in JSON-RPC terms, never a 5xx', async () => {
    const key = await apiKeyOf(await discoverableUser(t));
    const call = (params: unknown) => ({ jsonrpc: '2.0', id: 1, method: 'tools/call', params });
    const bodies = [
      {},
      'hello',
      { jsonrpc: '1.0', id: 1, method: 'tools/list' },
      call({ name: 'no_such_tool', arguments: {} }),
      call({ name: 'chat', arguments: { prompt_id: { $gt: '' }, prompt: ['x'] } }),
      call({ name: 'contest_leaderboard', arguments: { limit: 1e308, track: { $ne: null } } }),
    ];
    for (const body of bodies) {
      const res = await t.request('POST', '/mcp', { body, headers: { 'x-api-key': key, accept: 'application/json, text/event-stream' } });
      expect(res.status).toBeLessThan(500);
      expect(res.body.jsonrpc).toBe('2.0');
      expect(res.body.error ?? res.body.result?.isError).toBeTruthy();
    }
  });

  it('given a key, when GET or DELETE /mcp, then 405 with Allow: POST: the server is stateless and offers no stream', async () => {
    const key = await apiKeyOf(await discoverableUser(t));
    for (const method of ['GET', 'DELETE'] as const) {
      const res = await t.request(method, '/mcp', { headers: { 'x-api-key': key, accept: 'text/event-stream' } });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
    }
  });

  it('given the contest snippet, then it points Claude Code at this node’s /mcp with the API key header from the environment', async () => {
    const res = await t.request('GET', '/api/hive/contest/claude-code.mcp');
    expect(res.body.mcpServers['hive-contest']).toEqual({ type: 'http', url: `${t.url}/mcp`, headers: { 'X-API-Key': '${HIVE_API_KEY}' } });
  });

  it('given PUBLIC_BASE_URL, then the snippet and the contest info name that address whatever Host the request used', async () => {
    const proxied = await startTestApp({ PUBLIC_BASE_URL: 'https://hive.example.org/node7/' });
    try {
      const snippet = await proxied.request('GET', '/api/hive/contest/claude-code.mcp');
      expect(snippet.body.mcpServers['hive-contest'].url).toBe('https://hive.example.org/node7/mcp');
      const info = await proxied.request('GET', '/api/hive/contest/info');
      expect(info.body.data.onramp.mcp_config_url).toBe('https://hive.example.org/node7/api/hive/contest/claude-code.mcp');
    } finally {
      await proxied.close();
    }
  });
});
