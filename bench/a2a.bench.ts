/**
 * Section 10: A2A `message/send` through the JSON-RPC endpoint, in the real
 * app (embedded default, child process as in section 3), against GET
 * /health on the same app in the same run.
 *
 * Setup: `agents` users register, each gets an API key and one agent (a
 * recipe saved with /chat autonomous: true, offline engine). The timed run
 * sends `message/send` (seed spelling, a fresh messageId per request, so each
 * is a new task: submitted → working → REUSE of the recipe → completed)
 * round-robin over the agents with autocannon. One agent's runs queue behind
 * each other (one conversation), so the agents spread the load.
 *
 * `BENCH_ONLY=10` runs this section alone; BENCH_A2A_AGENTS (default 32),
 * BENCH_A2A_SECONDS (default 5) size it.
 */
import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import { cannon, type HttpRun, printRun, startServer } from './http.bench';
import { expectCall } from './encounter-chat.bench';
import { fixed, heading, int, log, makeTempDir, now, ratio, removeTempDir, secondsSince } from './util';

export interface A2aBenchOptions {
  agents: number;
  connections: number;
  healthSeconds: number;
  seconds: number;
}

export interface A2aBenchResult {
  agents: number;
  health: HttpRun;
  send: HttpRun;
  seconds: number;
}

const APP_ENV = { PASSWORD_HASH_MEMORY_KIB: '4096', CHAT_RATE_LIMIT_PER_MINUTE: '100000', SOCIAL_RATE_LIMIT_DISABLED: '1', RATE_LIMIT_PIPELINE: '1000000/1m', RATE_LIMIT_PIPELINE_IP: '1000000/1m' };

interface Agent {
  token: string;
  path: string;
}

/** A user with a saved recipe: its agent, reached with the user's JWT (a free API key allows 100 requests a day). */
async function newAgent(url: string, i: number, prefix: string): Promise<Agent> {
  const username = `${prefix}${i}`;
  const registered = await expectCall(201, 'register', url, 'POST', '/api/social/register', { username, email: `${username}@example.com`, password: 'correct horse battery' });
  const token = registered.body.data.token as string;
  await expectCall(200, 'autonomous /chat', url, 'POST', '/chat', { prompt_id: 'bench-agent', prompt: '1. what is 3 * 3\n2. reverse "abc"', autonomous: true }, token);
  const listed = await expectCall(200, 'GET /a2a/agents', url, 'GET', '/a2a/agents', undefined, token);
  const agent = (listed.body.agents as { url: string }[])[0];
  if (!agent) throw new Error('the recipe did not register an agent');
  return { token, path: new URL(agent.url).pathname };
}

export async function runA2aBench(options: A2aBenchOptions): Promise<A2aBenchResult> {
  heading('10. A2A message/send (real app, autocannon)');
  const start = now();
  const dataDir = makeTempDir('a2a');
  const server = await startServer(dataDir, APP_ENV);
  try {
    const base = { url: server.url, connections: options.connections };
    await autocannon({ ...base, url: `${server.url}/health`, duration: 1 });
    const health = await cannon('GET /health', { ...base, url: `${server.url}/health` }, options.healthSeconds);
    printRun(health, options.healthSeconds);
    const prefix = `a${randomUUID().slice(0, 6)}`;
    const agents: Agent[] = [];
    for (let i = 0; i < options.agents; i++) agents.push(await newAgent(server.url, i, prefix));
    log(`  setup: ${int(options.agents)} agents (one user, JWT and saved recipe each) in ${fixed(secondsSince(start), 1)} s`);
    let next = 0;
    const send = await cannon(
      'POST message/send',
      {
        ...base,
        url: server.url,
        requests: [
          {
            method: 'POST',
            setupRequest: (request) => {
              const agent = agents[next++ % agents.length];
              return {
                ...request,
                path: agent.path,
                headers: { 'content-type': 'application/json', authorization: `Bearer ${agent.token}` },
                body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'message/send', params: { message: { messageId: randomUUID(), role: 'user', parts: [{ type: 'text', text: 'run' }] } } }),
              };
            },
          },
        ],
      },
      options.seconds,
    );
    printRun(send, options.seconds);
    log(`  ratio message/send / health: ${ratio(send.requestsPerSecond, health.requestsPerSecond)}`);
    if (send.non2xx + send.errors > 0) log(`  ! non-2xx or errors: ${send.statusCodes}`);
    return { agents: options.agents, health, send, seconds: secondsSince(start) };
  } finally {
    await server.stop();
    removeTempDir(dataDir);
  }
}
