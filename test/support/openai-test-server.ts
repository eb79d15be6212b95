/**
 * A small OpenAI-compatible server for tests of the `openai` LLM adapter
 * (issue 7: "a small local OpenAI-compatible test server in the test support"
 * until the service's own /v1 endpoint exists). Loopback only, a free port,
 * deterministic answers, and a record of every request it got so that tests
 * can assert what the adapter sent (model, messages, image parts).
 *
 *   POST /v1/chat/completions  JSON, or SSE chunks ending in `data: [DONE]` with stream: true
 *   GET  /v1/models            the configured model list
 *
 * `configure({ fail: { status: 401 } })` makes the next requests fail the way
 * OpenAI does (`{error: {message, type, code}}`); `delayMs` holds every
 * answer back (for timeouts).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  authorization: string | null;
  /** the X-Correlation-Id header the client sent */
  correlationId: string | null;
  /** the parsed JSON body (null for GET) */
  body: Record<string, unknown> | null;
  model: string | null;
  stream: boolean;
  messages: { role: string; content: unknown }[];
  /** the URLs of every image_url part, in order */
  imageUrls: string[];
}

export interface OpenAiTestServerOptions {
  /** answer with this HTTP error; `times` limits it to the next n requests (default: all) */
  fail: { status: number; message?: string; times?: number } | null;
  delayMs: number;
  models: string[];
  /** the answer's text; default `echo(<model>): <last user text>[ +N image(s)]` */
  reply: (request: RecordedRequest) => string;
}

export interface OpenAiTestServer {
  /** the base URL with /v1, as LLM_BASE_URL takes it */
  readonly url: string;
  readonly requests: RecordedRequest[];
  configure(options: Partial<OpenAiTestServerOptions>): void;
  close(): Promise<void>;
}

const MAX_BODY = 16 * 1024 * 1024;

export function defaultReply(request: RecordedRequest): string {
  const lastUser = [...request.messages].reverse().find((m) => m.role === 'user');
  const text = typeof lastUser?.content === 'string' ? lastUser.content : textOf(lastUser?.content);
  const images = request.imageUrls.length > 0 ? ` +${request.imageUrls.length} image(s)` : '';
  return `echo(${request.model ?? '?'}): ${text}${images}`;
}

function textOf(content: unknown): string {
  if (!Array.isArray(content)) return '';
  return content
    .filter((part): part is { type: 'text'; text: string } => part?.type === 'text' && typeof part.text === 'string')
    .map((part) => part.text)
    .join(' ');
}

function imageUrlsOf(messages: RecordedRequest['messages']): string[] {
  return messages.flatMap((m) =>
    Array.isArray(m.content)
      ? m.content
          .filter((part) => part?.type === 'image_url' && typeof part.image_url?.url === 'string')
          .map((part) => part.image_url.url as string)
      : [],
  );
}

/** A deterministic token count: words, at least 1. */
function tokens(text: string): number {
  return Math.max(1, text.split(/\s+/).filter(Boolean).length);
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw new Error('body too large');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

function sendError(res: ServerResponse, status: number, message: string): void {
  const type = status >= 500 ? 'server_error' : 'invalid_request_error';
  sendJson(res, status, { error: { message, type, code: status === 401 ? 'invalid_api_key' : null } });
}

export async function startOpenAiTestServer(initial: Partial<OpenAiTestServerOptions> = {}): Promise<OpenAiTestServer> {
  const options: OpenAiTestServerOptions = { fail: null, delayMs: 0, models: ['test-model', 'test-fast'], reply: defaultReply, ...initial };
  if (options.fail) options.fail = { ...options.fail }; // `times` counts down on our copy
  const requests: RecordedRequest[] = [];
  let sequence = 0;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0];
    const text = req.method === 'POST' ? await readBody(req) : '';
    let body: Record<string, unknown> | null = null;
    if (text !== '') {
      try {
        body = JSON.parse(text) as Record<string, unknown>;
      } catch {
        return sendError(res, 400, 'body is not JSON');
      }
    }
    const messages = Array.isArray(body?.messages) ? (body.messages as RecordedRequest['messages']) : [];
    const recorded: RecordedRequest = {
      method: req.method ?? 'GET',
      path,
      authorization: req.headers.authorization ?? null,
      correlationId: typeof req.headers['x-correlation-id'] === 'string' ? req.headers['x-correlation-id'] : null,
      body,
      model: typeof body?.model === 'string' ? body.model : null,
      stream: body?.stream === true,
      messages,
      imageUrls: imageUrlsOf(messages),
    };
    requests.push(recorded);

    if (options.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, options.delayMs));
    if (res.destroyed) return; // the client gave up (timeout, abort)
    const fail = options.fail;
    if (fail !== null) {
      if (fail.times !== undefined && --fail.times <= 0) options.fail = null;
      return sendError(res, fail.status, fail.message ?? `test server failure ${fail.status}`);
    }

    if (req.method === 'GET' && path === '/v1/models') {
      return sendJson(res, 200, { object: 'list', data: options.models.map((id) => ({ id, object: 'model', created: 0, owned_by: 'test' })) });
    }
    if (req.method !== 'POST' || path !== '/v1/chat/completions') return sendError(res, 404, `no route ${req.method} ${path}`);
    if (recorded.model === null || messages.length === 0) return sendError(res, 400, 'model and messages are required');
    if (!options.models.includes(recorded.model)) return sendError(res, 404, `The model '${recorded.model}' does not exist`);

    const id = `chatcmpl-test-${++sequence}`;
    const content = options.reply(recorded);
    if (recorded.stream) return streamAnswer(res, id, recorded.model, content);
    const promptTokens = tokens(messages.map((m) => (typeof m.content === 'string' ? m.content : textOf(m.content))).join(' '));
    sendJson(res, 200, {
      id,
      object: 'chat.completion',
      created: 0,
      model: recorded.model,
      choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop', logprobs: null }],
      usage: { prompt_tokens: promptTokens, completion_tokens: tokens(content), total_tokens: promptTokens + tokens(content) },
    });
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendError(res, 500, error instanceof Error ? error.message : String(error));
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    configure(next) {
      Object.assign(options, next, next.fail ? { fail: { ...next.fail } } : {});
    },
    close() {
      return new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
    },
  };
}

/** Word-sized SSE chunks: a role chunk, the content, a finish chunk, then [DONE], as OpenAI sends them. */
function streamAnswer(res: ServerResponse, id: string, model: string, content: string): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  const chunk = (delta: Record<string, unknown>, finish: string | null) =>
    `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: 0, model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  res.write(chunk({ role: 'assistant', content: '' }, null));
  for (const piece of content.match(/\S+\s*|\s+/g) ?? []) res.write(chunk({ content: piece }, null));
  res.write(chunk({}, 'stop'));
  res.end('data: [DONE]\n\n');
}
