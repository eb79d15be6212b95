/**
 * The regional side of federation (issue 17, item 2): on a node started with
 * SVC_NODE_TIER=regional and FEDERATION_UPSTREAM_URL, registers this node's
 * key with central (POST /federation/nodes/register, signed by that key),
 * then pulls central's log (GET /federation/log, node-signed) from its
 * checkpoint: pages while behind, a long poll once caught up. Each page is
 * appended with its events' ids, streams and revisions (append-replicated.ts),
 * then the checkpoint moves (replication-checkpoint.ts). The projections
 * build from the replicated log as from any other.
 *
 * Failures (central down, the node not approved yet) are retried with a
 * backoff up to 30 s and logged; a divergence (this log holds an event
 * central's does not) stops replication and is logged as an error: it needs
 * an operator. Runs where the background work runs (one process per DATA_DIR).
 */
import { type BeforeApplicationShutdown, Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import { EVENT_STORE, type EventMetadata, type EventStore, type JsonObject } from '../event-store/event-store.port';
import { NodeKey } from '../node-identity/node-key';
import { sendSigned } from '../node-identity/signed-request';
import { PlatformLifecycle } from '../platform-lifecycle';
import { appendReplicated, ReplicationDivergenceError } from './append-replicated';
import { KEY_STORE, type KeyStore } from '../personal-data/key-store.port';
import { ReplicationCheckpoint } from './replication-checkpoint';

const FEDERATION_PATH = '/api/social/federation';
const MAX_BACKOFF_MS = 30_000;
/** How often a process that does not replicate reads the checkpoint while it waits for a position. */
const CHECKPOINT_POLL_MS = 25;

interface PulledEvent {
  position: number;
  event_id: string;
  stream: string;
  revision: number;
  type: string;
  data: JsonObject;
  metadata: EventMetadata;
}

/** A data key of the page's sealed personal fields (base64). */
interface PulledKey {
  subject: string;
  purpose: string;
  version: number;
  key: string;
}

export interface ReplicationStatus {
  running: boolean;
  registered: boolean;
  /** the upstream position replicated up to */
  position: number;
  /** the upstream head at the last page */
  upstreamHead: number | null;
  lastError: string | null;
}

@Injectable()
export class RegionalReplicator implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('RegionalReplicator');
  private readonly stopping = new AbortController();
  private running: Promise<void> | null = null;
  private readonly state: ReplicationStatus = { running: false, registered: false, position: 0, upstreamHead: null, lastError: null };
  /** callers waiting for the replication to reach an upstream position (a regional write coming back) */
  private waiters: { position: number; resolve(reached: boolean): void }[] = [];

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(KEY_STORE) private readonly keyStore: KeyStore,
    private readonly key: NodeKey,
    private readonly lifecycle: PlatformLifecycle,
  ) {}

  onApplicationBootstrap(): void {
    const upstream = this.config.federation.upstreamUrl;
    if (upstream === null || !this.lifecycle.runsBackgroundWork()) return;
    this.state.running = true;
    this.running = this.run(upstream).finally(() => (this.state.running = false));
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopping.abort();
    await this.running;
  }

  status(): ReplicationStatus {
    return { ...this.state };
  }

  /**
   * Resolves true once the upstream log is replicated up to `position` here
   * (appended and checkpointed), false when the time-out passed first. In a
   * process that does not replicate (an API process beside a worker), the
   * checkpoint file tells.
   */
  waitForPosition(position: number, timeoutMs: number): Promise<boolean> {
    if (this.state.position >= position) return Promise.resolve(true);
    if (!this.state.running) return this.pollCheckpoint(position, timeoutMs);
    return new Promise((resolve) => {
      const waiter = { position, resolve: (reached: boolean) => (clearTimeout(timer), resolve(reached)) };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        resolve(false);
      }, timeoutMs);
      this.waiters.push(waiter);
    });
  }

  private async pollCheckpoint(position: number, timeoutMs: number): Promise<boolean> {
    const upstream = this.config.federation.upstreamUrl;
    if (upstream === null) return false;
    const checkpoint = new ReplicationCheckpoint(this.config.dataDir, upstream);
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if ((await checkpoint.read().catch(() => 0)) >= position) return true;
      if (Date.now() >= deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, CHECKPOINT_POLL_MS));
    }
  }

  private wakeWaiters(): void {
    const reached = this.waiters.filter((w) => w.position <= this.state.position);
    if (reached.length === 0) return;
    this.waiters = this.waiters.filter((w) => w.position > this.state.position);
    for (const waiter of reached) waiter.resolve(true);
  }

  private async run(upstream: string): Promise<void> {
    const checkpoint = new ReplicationCheckpoint(this.config.dataDir, upstream);
    let backoffMs = 250;
    while (!this.stopping.signal.aborted) {
      try {
        if (!this.state.registered) {
          this.state.position = await checkpoint.read();
          await this.register(upstream);
        }
        const caughtUp = this.state.upstreamHead !== null && this.state.position >= this.state.upstreamHead;
        const { events, keys } = await this.pull(upstream, caughtUp ? this.config.federation.waitSeconds : 0);
        // the keys of the page's personal fields first: its events open here as upstream (an erased key never comes)
        if (keys.length > 0) await this.keyStore.import(keys.map((k) => ({ subject: k.subject, purpose: k.purpose, version: k.version, key: Buffer.from(k.key, 'base64') })));
        if (events.length > 0) {
          await appendReplicated(
            this.store,
            events.map((e) => ({ streamId: e.stream, revision: e.revision, type: e.type, data: e.data, metadata: e.metadata })),
          );
          this.state.position = events[events.length - 1].position;
          await checkpoint.write(this.state.position);
          this.wakeWaiters();
        }
        this.state.lastError = null;
        backoffMs = 250;
      } catch (error) {
        if (this.stopping.signal.aborted) break;
        const message = error instanceof Error ? error.message : String(error);
        this.state.lastError = message;
        if (error instanceof ReplicationDivergenceError) {
          this.logger.error(`replication stopped: ${message}`);
          return;
        }
        this.logger.warn(`replication from ${upstream} failed (retrying in ${backoffMs} ms): ${message}`);
        await this.sleep(backoffMs);
        backoffMs = Math.min(backoffMs * 2, MAX_BACKOFF_MS);
      }
    }
  }

  private async register(upstream: string): Promise<void> {
    const request = this.requestSignal(10_000);
    const response = await sendSigned(
      this.key,
      this.config.nodeId,
      upstream,
      {
        method: 'POST',
        path: `${FEDERATION_PATH}/nodes/register`,
        body: { node_id: this.config.nodeId, public_key: this.key.publicKeyHex, url: this.config.federation.publicUrl, tier: 'regional' },
      },
      { signal: request.signal },
    ).finally(() => request.done());
    const body = (await response.json()) as { data?: { status?: string }; error?: string; message?: string };
    if (!response.ok) throw new Error(`registration refused: ${response.status} ${JSON.stringify(body)}`);
    this.state.registered = true;
    this.logger.log(`registered with ${upstream} as ${this.config.nodeId} (${body.data?.status ?? 'unknown'})`);
  }

  private async pull(upstream: string, waitSeconds: number): Promise<{ events: PulledEvent[]; keys: PulledKey[] }> {
    const path = `${FEDERATION_PATH}/log?after=${this.state.position}&limit=${this.config.federation.pageSize}&wait=${waitSeconds}`;
    const request = this.requestSignal((waitSeconds + 15) * 1000);
    try {
      const response = await sendSigned(this.key, this.config.nodeId, upstream, { method: 'GET', path }, { signal: request.signal });
      const body = (await response.json()) as { data?: { events: PulledEvent[]; head: number; keys?: PulledKey[] } };
      if (!response.ok || !body.data) throw new Error(`log refused: ${response.status} ${JSON.stringify(body)}`);
      this.state.upstreamHead = body.data.head;
      return { events: body.data.events, keys: body.data.keys ?? [] };
    } finally {
      request.done();
    }
  }

  /**
   * The signal of one request: aborted at shutdown or after `ms`. Its listener on the shutdown signal
   * goes with the request (AbortSignal.any would leave one per request on that long-lived signal).
   */
  private requestSignal(ms: number): { signal: AbortSignal; done(): void } {
    const controller = new AbortController();
    const stop = () => controller.abort(this.stopping.signal.reason);
    this.stopping.signal.addEventListener('abort', stop, { once: true });
    return { signal: AbortSignal.any([controller.signal, AbortSignal.timeout(ms)]), done: () => this.stopping.signal.removeEventListener('abort', stop) };
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.stopping.signal.addEventListener('abort', done, { once: true });
    });
  }
}
