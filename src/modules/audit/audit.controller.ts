/** The audit routes (issue 17, social-routes §20): admins only. */
import { Controller, Get, Query } from '@nestjs/common';
import type { Verification } from '../../infrastructure/event-store/hash-chain';
import type { ReadModelDigest } from '../../infrastructure/projections/read-model-digest';
import { Authenticated } from '../accounts/auth/authenticated.guard';
import { type Envelope, type PagedEnvelope, ok, paged } from '../common/envelope';
import { EnvelopeReply, QueryParam, Reply } from '../common/openapi';
import { socialPaths } from '../common/social-paths';
import { AUDIT_EVENTS_PAGE, DIGEST, VERIFICATION } from './audit.replies';
import { AUDIT_EVENTS_QUERY_SCHEMAS, readAuditEventsQuery } from './audit.requests';
import { AuditQueries, type AuditEventView } from './audit.queries';

@Controller(socialPaths('audit'))
@Authenticated('admin')
export class AuditController {
  constructor(private readonly queries: AuditQueries) {}

  /** Walks the whole log and names the first broken link (hash-chain.ts). */
  @Get('verify')
  @EnvelopeReply(200, VERIFICATION)
  async verify(): Promise<Envelope<Verification>> {
    return ok(await this.queries.verify());
  }

  /** Who did what: the log, newest first, by actor, correlation id, stream or type. */
  @Get('events')
  @Reply(200, AUDIT_EVENTS_PAGE)
  @QueryParam('actor', AUDIT_EVENTS_QUERY_SCHEMAS.actor)
  @QueryParam('correlation_id', AUDIT_EVENTS_QUERY_SCHEMAS.correlation_id)
  @QueryParam('stream', AUDIT_EVENTS_QUERY_SCHEMAS.stream)
  @QueryParam('type', AUDIT_EVENTS_QUERY_SCHEMAS.type)
  @QueryParam('limit', AUDIT_EVENTS_QUERY_SCHEMAS.limit)
  @QueryParam('offset', AUDIT_EVENTS_QUERY_SCHEMAS.offset)
  async events(@Query() query: Record<string, unknown>): Promise<PagedEnvelope<AuditEventView>> {
    const request = readAuditEventsQuery(query);
    const { items, total } = await this.queries.events(request);
    return paged(items, total, request.page);
  }

  /** A hash of every read model in a canonical form (read-model-digest.ts). */
  @Get('digest')
  @EnvelopeReply(200, DIGEST)
  async digest(): Promise<Envelope<ReadModelDigest>> {
    return ok(await this.queries.digest());
  }
}
