/**
 * The A2A wire (SPEC §2.5, §4.6; facts "A2A"): JSON-RPC 2.0 envelopes, the
 * three spellings of the methods, the params they take and the shapes they
 * answer. Pure functions; the controller only calls them.
 *
 * Dialects, told apart by the method name (and, for `message/send`, which
 * both the seed and A2A 0.3 use, by the message: 0.3 tags it `kind`):
 *
 * | | send | stream (SSE) | get | cancel |
 * |---|---|---|---|---|
 * | seed | `message/send` | – | `message/get {taskId}` | `task/cancel {taskId}` |
 * | A2A 0.3 | `message/send` | `message/stream` | `tasks/get {id}` | `tasks/cancel {id}` |
 * | A2A 1.0 (`@a2a-js/sdk` 1.x) | `SendMessage` | `SendStreamingMessage` | `GetTask {id}` | `CancelTask {id}` |
 *
 * Errors: the seed's codes (facts) on the seed's methods, A2A's own
 * (TaskNotFound −32001, TaskNotCancelable −32002) on the official ones, so
 * that each client recognises its errors.
 */
import type { A2aTaskState } from '../../aggregates/a2a/a2a-task';

export type Dialect = 'seed' | 'v03' | 'v1';
export type Operation = 'send' | 'stream' | 'get' | 'cancel';
export type RpcId = string | number | null;

/** A JSON-RPC error: its code, message and the HTTP status it travels with. */
export class JsonRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly httpStatus = 200,
  ) {
    super(message);
    this.name = 'JsonRpcError';
  }
}

export const RPC = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internal: -32603,
  serverError: -32000,
  taskNotFound: -32001,
  taskNotCancelable: -32002,
} as const;

const METHODS: Record<string, { operation: Operation; dialect: Dialect | 'by_message' }> = {
  'message/send': { operation: 'send', dialect: 'by_message' },
  'message/get': { operation: 'get', dialect: 'seed' },
  'task/cancel': { operation: 'cancel', dialect: 'seed' },
  'message/stream': { operation: 'stream', dialect: 'v03' },
  'tasks/get': { operation: 'get', dialect: 'v03' },
  'tasks/cancel': { operation: 'cancel', dialect: 'v03' },
  SendMessage: { operation: 'send', dialect: 'v1' },
  SendStreamingMessage: { operation: 'stream', dialect: 'v1' },
  GetTask: { operation: 'get', dialect: 'v1' },
  CancelTask: { operation: 'cancel', dialect: 'v1' },
};
export const A2A_METHODS: readonly string[] = Object.keys(METHODS);

/** The JSON Schema of a request the endpoint reads (readRpcCall); the method's params are read by the method. */
export const RPC_REQUEST_SCHEMA: Record<string, unknown> = {
  type: 'object',
  properties: {
    jsonrpc: { const: '2.0' },
    id: { type: ['string', 'number'], description: 'echoed in the reply' },
    method: { enum: [...Object.keys(METHODS)], description: 'the seed’s, A2A 0.3’s or A2A 1.0’s spelling (docs/api.md)' },
    params: {
      type: 'object',
      description: 'send: {message: {messageId?, contextId?, role, parts: [{type|kind: "text", text}]}}; get and cancel: {taskId} or {id}',
    },
  },
  required: ['jsonrpc', 'id', 'method'],
};

export interface RpcCall {
  id: RpcId;
  method: string;
  operation: Operation;
  dialect: Dialect;
  params: Record<string, unknown>;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The id of a body, when it has a usable one (to echo it in an error). */
export function idOf(body: unknown): RpcId {
  if (!isObject(body)) return null;
  const id = body.id;
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null;
}

/** Reads a JSON-RPC request; −32600 (HTTP 400) when it is not one, −32601 (HTTP 400) for a method not served. */
export function readRpcCall(body: unknown): RpcCall {
  if (!isObject(body)) throw new JsonRpcError(RPC.invalidRequest, 'Invalid Request: expected a JSON-RPC 2.0 request object', 400);
  if (body.jsonrpc !== '2.0') throw new JsonRpcError(RPC.invalidRequest, "Invalid Request: jsonrpc must be '2.0'", 400);
  const id = body.id;
  if (!(typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)))) {
    throw new JsonRpcError(RPC.invalidRequest, 'Invalid Request: id must be a string or a number', 400);
  }
  if (typeof body.method !== 'string' || body.method === '') throw new JsonRpcError(RPC.invalidRequest, 'Invalid Request: method must be a string', 400);
  const known = Object.prototype.hasOwnProperty.call(METHODS, body.method) ? METHODS[body.method] : undefined;
  if (!known) throw new JsonRpcError(RPC.methodNotFound, `Method not found: ${body.method.slice(0, 100)}`, 400);
  const params = body.params === undefined ? {} : body.params;
  if (!isObject(params)) throw new JsonRpcError(RPC.invalidParams, 'Invalid params: params must be an object');
  const dialect = known.dialect === 'by_message' ? messageDialect(params) : known.dialect;
  return { id, method: body.method, operation: known.operation, dialect, params };
}

/** `message/send` of A2A 0.3 tags its message `kind: 'message'` and its parts `kind`; the seed's parts carry `type`. */
function messageDialect(params: Record<string, unknown>): Dialect {
  const message = params.message;
  if (!isObject(message)) return 'seed';
  if (message.kind === 'message') return 'v03';
  const parts = Array.isArray(message.parts) ? message.parts : [];
  return parts.some((part) => isObject(part) && 'kind' in part) ? 'v03' : 'seed';
}

export const TASK_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$/;
export const MESSAGE_TEXT_MAX_CHARS = 20_000;

export interface SendParams {
  /** the message's id: the task's id; absent → the service makes one */
  taskId: string | null;
  contextId: string | null;
  text: string;
}

function optionalId(value: unknown, name: string): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string' || !TASK_ID_PATTERN.test(value)) {
    throw new JsonRpcError(RPC.invalidParams, `Invalid params: ${name} must be 1-128 letters, digits, '_', '.', ':' or '-'`);
  }
  return value;
}

/** The text parts of a message (any spelling: `{type:'text'}`, `{kind:'text'}`, `{text}`), joined by newlines. */
export function readSendParams(params: Record<string, unknown>): SendParams {
  const message = params.message;
  if (!isObject(message)) throw new JsonRpcError(RPC.invalidParams, 'Invalid params: message is required');
  if (!Array.isArray(message.parts)) throw new JsonRpcError(RPC.invalidParams, 'Invalid params: message.parts must be an array');
  const texts = message.parts.filter((part): part is { text: string } => isObject(part) && typeof part.text === 'string').map((part) => part.text);
  const text = texts.join('\n').trim();
  if (text === '') throw new JsonRpcError(RPC.invalidParams, 'Invalid params: message must hold a text part');
  if (text.length > MESSAGE_TEXT_MAX_CHARS) throw new JsonRpcError(RPC.invalidParams, `Invalid params: message text longer than ${MESSAGE_TEXT_MAX_CHARS} characters`);
  return { taskId: optionalId(message.messageId, 'message.messageId'), contextId: optionalId(message.contextId, 'message.contextId'), text };
}

/** The task a get or cancel names: `taskId` (seed) or `id` (A2A). */
export function readTaskId(params: Record<string, unknown>): string {
  const value = params.taskId ?? params.id;
  if (typeof value !== 'string' || value === '') throw new JsonRpcError(RPC.invalidParams, 'Invalid params: taskId is required');
  if (!TASK_ID_PATTERN.test(value)) throw new JsonRpcError(RPC.invalidParams, `Task ${value.slice(0, 128)} not found`);
  return value;
}

export function taskNotFound(dialect: Dialect, taskId: string): JsonRpcError {
  return dialect === 'seed' ? new JsonRpcError(RPC.invalidParams, `Task ${taskId} not found`) : new JsonRpcError(RPC.taskNotFound, `Task ${taskId} not found`);
}

export function taskNotCancelable(dialect: Dialect, message: string): JsonRpcError {
  return new JsonRpcError(dialect === 'seed' ? RPC.invalidRequest : RPC.taskNotCancelable, message);
}

/** A task as the service knows it, whatever the dialect. */
export interface TaskView {
  id: string;
  contextId: string;
  state: A2aTaskState;
  /** when the state last changed */
  timestamp: string;
  content: string | null;
  error: string | null;
}

const V1_STATES: Record<A2aTaskState, string> = {
  submitted: 'TASK_STATE_SUBMITTED',
  working: 'TASK_STATE_WORKING',
  completed: 'TASK_STATE_COMPLETED',
  failed: 'TASK_STATE_FAILED',
  canceled: 'TASK_STATE_CANCELED',
};

/** The A2A 0.3 Task object. */
export function v03Task(task: TaskView): Record<string, unknown> {
  return {
    kind: 'task',
    id: task.id,
    contextId: task.contextId,
    status: {
      state: task.state,
      timestamp: task.timestamp,
      ...(task.error ? { message: { kind: 'message', role: 'agent', messageId: `${task.id}-status`, taskId: task.id, contextId: task.contextId, parts: [{ kind: 'text', text: task.error }] } } : {}),
    },
    artifacts: task.content === null ? [] : [{ artifactId: `${task.id}-response`, name: 'response', parts: [{ kind: 'text', text: task.content }] }],
    history: [],
  };
}

/** The A2A 1.0 Task object (protobuf JSON, as the 1.x SDK reads it). */
export function v1Task(task: TaskView): Record<string, unknown> {
  return {
    id: task.id,
    contextId: task.contextId,
    status: {
      state: V1_STATES[task.state],
      timestamp: task.timestamp,
      ...(task.error ? { message: { messageId: `${task.id}-status`, taskId: task.id, contextId: task.contextId, role: 'ROLE_AGENT', parts: [{ text: task.error }] } } : {}),
    },
    artifacts: task.content === null ? [] : [{ artifactId: `${task.id}-response`, name: 'response', parts: [{ text: task.content }] }],
  };
}

/** The result of a send: SPEC §2.5's task result (seed), a Task (0.3), `{task}` (1.0). */
export function sendResult(dialect: Dialect, task: TaskView): Record<string, unknown> {
  switch (dialect) {
    case 'seed':
      return {
        id: task.id,
        contextId: task.contextId,
        status: task.state,
        artifacts: task.content === null ? [] : [{ parts: [{ type: 'text', text: task.content }] }],
        ...(task.error ? { error: task.error } : {}),
      };
    case 'v03':
      return v03Task(task);
    case 'v1':
      return { task: v1Task(task) };
  }
}

/** The result of a get: `{id, contextId, state, timestamp, content?, error?}` (facts) or the dialect's Task. */
export function getResult(dialect: Dialect, task: TaskView): Record<string, unknown> {
  if (dialect === 'seed') {
    return {
      id: task.id,
      contextId: task.contextId,
      state: task.state,
      timestamp: task.timestamp,
      ...(task.content === null ? {} : { content: task.content }),
      ...(task.error === null ? {} : { error: task.error }),
    };
  }
  return dialect === 'v03' ? v03Task(task) : v1Task(task);
}

/** The result of a cancel: `{success: true, taskId}` (facts) or the canceled Task. */
export function cancelResult(dialect: Dialect, task: TaskView): Record<string, unknown> {
  if (dialect === 'seed') return { success: true, taskId: task.id };
  return dialect === 'v03' ? v03Task(task) : v1Task(task);
}

/** One streamed update (SSE): the task as submitted, then each status change; the last one is final. */
export function streamEvent(dialect: Dialect, task: TaskView, first: boolean): Record<string, unknown> {
  const final = task.state === 'completed' || task.state === 'failed' || task.state === 'canceled';
  if (first) return dialect === 'v1' ? { task: v1Task(task) } : v03Task(task);
  if (dialect === 'v1') {
    const status = v1Task(task).status;
    return { statusUpdate: { taskId: task.id, contextId: task.contextId, status, final } };
  }
  const status = v03Task(task).status;
  return { kind: 'status-update', taskId: task.id, contextId: task.contextId, status, final };
}

/** `{jsonrpc, id, result}`. */
export const rpcResult = (id: RpcId, result: unknown): Record<string, unknown> => ({ jsonrpc: '2.0', id, result });

/** `{jsonrpc, id, error: {code, message}}`. */
export const rpcError = (id: RpcId, error: { code: number; message: string }): Record<string, unknown> => ({
  jsonrpc: '2.0',
  id,
  error: { code: error.code, message: error.message },
});

export interface AgentCardSource {
  agent_id: string;
  name: string;
  description: string;
  version: number;
  skills: { id: string; name: string; description: string; tags: string[] }[];
}

/**
 * The agent card (SPEC §2.5, facts): name, description, url (the JSON-RPC
 * endpoint), version, capabilities, skills with tags, plus protocolVersion,
 * defaultInputModes, defaultOutputModes, and the interfaces an A2A 1.0
 * client selects from (JSON-RPC, protocol 1.0 and 0.3, same endpoint).
 */
export function agentCard(agent: AgentCardSource, baseUrl: string): Record<string, unknown> {
  const url = `${baseUrl}/a2a/${encodeURIComponent(agent.agent_id)}/jsonrpc`;
  return {
    name: agent.name,
    description: agent.description,
    url,
    version: String(agent.version),
    protocolVersion: '0.3.0',
    preferredTransport: 'JSONRPC',
    supportedInterfaces: [
      { url, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      { url, protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
    ],
    capabilities: { streaming: true, pushNotifications: false },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: agent.skills.map((skill) => ({ id: skill.id, name: skill.name, description: skill.description, tags: skill.tags })),
    securitySchemes: {
      apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
      bearer: { type: 'http', scheme: 'bearer' },
    },
    security: [{ apiKey: [] }, { bearer: [] }],
  };
}
