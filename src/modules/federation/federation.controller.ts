/**
 * Federation (issue 17, item 2) on the central node: the node registry
 * (a node registers its own key; an admin approves it, or
 * FEDERATION_AUTO_ACCEPT does) and the log export that approved regional
 * nodes replay (node-signed, paged, with a bounded long poll).
 */
import { Body, Controller, Get, HttpCode, Param, Post, Query, Req, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import { DomainError } from '../../aggregates/shared/domain-error';
import { Authenticated } from '../accounts/auth/authenticated.guard';
import type { AuthUser } from '../accounts/auth/auth-user';
import { CurrentUser } from '../accounts/auth/current-user.decorator';
import type { CommandContext } from '../common/command-executor';
import { type Envelope, type PagedEnvelope, ok, paged } from '../common/envelope';
import { EnvelopeReply, PathParam, QueryParam, Refusal, Reply } from '../common/openapi';
import { pageQuery, pageQuerySchemas } from '../common/paging';
import { RequestContext } from '../common/request-context';
import { socialPaths } from '../common/social-paths';
import { NodeSigned } from '../integrity/node-signature.guard';
import { ApproveFederationNode, type FederationNodeRecord, RegisterFederationNode } from './federation.commands';
import { FEDERATION_NODE, FEDERATION_NODES_PAGE, LOG_PAGE } from './federation.replies';
import { LOG_QUERY_SCHEMAS, NODE_ID, readLogQuery, RegisterNodeRequest } from './federation.requests';
import { FederationQueries, type FederationNodeView, type LogPage } from './federation.queries';
import { SelfSignedRegistrationGuard } from './self-signed.guard';

const NODES_PAGE = { defaultLimit: 50, cap: 100 };

@Controller(socialPaths('federation'))
export class FederationController {
  constructor(
    private readonly queries: FederationQueries,
    private readonly commands: CommandBus,
  ) {}

  /** A node registers its Ed25519 key; the request is signed by that key as `node_id` (x-node-* headers). */
  @Post('nodes/register')
  @HttpCode(200)
  @UseGuards(SelfSignedRegistrationGuard)
  @EnvelopeReply(200, FEDERATION_NODE)
  @Refusal(401, 'no valid signature by the key in the body as `node_id` (headers missing or malformed, stale timestamp, bad signature, replayed nonce)')
  @Refusal(409, '`Node is registered with another key`')
  async register(@Body() body: RegisterNodeRequest, @RequestContext() context: CommandContext): Promise<Envelope<FederationNodeRecord>> {
    return ok(
      await this.commands.execute(
        new RegisterFederationNode({ nodeId: body.node_id, publicKey: body.public_key, url: body.url, tier: body.tier }, { ...context, actor: `node:${body.node_id}` }),
      ),
    );
  }

  @Post('nodes/:id/approve')
  @HttpCode(200)
  @Authenticated('admin')
  @PathParam('id', { type: 'string', pattern: NODE_ID.source })
  @EnvelopeReply(200, FEDERATION_NODE)
  @Refusal(400, 'a node id that is not 1-128 letters, digits or _ . : -')
  @Refusal(404, '`Node not found`')
  async approve(@Param('id') id: string, @CurrentUser() admin: AuthUser, @RequestContext() context: CommandContext): Promise<Envelope<FederationNodeRecord>> {
    if (!NODE_ID.test(id)) throw new DomainError('invalid', 'node id must be 1-128 letters, digits or _ . : -');
    return ok(await this.commands.execute(new ApproveFederationNode({ nodeId: id, by: admin.id }, context)));
  }

  @Get('nodes')
  @Authenticated('admin')
  @Reply(200, FEDERATION_NODES_PAGE)
  @QueryParam('limit', pageQuerySchemas(NODES_PAGE).limit)
  @QueryParam('offset', pageQuerySchemas(NODES_PAGE).offset)
  async nodes(@Query() query: Record<string, unknown>): Promise<PagedEnvelope<FederationNodeView>> {
    const page = pageQuery(query, NODES_PAGE);
    const { items, total } = await this.queries.nodes(page);
    return paged(items, total, page);
  }

  /** This node's log after `after`, in order, as written (with seals): what a regional node replays. */
  @Get('log')
  @NodeSigned()
  @EnvelopeReply(200, LOG_PAGE)
  @Refusal(400, '`after`, `limit` or `wait` not a whole number in range')
  @QueryParam('after', LOG_QUERY_SCHEMAS.after)
  @QueryParam('limit', LOG_QUERY_SCHEMAS.limit)
  @QueryParam('wait', LOG_QUERY_SCHEMAS.wait)
  async log(@Req() request: FastifyRequest, @Query() query: Record<string, unknown>): Promise<Envelope<LogPage>> {
    const logQuery = readLogQuery(query);
    const gone = new AbortController();
    request.raw.once('close', () => gone.abort());
    return ok(await this.queries.log(logQuery, gone.signal));
  }
}
