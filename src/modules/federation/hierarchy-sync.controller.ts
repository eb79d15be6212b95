/**
 * The hierarchical sync queue (social-routes §19):
 * - POST /hierarchy/sync: a child node's batch, node-signed (x-node-*, the
 *   child's registered key); answered raw `{success, processed, errors}`.
 * - GET /sync/queue (an addition, admins): this node's queue with a status
 *   filter, paginated, and the counts by status.
 */
import { Body, Controller, Get, HttpCode, Inject, Post, Query } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { DomainError } from '../../aggregates/shared/domain-error';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import { Authenticated } from '../accounts/auth/authenticated.guard';
import type { CommandContext } from '../common/command-executor';
import { QueryParam, Refusal, Reply } from '../common/openapi';
import { type PageMeta, paged } from '../common/envelope';
import { pageQuery, pageQuerySchemas } from '../common/paging';
import { RequestContext } from '../common/request-context';
import { socialPaths } from '../common/social-paths';
import { CallingNode, NodeSigned } from '../integrity/node-signature.guard';
import { ReceiveSyncBatch, type SyncBatchResult } from './federation-sync.commands';
import { type QueueCounts, FederationSyncQueries } from './federation-sync.queries';
import { SYNC_BATCH_REPLY, SYNC_QUEUE_PAGE, type SyncQueueItemView, syncQueueItemView } from './federation-sync.replies';
import { readQueueStatus, readSyncBatch, SYNC_QUEUE_STATUSES } from './federation-sync.requests';
import { outboxPage, RegionalWrites } from './regional-writes';

const QUEUE_PAGE = { defaultLimit: 50, cap: 200 };

@Controller(socialPaths('hierarchy'))
export class HierarchySyncController {
  constructor(private readonly commands: CommandBus) {}

  @Post('sync')
  @HttpCode(200)
  @NodeSigned()
  @Reply(200, SYNC_BATCH_REPLY, 'raw: the ids applied or settled here before (processed) and the refused ones (errors)')
  @Refusal(400, 'no `node_id`, `items` not an array or over 500, or an encrypted envelope (not supported)')
  @Refusal(403, '`node_id does not match the signing node`')
  async sync(@Body() body: unknown, @CallingNode() caller: string, @RequestContext() context: CommandContext): Promise<{ success: true } & Omit<SyncBatchResult, 'replies'> & Partial<Pick<SyncBatchResult, 'replies'>>> {
    const batch = readSyncBatch(body);
    if (batch.nodeId !== caller) throw new DomainError('forbidden', 'node_id does not match the signing node');
    if (batch.items.length === 0 && batch.invalid.length === 0) return { success: true, processed: [], errors: [] };
    const { replies, ...result } = await this.commands.execute(new ReceiveSyncBatch({ senderNodeId: caller, items: batch.items, invalid: batch.invalid }, { ...context, actor: `node:${caller}` }));
    // `replies` only when there are some (regional_write items): the original's batches get the original's reply
    return { success: true, ...result, ...(replies.length > 0 ? { replies } : {}) };
  }
}

@Controller(socialPaths('sync'))
export class SyncQueueController {
  constructor(
    private readonly queries: FederationSyncQueries,
    private readonly regionalWrites: RegionalWrites,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get('queue')
  @Authenticated('admin')
  @Reply(200, SYNC_QUEUE_PAGE)
  @QueryParam('status', { enum: [...SYNC_QUEUE_STATUSES] })
  @QueryParam('limit', pageQuerySchemas(QUEUE_PAGE).limit)
  @QueryParam('offset', pageQuerySchemas(QUEUE_PAGE).offset)
  @Refusal(400, 'an unknown status, or a limit or offset that is not a whole number')
  async queue(@Query() query: Record<string, unknown>): Promise<{ success: true; data: SyncQueueItemView[]; meta: PageMeta & { counts: QueueCounts; cap: number; parent_url: string | null } }> {
    const status = readQueueStatus(query);
    const page = pageQuery(query, QUEUE_PAGE);
    // a regional node's queue is its outbox of client writes for central (regional-writes.ts), not a read model
    const { items, total, counts } = this.regionalWrites.active
      ? outboxPage(this.regionalWrites.queue(), status, page)
      : await this.queries.queue(this.config.nodeId, status, page);
    const reply = paged(items.map(syncQueueItemView), total, page);
    const parentUrl = this.config.federation.upstreamUrl ?? this.config.federation.sync.parentUrl;
    return { ...reply, meta: { ...reply.meta, counts, cap: this.config.federation.sync.queueCap, parent_url: parentUrl } };
  }
}
