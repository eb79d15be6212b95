/**
 * The audit's reads. Unlike other contexts' queries these read the event
 * log itself, not a read model: the log is what an audit is about (who did
 * what, is the record intact), and the read models are what it checks
 * (docs/architecture.md, "Audit and node identity").
 */
import { Inject, Injectable } from '@nestjs/common';
import { EVENT_STORE, type EventStore, type RecordedEvent } from '../../infrastructure/event-store/event-store.port';
import { type Verification, verifyLog } from '../../infrastructure/event-store/hash-chain';
import { ProjectionEngine } from '../../infrastructure/projections/projection-engine';
import { ProjectionRegistry } from '../../infrastructure/projections/projection-registry';
import { type ReadModelDigest, digestReadModels } from '../../infrastructure/projections/read-model-digest';
import { READ_STORE, type ReadStore } from '../../infrastructure/read-store/read-store.port';
import type { AuditEventsQuery } from './audit.requests';

export interface AuditEventView {
  position: number;
  stream: string;
  revision: number;
  type: string;
  event_id: string;
  actor: string;
  correlation_id: string;
  causation_id: string | null;
  node_id: string;
  occurred_at: string;
  recorded_at: string;
  data: Record<string, unknown>;
}

const SCAN_PAGE = 1000;
/** how long a digest waits for the read models to reach the log's head */
const DIGEST_CATCH_UP_MS = 5000;

@Injectable()
export class AuditQueries {
  /** one walk at a time: a second request while one runs shares its result */
  private verifying: Promise<Verification> | null = null;

  constructor(
    @Inject(EVENT_STORE) private readonly log: EventStore,
    @Inject(READ_STORE) private readonly readStore: ReadStore,
    private readonly registry: ProjectionRegistry,
    private readonly engine: ProjectionEngine,
  ) {}

  verify(): Promise<Verification> {
    this.verifying ??= verifyLog(this.log).finally(() => (this.verifying = null));
    return this.verifying;
  }

  /** Newest first; `total` counts every match (a scan of the matching events). */
  async events(query: AuditEventsQuery): Promise<{ items: AuditEventView[]; total: number }> {
    const { offset, limit } = query.page;
    const keep = (event: RecordedEvent) =>
      (query.type === undefined || event.type === query.type) &&
      (query.actor === undefined || event.metadata.actor === query.actor) &&
      (query.correlationId === undefined || event.metadata.correlationId === query.correlationId);
    if (query.stream !== undefined) {
      const matching = (await this.log.readStream(query.stream)).filter(keep).reverse();
      return { items: matching.slice(offset, offset + limit).map(view), total: matching.length };
    }
    const where = query.actor !== undefined || query.correlationId !== undefined ? { actor: query.actor, correlationId: query.correlationId } : undefined;
    const items: AuditEventView[] = [];
    let total = 0;
    let before: number | undefined;
    for (;;) {
      const page = await this.log.readAll({
        direction: 'backwards',
        before,
        maxCount: SCAN_PAGE,
        ...(query.type === undefined ? {} : { eventTypes: [query.type] }),
        ...(where ? { where } : {}),
      });
      for (const event of page) {
        if (total >= offset && items.length < limit) items.push(view(event));
        total++;
      }
      if (page.length < SCAN_PAGE) return { items, total };
      before = page[page.length - 1].position;
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }

  /**
   * The digest of every read model once they reached the log's head (or
   * after the wait ran out: `position` then says how far they got). Taken
   * again if a projection moved while it was computed.
   */
  async digest(): Promise<ReadModelDigest> {
    await this.engine.catchUpTo(await this.log.headPosition(), DIGEST_CATCH_UP_MS);
    const projections = this.registry.all();
    let digest = await this.digestOnce(projections);
    for (let attempt = 0; attempt < 3; attempt++) {
      const again = await this.digestOnce(projections);
      if (again.position === digest.position && sameDigests(again, digest)) return again;
      digest = again;
    }
    return digest;
  }

  /**
   * The stored checkpoints may trail what the engine applied (a read model
   * that handles none of the latest events moves its checkpoint lazily):
   * the engine's own positions, when it runs here, are the better bound.
   */
  private async digestOnce(projections: ReturnType<ProjectionRegistry['all']>): Promise<ReadModelDigest> {
    const applied = this.engine.status().map((s) => s.position);
    const digest = await digestReadModels(this.readStore, projections);
    return { ...digest, position: Math.max(digest.position, applied.length ? Math.min(...applied) : 0) };
  }
}

function sameDigests(a: ReadModelDigest, b: ReadModelDigest): boolean {
  return Object.keys(a.digests).every((name) => a.digests[name] === b.digests[name]);
}

function view(event: RecordedEvent): AuditEventView {
  const m = event.metadata;
  return {
    position: event.position,
    stream: event.streamId,
    revision: event.revision,
    type: event.type,
    event_id: m.eventId,
    actor: m.actor,
    correlation_id: m.correlationId,
    causation_id: m.causationId,
    node_id: m.nodeId,
    occurred_at: m.occurredAt,
    recorded_at: event.recordedAt,
    data: event.data,
  };
}
