/**
 * Writes at a regional node (issue 17, item 2; docs/architecture.md,
 * "Federation"). A regional node holds central's log as central wrote it, so
 * a client's write there cannot become an event there: it travels to
 * central through the sync queue and comes back in the replicated log.
 *
 * Regional side (`RegionalWrites`, on a node with FEDERATION_UPSTREAM_URL):
 * 1. a mutating request (POST, PUT, PATCH, DELETE, and a GET that creates
 *    what it reads: `@WritesOnRead()`) that is not node-signed is queued in the outbox (regional-outbox.ts) as a `regional_write`
 *    item: method, path, the credential and content headers, the JSON text
 *    of the body, the client's address; nothing runs here (central
 *    authenticates, validates and decides, as for a request made there);
 * 2. a batch is sent at once (and retried every SYNC_INTERVAL_MS while
 *    items wait) to central's POST /hierarchy/sync, signed with this node's
 *    key; the items follow the queue's rules (the SYNC_QUEUE_CAP; an item
 *    central could not apply is retried and dead at its 5th failure), except
 *    that a batch which did not reach central is released, not failed: the
 *    writes wait out an outage of central without using up their retries;
 * 3. central's reply for the item (status, content type, body, the log
 *    position after the write) is the client's reply, given once this node
 *    replicated that position and its read models caught up: the client
 *    reads its own write here next. When central cannot be reached within
 *    SYNC_TIMEOUT_MS, the client gets 202 with the queued item's id; the
 *    write lands when central answers a later batch.
 *
 * Central side: regional-write-applier.ts.
 */
import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SyncQueueState } from '../../aggregates/federation/sync-queue';
import { assertNever, DomainError } from '../../aggregates/shared/domain-error';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import { Clock } from '../../infrastructure/clock';
import { EVENT_STORE, type EventStore } from '../../infrastructure/event-store/event-store.port';
import { RegionalReplicator } from '../../infrastructure/federation/regional-replicator';
import { NodeKey } from '../../infrastructure/node-identity/node-key';
import { NODE_ID_HEADER } from '../../infrastructure/node-identity/signed-request';
import { PlatformLifecycle } from '../../infrastructure/platform-lifecycle';
import { ReadYourWrites } from '../../infrastructure/projections/read-your-writes';
import type { SyncQueueItemDoc } from '../../projections/federation/sync-queue.projection';
import type { Page } from '../common/paging';
import type { QueueCounts } from './federation-sync.queries';
import { errorReply } from '../common/http-exception.filter';
import { rawJsonTextOf } from '../common/json-body';
import { writesOnRead } from '../common/writes-on-read';
import { RegionalOutbox } from './regional-outbox';
import { type ForwardedReply, postSyncBatch } from './sync-batch-client';

/** The methods whose requests a regional node sends to central. */
export const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Whether a regional node sends this request to central: a write, not node-signed (a node-signed request is for this node itself). */
export function travelsToCentral(request: FastifyRequest): boolean {
  if (request.headers[NODE_ID_HEADER] !== undefined) return false;
  if (MUTATING.has(request.method)) return true;
  return request.method === 'GET' && writesOnRead(request);
}
/** The request headers that travel with a write: credentials and content negotiation; nothing of the regional hop. */
export const FORWARDED_HEADERS = ['authorization', 'x-api-key', 'content-type', 'accept', 'idempotency-key', 'user-agent', 'x-request-id', 'traceparent'] as const;
const MAX_BATCHES_PER_PASS = 20;

/** A write as it waits in the outbox and travels to central (the `regional_write` item's payload). */
export interface RegionalWrite {
  method: string;
  path: string;
  headers: Record<string, string>;
  /** the JSON text of the body, or null without one */
  body: string | null;
  client_ip: string;
}

/** What a client of the regional node gets for its write. */
export type RegionalWriteOutcome =
  | { kind: 'answered'; reply: ForwardedReply }
  | { kind: 'queued'; itemId: string; status: 'queued' | 'failed' | 'completed'; error: string | null }
  | { kind: 'refused'; message: string };

type Settlement = { reply: ForwardedReply } | { error: string | null; status: 'queued' | 'failed' | 'completed' };

@Injectable()
export class RegionalWrites implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('RegionalWrites');
  private outbox: RegionalOutbox | null = null;
  private readonly waiting = new Map<string, (settlement: Settlement) => void>();
  private passRequested = false;
  private passing: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly key: NodeKey,
    private readonly clock: Clock,
    private readonly replicator: RegionalReplicator,
    private readonly readYourWrites: ReadYourWrites,
    private readonly lifecycle: PlatformLifecycle,
  ) {}

  /** Whether this node sends its clients' writes to central (a regional node replaying FEDERATION_UPSTREAM_URL). */
  get active(): boolean {
    return this.config.federation.upstreamUrl !== null;
  }

  onApplicationBootstrap(): void {
    if (!this.active) return;
    this.outbox = new RegionalOutbox(this.config.dataDir);
    const { intervalMs } = this.config.federation.sync;
    // items that wait (central was down, a batch failed) are retried where the background work runs
    if (intervalMs > 0 && this.lifecycle.runsBackgroundWork()) {
      this.timer = setInterval(() => void this.sendSoon(), intervalMs);
      this.timer.unref();
      void this.sendSoon();
    }
  }

  async onModuleDestroy(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.passing;
    this.outbox?.close();
    this.outbox = null;
  }

  /** The outbox as it stands (GET /sync/queue on a regional node). */
  queue(): SyncQueueState {
    return this.requireOutbox().state();
  }

  /** Queues a client's write for central, sends it, and answers with central's reply once the write is replicated here. */
  async forward(write: RegionalWrite): Promise<RegionalWriteOutcome> {
    const outbox = this.requireOutbox();
    const { sync } = this.config.federation;
    const itemId = `rw:${randomUUID()}`;
    const { events } = outbox.execute(
      { kind: 'enqueue', itemId, nodeId: this.config.nodeId, targetTier: 'central', operationType: 'regional_write', payload: { ...write }, cap: sync.queueCap },
      this.clock.now(),
    );
    if (events.some((e) => e.type === 'SyncItemDropped')) {
      return { kind: 'refused', message: `The regional node's queue for the central node is full (${sync.queueCap} writes wait); try again later` };
    }
    const settled = this.settlementOf(itemId, sync.timeoutMs + 1_000);
    void this.sendSoon();
    const settlement = await settled;
    if (settlement === null) return { kind: 'queued', itemId, status: 'queued', error: null };
    if (!('reply' in settlement)) return { kind: 'queued', itemId, status: settlement.status, error: settlement.error };
    await this.caughtUpWith(settlement.reply.position);
    return { kind: 'answered', reply: settlement.reply };
  }

  /** Waits until the replicated log holds central's `position` and every read model here applied it (bounded: past it, the reply still goes). */
  private async caughtUpWith(position: number): Promise<void> {
    const timeoutMs = Math.max(this.config.readYourWritesTimeoutMs, this.config.federation.waitSeconds * 1000);
    if (!(await this.replicator.waitForPosition(position, timeoutMs))) {
      this.logger.warn(`a regional write's position ${position} was not replicated within ${timeoutMs} ms`);
      return;
    }
    await this.readYourWrites.waitForAll(await this.store.headPosition());
  }

  private settlementOf(itemId: string, timeoutMs: number): Promise<Settlement | null> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiting.delete(itemId);
        resolve(null);
      }, timeoutMs);
      this.waiting.set(itemId, (settlement) => {
        clearTimeout(timer);
        this.waiting.delete(itemId);
        resolve(settlement);
      });
    });
  }

  /** A pass now; asked for while one runs, one more pass follows it (an item queued meanwhile is not left for the timer). */
  private sendSoon(): Promise<void> {
    this.passRequested = true;
    this.passing ??= (async () => {
      try {
        while (this.passRequested && this.outbox !== null) {
          this.passRequested = false;
          await this.pass();
        }
      } catch (error) {
        this.logger.warn(`regional write pass failed: ${error instanceof Error ? error.message : String(error)}`);
      } finally {
        this.passing = null;
      }
    })();
    return this.passing;
  }

  private async pass(): Promise<void> {
    const upstream = this.config.federation.upstreamUrl;
    const { sync } = this.config.federation;
    for (let batch = 0; batch < MAX_BATCHES_PER_PASS && upstream !== null && this.outbox !== null; batch++) {
      const started = this.outbox.execute({ kind: 'startBatch', nodeId: this.config.nodeId, batchSize: sync.batchSize, staleAfterMs: sync.timeoutMs * 2 }, this.clock.now());
      const sent = started.events.find((e) => e.type === 'SyncBatchSent');
      if (!sent || sent.type !== 'SyncBatchSent') return;
      const items = sent.data.item_ids.flatMap((id) => started.state.items.get(id) ?? []);
      const attempted = items.map((i) => i.id);
      const reply = await postSyncBatch(this.key, this.config.nodeId, upstream, items, sync.timeoutMs);
      if (!reply.ok) {
        // central was not reached (or refused the batch as a whole): the writes wait for it, no retry counted
        this.outbox?.execute({ kind: 'releaseBatch', nodeId: this.config.nodeId, attempted, error: reply.error }, this.clock.now());
        for (const id of attempted) this.waiting.get(id)?.({ error: reply.error, status: 'queued' });
        this.logger.warn(`regional writes to ${upstream} wait: ${reply.error}`);
        return;
      }
      const processed = reply.processed.filter((id) => attempted.includes(id));
      this.outbox?.execute({ kind: 'settleBatch', nodeId: this.config.nodeId, attempted, processed, errors: reply.errors, batchError: null }, this.clock.now());
      for (const id of attempted) {
        const settle = this.waiting.get(id);
        const answer = reply.replies[id];
        if (answer) settle?.({ reply: answer });
        else settle?.({ error: reply.errors[id] ?? null, status: processed.includes(id) ? 'completed' : 'failed' });
      }
    }
  }

  private requireOutbox(): RegionalOutbox {
    if (this.outbox === null) throw new DomainError('unavailable', 'this node sends no writes to a central node');
    return this.outbox;
  }
}

/** The write a request makes, as it travels: the forwarded headers, the body's JSON text. */
export function regionalWriteOf(request: FastifyRequest): RegionalWrite {
  const headers: Record<string, string> = {};
  for (const name of FORWARDED_HEADERS) {
    const value = request.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  return { method: request.method, path: request.url, headers, body: rawJsonTextOf(request), client_ip: request.ip };
}

/**
 * On a regional node, every mutating request that is not node-signed goes
 * to central (a Fastify hook before the route's guards and handler: central
 * authenticates and validates it). A node-signed request is for this node
 * itself (replication, the sync queue of its own children, peers).
 */
export function forwardRegionalWrites(fastify: FastifyInstance, writes: RegionalWrites): void {
  fastify.addHook('preHandler', async (request: FastifyRequest, reply: FastifyReply) => {
    if (!travelsToCentral(request)) return;
    const outcome = await writes.forward(regionalWriteOf(request));
    switch (outcome.kind) {
      case 'answered':
        return reply.status(outcome.reply.status).headers(outcome.reply.headers).header('content-type', outcome.reply.content_type).send(outcome.reply.body);
      case 'queued':
        return reply.status(202).send({
          success: true,
          data: { queued: true, sync_item_id: outcome.itemId, status: outcome.status, error_message: outcome.error },
          message: 'Accepted: the write is queued for the central node and shows here once it comes back in the replicated log',
        });
      case 'refused': {
        const refusal = errorReply(new DomainError('unavailable', outcome.message), request.url);
        return reply.status(refusal.status).headers(refusal.headers ?? {}).send(refusal.body);
      }
      default:
        return assertNever(outcome);
    }
  });
}


/**
 * A page of a regional node's outbox, as GET /sync/queue shows a queue: its
 * live items (queued, in progress, failed), oldest first, and the counts; a
 * completed or dead item has left the outbox and is only counted.
 */
export function outboxPage(state: SyncQueueState, status: SyncQueueItemDoc['status'] | null, page: Page): { items: SyncQueueItemDoc[]; total: number; counts: QueueCounts } {
  const live = [...state.items.values()].map(
    (item): SyncQueueItemDoc => ({
      _id: item.id,
      node_id: item.node_id,
      target_tier: item.target_tier,
      operation_type: item.operation_type,
      status: item.status,
      retry_count: item.retry_count,
      max_retries: item.max_retries,
      created_at: item.created_at,
      last_attempt_at: item.last_attempt_at,
      completed_at: null,
      error_message: item.error_message,
    }),
  );
  const chosen = status === null ? live : live.filter((item) => item.status === status);
  const count = (s: SyncQueueItemDoc['status']) => live.filter((item) => item.status === s).length;
  return {
    items: chosen.slice(page.offset, page.offset + page.limit),
    total: chosen.length,
    counts: { queued: count('queued'), in_progress: count('in_progress'), failed: count('failed'), completed: state.completed, dead: state.dead, dropped: state.dropped },
  };
}
