/**
 * The node registry (read model `federationNodes`) and the log export: the
 * sealed log as written (not upcast, `readSealed`), so a regional node
 * stores the same bytes and its seals come out equal to these.
 */
import { Inject, Injectable } from '@nestjs/common';
import { KEY_STORE, type KeyStore } from '../../infrastructure/personal-data/key-store.port';
import { open, sealedValuesIn } from '../../infrastructure/personal-data/field-seal';
import { EVENT_STORE, type EventMetadata, type EventStore, type JsonObject } from '../../infrastructure/event-store/event-store.port';
import type { Seal } from '../../infrastructure/event-store/hash-chain';
import { READ_STORE, type ReadStore } from '../../infrastructure/read-store/read-store.port';
import { FEDERATION_NODES, type FederationNodeDoc } from '../../projections/federation/federation-nodes.projection';
import type { Page } from '../common/paging';
import type { LogQuery } from './federation.requests';

export interface FederationNodeView {
  node_id: string;
  public_key: string;
  url: string;
  tier: string;
  status: 'pending' | 'approved';
  registered_at: string;
  approved_at: string | null;
  approved_by: string | null;
}

export interface LogEvent {
  position: number;
  event_id: string;
  stream: string;
  revision: number;
  type: string;
  data: JsonObject;
  metadata: EventMetadata;
  seal: Seal | null;
}

/** A data key the page's sealed fields need, base64 (crypto-shredding: an erased key is never exported). */
export interface LogPageKey {
  subject: string;
  purpose: string;
  version: number;
  key: string;
}

export interface LogPage {
  events: LogEvent[];
  head: number;
  /** the live keys of the personal fields sealed in these events: the approved regional node opens them as this node does */
  keys: LogPageKey[];
}

@Injectable()
export class FederationQueries {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(READ_STORE) private readonly readStore: ReadStore,
    @Inject(KEY_STORE) private readonly keyStore: KeyStore,
  ) {}

  async nodes(page: Page): Promise<{ items: FederationNodeView[]; total: number }> {
    const nodes = this.readStore.collection<FederationNodeDoc>(FEDERATION_NODES);
    const [docs, total] = await Promise.all([nodes.find({}, { sort: { registered_at: 1, _id: 1 }, skip: page.offset, limit: page.limit }), nodes.countDocuments({})]);
    return {
      items: docs.map((d) => ({
        node_id: d._id,
        public_key: d.public_key,
        url: d.url,
        tier: d.tier,
        status: d.status,
        registered_at: d.registered_at,
        approved_at: d.approved_at,
        approved_by: d.approved_by,
      })),
      total,
    };
  }

  /** Events after `after` in log order; with none yet and a wait, the first commit after it (or an empty page when the wait ran out or `abort` fired). */
  async log(query: LogQuery, abort: AbortSignal): Promise<LogPage> {
    let events = await this.store.readSealed({ after: query.after, maxCount: query.limit });
    if (events.length === 0 && query.waitSeconds > 0 && (await this.waitForEventsAfter(query.after, query.waitSeconds * 1000, abort))) {
      events = await this.store.readSealed({ after: query.after, maxCount: query.limit });
    }
    const head = await this.store.headPosition();
    const page = events.map((e) => ({
      position: e.position,
      event_id: e.eventId,
      stream: e.streamId,
      revision: e.revision,
      type: e.type,
      data: JSON.parse(e.data) as JsonObject,
      metadata: JSON.parse(e.metadata) as EventMetadata,
      seal: e.seal,
    }));
    return { events: page, head, keys: await this.keysOf(page.map((e) => e.data)) };
  }

  /** The live keys the sealed fields of these data need, each once; a value sealed twice is opened to find its inner seal. */
  private async keysOf(data: readonly JsonObject[]): Promise<LogPageKey[]> {
    const keys = new Map<string, LogPageKey | null>();
    const pending = data.flatMap(sealedValuesIn);
    for (let sealed = pending.pop(); sealed; sealed = pending.pop()) {
      const { s, p, v } = sealed.$pd;
      const id = `${p}|${v}|${s}`;
      let key: Buffer | null = null;
      if (!keys.has(id)) {
        key = await this.keyStore.get(s, p, v);
        keys.set(id, key && { subject: s, purpose: p, version: v, key: key.toString('base64') });
      } else {
        const known = keys.get(id);
        key = known ? Buffer.from(known.key, 'base64') : null;
      }
      if (key) pending.push(...sealedValuesIn(open(sealed, key)));
    }
    return [...keys.values()].filter((k): k is LogPageKey => k !== null);
  }

  /** Resolves true at the first commit after `after`, false when `ms` passed or `abort` fired first. */
  private waitForEventsAfter(after: number, ms: number, abort: AbortSignal): Promise<boolean> {
    return new Promise((resolve) => {
      let settled = false;
      const finish = (value: boolean) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        abort.removeEventListener('abort', onAbort);
        void subscription.stop();
        resolve(value);
      };
      const onAbort = () => finish(false);
      const timer = setTimeout(() => finish(false), ms);
      const subscription = this.store.subscribeToAll({ fromPosition: after, maxBatchSize: 1 }, async () => finish(true));
      subscription.done.catch(() => finish(false));
      if (abort.aborted) finish(false);
      else abort.addEventListener('abort', onAbort);
    });
  }
}
