/**
 * The projection engine: one pass over the log per process, whatever the
 * number of read models.
 *
 * - **Routing.** Each page of events is read once; each event goes only to
 *   the projections that handle its type; their writes are queued on one
 *   page writer and stored, with every projection's checkpoint, in one
 *   `ReadStore.commit` per page. The cost of an event grows with the
 *   projections that handle it, not with the number registered.
 * - **Live and catching up.** Projections at the head share the live track,
 *   one event-store subscription (freshly committed events come from the
 *   store's memory, not re-read). A projection behind it (a new version, a
 *   failure being retried) gets a catch-up track of its own that reads large
 *   pages until it reaches the live track, then joins it between two pages.
 *   A slow or failing projection never holds back the others.
 * - **Failures.** A projection whose handler throws leaves its track (its
 *   queued writes are dropped, its checkpoint stays) and is retried from its
 *   checkpoint on a catch-up track after a pause. A page that cannot be
 *   committed is retried whole; projections are idempotent, so both are safe.
 * - **Read-your-writes.** `waitFor` resolves as soon as the page holding a
 *   position is committed for the named projections.
 */
import { Logger } from '@nestjs/common';
import type { EventStore, RecordedEvent, Subscription } from '../event-store/event-store.port';
import { contextFrom, failSpan, linksTo, SpanKind, tracer, tracingOn } from '../observability/tracing';
import { EmbeddedReadStore } from '../read-store/embedded/embedded-read-store';
import type { ReadStore } from '../read-store/read-store.port';
import { PageWriter } from './page-writer';
import { PositionWaiters } from './position-waiters';
import type { ProjectionDefinition } from './projection';

const META_COLLECTION = '_projections';
const RETRY_DELAY_MS = 500;
/** events per live page: what one group commit brings, usually far fewer */
const LIVE_PAGE = 1000;
/** events per catch-up and rebuild page */
const CATCH_UP_PAGE = 5000;

export interface ProjectionStatus {
  name: string;
  position: number;
  /** live: at the head with the others; catching-up: on its own track; retrying: paused after a failure */
  state: 'live' | 'catching-up' | 'retrying' | 'stopped';
  running: boolean;
  lastError: string | null;
}

interface Member {
  projection: ProjectionDefinition;
  /** position of the last event this projection has committed */
  position: number;
  track: Track | null;
}

/** A group of projections read from one cursor. */
class Track {
  readonly members = new Set<Member>();
  private routes: Map<string, Member[]> | null = null;

  constructor(public position: number) {}

  add(member: Member): void {
    this.members.add(member);
    member.track = this;
    this.routes = null;
  }

  remove(member: Member): void {
    this.members.delete(member);
    if (member.track === this) member.track = null;
    this.routes = null;
  }

  /** every event type some member handles */
  eventTypes(): string[] {
    return [...new Set([...this.members].flatMap((member) => member.projection.eventTypes))];
  }

  /** event type → the members that handle it, rebuilt when membership changes */
  route(type: string): Member[] | undefined {
    if (!this.routes) {
      this.routes = new Map();
      for (const member of this.members) {
        for (const eventType of member.projection.eventTypes) {
          let list = this.routes.get(eventType);
          if (!list) this.routes.set(eventType, (list = []));
          list.push(member);
        }
      }
    }
    return this.routes.get(type);
  }
}

export class ProjectionEngine {
  private readonly logger = new Logger('Projections');
  private readonly members = new Map<string, Member>();
  private readonly errors = new Map<string, string>();
  private readonly waiters = new PositionWaiters();
  private live: Track | null = null;
  private liveSubscription: Subscription | null = null;
  private liveBusy = false;
  private liveIdle: (() => void)[] = [];
  private readonly catchUps = new Set<Track>();
  private readonly retryTimers = new Set<NodeJS.Timeout>();
  private stopping = false;

  constructor(
    private readonly eventStore: EventStore,
    private readonly readStore: ReadStore,
    private readonly source: { all(): readonly ProjectionDefinition[] },
  ) {}

  private get projections(): readonly ProjectionDefinition[] {
    return this.source.all();
  }

  /** Prepares every projection (version check, indexes, checkpoint) and starts the tracks. */
  async start(): Promise<void> {
    this.stopping = false;
    const projections = this.projections;
    const metas = await this.readStore.collection(META_COLLECTION).find({ _id: { $in: projections.map((p) => p.name) } });
    const versions = new Map(metas.map((meta) => [meta._id, meta.version]));
    const checkpoints = await this.readStore.getCheckpoints(projections.map((p) => p.name));
    for (const projection of projections) {
      const stored = versions.get(projection.name);
      if (stored !== undefined && stored !== projection.version) {
        this.logger.log(`${projection.name}: version ${String(stored)} → ${projection.version}, rebuilding`);
        await this.reset(projection);
        checkpoints.delete(projection.name);
      } else {
        if (stored === undefined) await this.writeMeta(projection);
        await this.createIndexes(projection);
      }
      this.members.set(projection.name, { projection, position: checkpoints.get(projection.name) ?? 0, track: null });
    }

    const members = [...this.members.values()];
    const head = Math.max(0, ...members.map((m) => m.position));
    this.live = new Track(head);
    const behind = members.filter((m) => m.position < head);
    for (const member of members) if (member.position === head) this.live.add(member);
    this.subscribeLive();
    if (behind.length > 0) this.startCatchUp(behind);
  }

  /** Resolves once every projection has reached `position` (false when the timeout passed first). */
  catchUpTo(position: number, timeoutMs: number): Promise<boolean> {
    return this.waitFor(
      this.projections.map((p) => p.name),
      position,
      timeoutMs,
    );
  }

  /** true when all named projections reached `position` before the timeout. */
  waitFor(names: readonly string[], position: number, timeoutMs: number): Promise<boolean> {
    return this.waiters.waitFor(names, position, timeoutMs, (name) => this.members.get(name)?.position ?? 0);
  }

  status(): ProjectionStatus[] {
    return this.projections.map((p) => {
      const member = this.members.get(p.name);
      const state: ProjectionStatus['state'] = !member
        ? 'stopped'
        : member.track === this.live && this.live
          ? 'live'
          : member.track
            ? 'catching-up'
            : this.stopping
              ? 'stopped'
              : 'retrying';
      return {
        name: p.name,
        position: member?.position ?? 0,
        state,
        running: state === 'live' || state === 'catching-up',
        lastError: this.errors.get(p.name) ?? null,
      };
    });
  }

  async stop(): Promise<void> {
    this.stopping = true;
    for (const timer of this.retryTimers) clearTimeout(timer);
    this.retryTimers.clear();
    const subscription = this.liveSubscription;
    this.liveSubscription = null;
    await subscription?.stop();
    this.catchUps.clear();
    this.waiters.cancelAll();
  }

  /**
   * Drops the read models of these projections and replays the whole log into
   * them in one pass (`npm run projections:rebuild`, while they are not
   * running). The replay runs at memory speed into an in-memory store (the
   * embedded read store itself, or a scratch one for MongoDB whose finished
   * documents are then loaded in bulk: `ReadStore.load`, `insertMany`), and
   * the indexes are built after the load. A rebuild into MongoDB holds the
   * rebuilt read models in memory until they are loaded.
   */
  async rebuild(
    projections: readonly ProjectionDefinition[],
    onProgress: (position: number, head: number, events: number) => void = () => undefined,
    pageSize = CATCH_UP_PAGE,
  ): Promise<{ events: number; position: number }> {
    for (const projection of projections) await this.reset(projection, { indexes: false });
    // the embedded store is memory already: it is replayed into directly
    const inMemory = this.readStore instanceof EmbeddedReadStore;
    const scratch = inMemory ? this.readStore : new EmbeddedReadStore({ file: null });
    try {
      const track = new Track(0);
      for (const projection of projections) track.add({ projection, position: 0, track: null });
      const head = await this.eventStore.headPosition();
      // only the events the projections handle are read (and parsed)
      const eventTypes = track.eventTypes();
      let events = 0;
      while (track.position < head) {
        const page = await this.eventStore.readAll({ after: track.position, maxCount: pageSize, eventTypes });
        if (page.length === 0) {
          track.position = head;
          break;
        }
        const failures = await this.applyAndCommit(track, page, scratch);
        const [failure] = failures.values();
        if (failure) throw failure;
        track.position = page[page.length - 1].position;
        events += page.length;
        onProgress(track.position, head, events);
      }
      for (const projection of projections) {
        if (!inMemory) for (const collection of projection.collections) await this.readStore.load(collection, scratch.documents(collection));
        await this.createIndexes(projection);
      }
      if (track.position > 0) await this.readStore.commit([], new Map(projections.map((p) => [p.name, track.position])));
      await this.readStore.flush();
      return { events, position: track.position };
    } finally {
      if (!inMemory) await scratch.close();
    }
  }

  // ---- tracks ----

  private subscribeLive(): void {
    const live = this.live;
    if (!live || this.stopping) return;
    const subscription = this.eventStore.subscribeToAll({ fromPosition: live.position, maxBatchSize: LIVE_PAGE }, async (events) => {
      this.liveBusy = true;
      try {
        const failures = await this.applyAndCommit(live, events);
        live.position = events[events.length - 1].position;
        for (const [member, error] of failures) this.pause(member, error);
      } finally {
        this.liveBusy = false;
        const idle = this.liveIdle;
        this.liveIdle = [];
        for (const resolve of idle) resolve();
      }
    });
    this.liveSubscription = subscription;
    subscription.done.catch((error: unknown) => {
      this.logger.error(`live projections failed at position ${live.position}: ${message(error)}; retrying`);
      for (const member of live.members) this.errors.set(member.projection.name, message(error));
      this.later(() => {
        if (this.liveSubscription === subscription) this.subscribeLive();
      });
    });
  }

  private startCatchUp(members: Member[]): void {
    const track = new Track(Math.min(...members.map((m) => m.position)));
    for (const member of members) track.add(member);
    this.catchUps.add(track);
    void this.runCatchUp(track);
  }

  /** Reads pages until the track reaches the live track, then hands its members over between two live pages. */
  private async runCatchUp(track: Track): Promise<void> {
    while (!this.stopping && this.catchUps.has(track) && track.members.size > 0) {
      const live = this.live!;
      if (track.position >= live.position) {
        if (this.liveBusy) {
          await new Promise<void>((resolve) => this.liveIdle.push(resolve));
          continue;
        }
        // synchronous: the next live page sees the new members, each skipping what it already applied
        for (const member of [...track.members]) {
          track.remove(member);
          live.add(member);
          this.errors.delete(member.projection.name);
        }
        this.logger.log(`caught up at position ${track.position}; live again`);
        break;
      }
      try {
        // only the events the track's projections handle are read; a short page
        // means none is left up to the head as it was before the read
        const head = await this.eventStore.headPosition();
        const page = await this.eventStore.readAll({ after: track.position, maxCount: CATCH_UP_PAGE, eventTypes: track.eventTypes() });
        if (page.length === 0) {
          if (head > track.position) {
            await this.commitPositions(track, head);
            continue;
          }
          // the live track has not seen these positions yet either: wait for it to move
          await new Promise<void>((resolve) => this.later(resolve, 10));
          continue;
        }
        const failures = await this.applyAndCommit(track, page);
        track.position = page[page.length - 1].position;
        if (page.length < CATCH_UP_PAGE && head > track.position) await this.commitPositions(track, head);
        for (const [member, error] of failures) this.pause(member, error);
        // let requests and the live track in between catch-up pages
        await new Promise<void>((resolve) => setImmediate(resolve));
      } catch (error) {
        this.logger.error(`catching up at position ${track.position} failed: ${message(error)}; retrying`);
        for (const member of track.members) this.errors.set(member.projection.name, message(error));
        await new Promise<void>((resolve) => this.later(resolve));
      }
    }
    this.catchUps.delete(track);
  }

  /** Takes a failing projection off its track and retries it from its checkpoint after a pause. */
  private pause(member: Member, error: unknown): void {
    const name = member.projection.name;
    member.track?.remove(member);
    this.errors.set(name, message(error));
    this.logger.error(`${name} failed after position ${member.position}: ${message(error)}; retrying`);
    this.later(() => this.startCatchUp([member]));
  }

  private later(run: () => void, delayMs = RETRY_DELAY_MS): void {
    const timer = setTimeout(() => {
      this.retryTimers.delete(timer);
      if (!this.stopping) run();
    }, delayMs);
    timer.unref();
    this.retryTimers.add(timer);
  }

  // ---- one page ----

  /**
   * Applies a page to the track's members (each skips what it already
   * applied), then commits every write and checkpoint in one round. Returns
   * the members whose handler threw (they are not committed); throws when
   * the commit itself failed (nothing moves).
   */
  private applyAndCommit(track: Track, events: readonly RecordedEvent[], store: ReadStore = this.readStore): Promise<Map<Member, unknown>> {
    return tracingOn() ? this.tracedPage(track, events, store) : this.applyPage(track, events, store);
  }

  /**
   * A page as a span: a child of the first traced event's command (the
   * request that wrote it, in the usual page of one request's events),
   * linked to the others' (at most 32).
   */
  private async tracedPage(track: Track, events: readonly RecordedEvent[], store: ReadStore): Promise<Map<Member, unknown>> {
    const traceparents = events.map((e) => e.metadata.traceparent).filter((t): t is string => typeof t === 'string');
    const parent = contextFrom(traceparents.length > 0 ? { traceparent: traceparents[0] } : {});
    const first = events[0];
    const span = tracer().startSpan(
      'projection page',
      {
        kind: SpanKind.CONSUMER,
        attributes: {
          events: events.length,
          projections: track.members.size,
          'position.from': first.position,
          'position.to': events[events.length - 1].position,
          correlation_id: first.metadata.correlationId,
        },
        links: linksTo(traceparents.slice(1)),
      },
      parent,
    );
    try {
      const failures = await this.applyPage(track, events, store);
      if (failures.size > 0) span.setAttribute('failed_projections', [...failures.keys()].map((m) => m.projection.name).join(','));
      return failures;
    } catch (error) {
      failSpan(span, error);
      throw error;
    } finally {
      span.end();
    }
  }

  private async applyPage(track: Track, events: readonly RecordedEvent[], store: ReadStore): Promise<Map<Member, unknown>> {
    const writer = new PageWriter(store);
    const failures = new Map<Member, unknown>();
    for (const event of events) {
      const targets = track.route(event.type);
      if (!targets) continue;
      for (const member of targets) {
        if (event.position <= member.position || failures.has(member)) continue;
        writer.owner = member.projection.name;
        try {
          const pending = member.projection.apply(event, writer);
          if (pending) await pending;
        } catch (error) {
          failures.set(member, error);
          writer.discard(member.projection.name);
        }
      }
    }
    const end = events[events.length - 1].position;
    const checkpoints = new Map<string, number>();
    for (const member of track.members) {
      if (!failures.has(member) && member.position < end) checkpoints.set(member.projection.name, end);
    }
    await writer.commit(checkpoints);
    for (const member of track.members) {
      if (checkpoints.has(member.projection.name)) member.position = end;
    }
    this.waiters.notify();
    return failures;
  }

  /** Moves the track and its members to `position` (no event of theirs lies between), checkpoints included. */
  private async commitPositions(track: Track, position: number): Promise<void> {
    const checkpoints = new Map<string, number>();
    for (const member of track.members) if (member.position < position) checkpoints.set(member.projection.name, position);
    if (checkpoints.size > 0) await this.readStore.commit([], checkpoints);
    for (const member of track.members) if (member.position < position) member.position = position;
    track.position = Math.max(track.position, position);
    this.waiters.notify();
  }

  // ---- read model lifecycle ----

  private async reset(projection: ProjectionDefinition, options: { indexes: boolean } = { indexes: true }): Promise<void> {
    for (const collection of projection.collections) await this.readStore.dropCollection(collection);
    await this.readStore.deleteCheckpoint(projection.name);
    if (options.indexes) await this.createIndexes(projection);
    await this.writeMeta(projection);
  }

  private async createIndexes(projection: ProjectionDefinition): Promise<void> {
    for (const { collection, spec } of projection.indexes ?? []) {
      await this.readStore.collection(collection).createIndex(spec);
    }
  }

  private async writeMeta(projection: ProjectionDefinition): Promise<void> {
    await this.readStore
      .collection(META_COLLECTION)
      .replaceOne({ _id: projection.name }, { _id: projection.name, version: projection.version }, { upsert: true });
  }
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
