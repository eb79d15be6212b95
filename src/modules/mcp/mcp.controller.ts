/**
 * /mcp: the node's MCP server (Model Context Protocol, streamable HTTP
 * transport of the official SDK), for coding agents such as Claude Code
 * (docs/api.md "MCP"; the contest's claude-code.mcp snippet points here).
 *
 * - Authenticated like every route: an API key (`X-API-Key` or
 *   `Authorization: Bearer ak_…`) or a JWT; 401 without. Each request counts
 *   against the key's daily quota (the authenticator does that), and the
 *   tools act as the credential's user (mcp-tools.ts).
 * - Stateless: every POST carries one JSON-RPC message and is answered on its
 *   own with JSON (no session id, no server-initiated stream). A fresh server
 *   and transport serve each request, bound to its caller, so no state is
 *   shared between callers or requests and any node can answer any request.
 * - GET (the server-to-client stream) and DELETE (ending a session) are 405
 *   with `Allow: POST`, as the transport specification provides for a server
 *   that offers neither; the SDK's client expects exactly that.
 *
 * Fastify has already parsed the JSON body (common/json-body.ts); the
 * transport gets it together with the raw Node request and response, which
 * it answers itself (the reply is hijacked).
 */
import { applyDecorators, Controller, Delete, Get, Header, HttpCode, Post, Req, Res } from '@nestjs/common';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ApiBody, ApiResponse, type SchemaObject } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Authenticated } from '../accounts/auth/authenticated.guard';
import type { AuthUser } from '../accounts/auth/auth-user';
import { CurrentUser } from '../accounts/auth/current-user.decorator';
import type { CommandContext } from '../common/command-executor';
import { RequestContext } from '../common/request-context';
import { McpTools } from './mcp-tools';
import { JSON_RPC_ERROR, JSON_RPC_REPLY, JSON_RPC_REQUEST, type JsonRpcError, METHOD_NOT_ALLOWED } from './mcp.replies';

/** 405 with `Allow: POST` and the transport's JSON-RPC error: a part of the transport this stateless server does not offer. */
const NotOffered = (description: string): MethodDecorator =>
  applyDecorators(
    HttpCode(405),
    Header('allow', 'POST'),
    ApiResponse({ status: 405, description, content: { 'application/json': { schema: JSON_RPC_ERROR as SchemaObject } } }),
  );

@Controller('mcp')
@Authenticated()
export class McpController {
  constructor(private readonly tools: McpTools) {}

  @Post()
  @ApiBody({ description: 'one JSON-RPC 2.0 message of the MCP protocol; the request must accept `application/json, text/event-stream`', schema: JSON_RPC_REQUEST as SchemaObject })
  @ApiResponse({ status: 200, description: 'the JSON-RPC response (initialize, tools/list, tools/call …)', content: { 'application/json': { schema: JSON_RPC_REPLY as SchemaObject } } })
  @ApiResponse({ status: 202, description: 'a notification or response was accepted (no body)' })
  @ApiResponse({ status: 406, description: 'the request does not accept both `application/json` and `text/event-stream`', content: { 'application/json': { schema: JSON_RPC_ERROR as SchemaObject } } })
  async post(
    @CurrentUser() user: AuthUser,
    @RequestContext() context: CommandContext,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const server = this.tools.serverFor({ user, ip: request.ip, context });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    reply.raw.once('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    reply.hijack();
    // null, never undefined: undefined would make the transport read the body stream Fastify already consumed
    await transport.handleRequest(request.raw, reply.raw, request.body ?? null);
  }

  @Get()
  @NotOffered('this server offers no server-to-client stream (stateless transport)')
  stream(): JsonRpcError {
    return METHOD_NOT_ALLOWED;
  }

  @Delete()
  @NotOffered('there are no sessions to end (stateless transport)')
  endSession(): JsonRpcError {
    return METHOD_NOT_ALLOWED;
  }
}
