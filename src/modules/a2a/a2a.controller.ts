/**
 * The A2A routes (SPEC §4.6): each registered agent's card, open to anyone
 * (discovery is what a card is for), and its JSON-RPC 2.0 endpoint, which
 * needs a credential (JWT or API key) and serves the agent to its owner.
 *
 * The endpoint answers JSON-RPC envelopes, never the service's
 * `{success: false}` body: every error of the route, the guards' included,
 * is mapped in one place, JsonRpcExceptionFilter (a2a-rpc-errors.ts).
 */
import { randomUUID } from 'node:crypto';
import { Body, Controller, Get, HttpCode, Inject, Param, Post, Req, Res, UseFilters } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiProduces, ApiResponse } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '../../aggregates/shared/domain-error';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import { Authenticated } from '../accounts/auth/authenticated.guard';
import type { AuthUser } from '../accounts/auth/auth-user';
import { CurrentUser } from '../accounts/auth/current-user.decorator';
import { baseUrlOf } from '../common/base-url';
import type { CommandContext } from '../common/command-executor';
import { PathParam, ReadBody, Reply } from '../common/openapi';
import { RateLimited, RateLimits } from '../common/rate-limits/rate-limits';
import { RequestContext } from '../common/request-context';
import {
  agentCard,
  cancelResult,
  type Dialect,
  getResult,
  JsonRpcError,
  readRpcCall,
  readSendParams,
  readTaskId,
  RPC,
  RPC_REQUEST_SCHEMA,
  rpcError,
  rpcResult,
  type RpcCall,
  sendResult,
  streamEvent,
  taskNotCancelable,
  taskNotFound,
  type TaskView,
} from './a2a-wire';
import { JsonRpcExceptionFilter } from './a2a-rpc-errors';
import { type A2aTaskOutcome, CancelA2aTask, SendA2aMessage } from './a2a.commands';
import { A2aQueries } from './a2a.queries';
import { AGENT_CARD, AGENT_ID_PARAM, AGENTS_REPLY, RPC_REPLY } from './a2a.replies';
import type { A2aAgentDoc } from '../../projections/a2a/a2a-agents.projection';
import type { A2aTaskDoc } from '../../projections/a2a/a2a-tasks.projection';

const viewOfOutcome = (o: A2aTaskOutcome): TaskView => ({ id: o.taskId, contextId: o.contextId, state: o.state, timestamp: o.timestamp, content: o.content, error: o.error });
const viewOfDoc = (d: A2aTaskDoc): TaskView => ({ id: d.task_id, contextId: d.context_id, state: d.state, timestamp: d.timestamp, content: d.content, error: d.error });

@Controller('a2a')
export class A2aController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: A2aQueries,
    private readonly limits: RateLimits,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get('agents')
  @Authenticated()
  @Reply(200, AGENTS_REPLY, 'the caller’s agents (saved /chat recipes) with their card and JSON-RPC URLs')
  async agents(@CurrentUser() user: AuthUser, @Req() request: FastifyRequest): Promise<{ agents: Record<string, unknown>[] }> {
    const base = this.baseUrl(request);
    const agents = await this.queries.agentsOf(user.id);
    return {
      agents: agents.map((agent) => ({
        agent_id: agent.agent_id,
        name: agent.name,
        prompt_id: agent.prompt_id,
        version: agent.version,
        card_url: `${base}/a2a/${encodeURIComponent(agent.agent_id)}/.well-known/agent.json`,
        url: `${base}/a2a/${encodeURIComponent(agent.agent_id)}/jsonrpc`,
      })),
    };
  }

  @Get([':agent_id/.well-known/agent.json', ':agent_id/.well-known/agent-card.json'])
  @PathParam('agent_id', AGENT_ID_PARAM)
  @Reply(200, AGENT_CARD, 'the agent card (SPEC §2.5); agent-card.json is the name A2A 1.0 clients ask for')
  @ApiResponse({ status: 404, description: 'the agent is not registered' })
  async card(@Param('agent_id') agentId: string, @Req() request: FastifyRequest): Promise<Record<string, unknown>> {
    const agent = await this.queries.agent(agentId);
    if (!agent) throw new DomainError('not_found', 'agent not found');
    return agentCard(agent, this.baseUrl(request));
  }

  /** Where clients reach this node: PUBLIC_BASE_URL, else as the client addressed it (validated). */
  private baseUrl(request: FastifyRequest): string {
    return baseUrlOf(request, this.config.http.publicBaseUrl);
  }

  @Post(':agent_id/jsonrpc')
  @HttpCode(200)
  @UseFilters(JsonRpcExceptionFilter)
  // guards run in the order they are applied, bottom-up: the credential first, then the caller's bucket
  @RateLimited('pipeline', 'pipeline_ip')
  @Authenticated()
  @PathParam('agent_id', AGENT_ID_PARAM)
  @ReadBody(RPC_REQUEST_SCHEMA)
  @Reply(200, RPC_REPLY, 'a JSON-RPC response: a result, or an error about the params or the task')
  @ApiResponse({ status: 400, description: 'JSON-RPC error: parse error (−32700), invalid request (−32600), unknown method (−32601)' })
  @ApiResponse({ status: 404, description: 'JSON-RPC error −32602: the agent is not registered (or not the caller’s)' })
  @ApiProduces('application/json', 'text/event-stream')
  async rpc(
    @Param('agent_id') agentId: string,
    @CurrentUser() user: AuthUser,
    @Body() body: unknown,
    @RequestContext() context: CommandContext,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const call = readRpcCall(body);
    const agent = await this.queries.agent(agentId);
    if (!agent || agent.owner_id !== user.id) throw new JsonRpcError(RPC.invalidParams, `Agent ${agentId.slice(0, 128)} not found`, 404);
    switch (call.operation) {
      case 'send': {
        const task = await this.send(call, agent, user, context, request);
        void reply.status(200).send(rpcResult(call.id, sendResult(call.dialect, task)));
        return;
      }
      case 'stream':
        return this.stream(call, agent, user, context, request, reply);
      case 'get': {
        const taskId = readTaskId(call.params);
        const task = await this.queries.task(user.id, agent.agent_id, taskId);
        if (!task) throw taskNotFound(call.dialect, taskId);
        void reply.status(200).send(rpcResult(call.id, getResult(call.dialect, viewOfDoc(task))));
        return;
      }
      case 'cancel': {
        const taskId = readTaskId(call.params);
        const canceled = await this.cancel(call.dialect, user.id, agent.agent_id, taskId, context);
        void reply.status(200).send(rpcResult(call.id, cancelResult(call.dialect, canceled)));
        return;
      }
    }
  }

  /** Runs the message (or finds the task a retried send names). */
  private async send(
    call: RpcCall,
    agent: A2aAgentDoc,
    user: AuthUser,
    context: CommandContext,
    request: FastifyRequest,
    progress?: (outcome: A2aTaskOutcome) => void,
  ): Promise<TaskView> {
    const params = readSendParams(call.params);
    // a message runs the /chat pipeline: it counts against the caller's /chat rate
    await this.limits.take(['chat'], { userId: user.id, ip: request.ip });
    const taskId = params.taskId ?? randomUUID();
    const outcome = await this.commands.execute(
      new SendA2aMessage(
        { userId: user.id, agentId: agent.agent_id, promptId: agent.prompt_id, taskId, contextId: params.contextId ?? taskId, text: params.text },
        context,
        progress,
      ),
    );
    if (outcome) return viewOfOutcome(outcome);
    const existing = await this.queries.task(user.id, agent.agent_id, taskId);
    // the id names a task the caller sent to another agent
    if (!existing) throw new JsonRpcError(RPC.invalidParams, `Invalid params: message ${taskId} was already sent to another agent`);
    return viewOfDoc(existing);
  }

  private async cancel(dialect: Dialect, userId: string, agentId: string, taskId: string, context: CommandContext): Promise<TaskView> {
    try {
      return viewOfOutcome(await this.commands.execute(new CancelA2aTask({ userId, agentId, taskId }, context)));
    } catch (error) {
      if (error instanceof DomainError && error.kind === 'not_found') throw taskNotFound(dialect, taskId);
      if (error instanceof DomainError && error.kind === 'conflict') throw taskNotCancelable(dialect, error.message);
      throw error;
    }
  }

  /**
   * message/stream, SendStreamingMessage: server-sent events, each `data:` a
   * JSON-RPC response echoing the request's id: the task as submitted, then
   * each status update, the last one final. Errors before the stream opens
   * are plain JSON-RPC errors; after, one error event ends the stream.
   */
  private async stream(call: RpcCall, agent: A2aAgentDoc, user: AuthUser, context: CommandContext, request: FastifyRequest, reply: FastifyReply): Promise<void> {
    readSendParams(call.params);
    await this.limits.take(['chat'], { userId: user.id, ip: request.ip });
    void reply.hijack();
    const raw = reply.raw;
    raw.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', 'x-accel-buffering': 'no', connection: 'close' });
    let first = true;
    const write = (payload: Record<string, unknown>): void => {
      if (!raw.destroyed) raw.write(`data: ${JSON.stringify(payload)}\n\n`);
    };
    const emit = (outcome: A2aTaskOutcome): void => {
      write(rpcResult(call.id, streamEvent(call.dialect, viewOfOutcome(outcome), first)));
      first = false;
    };
    try {
      const task = await this.send(call, agent, user, context, request, emit);
      // a retried id: the task as it stands, once
      if (first) write(rpcResult(call.id, streamEvent(call.dialect, task, true)));
    } catch (error) {
      const message = error instanceof JsonRpcError || error instanceof DomainError ? error.message : 'internal error';
      write(rpcError(call.id, { code: error instanceof JsonRpcError ? error.code : RPC.internal, message }));
    } finally {
      raw.end();
    }
  }
}
