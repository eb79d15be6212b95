/**
 * The one path from a command to appended events: load the stream, fold it
 * with `evolve`, call the pure `decide`, append with the revision that was
 * read (optimistic concurrency), retry on a conflict by re-reading, then wait
 * until the projections fed by the new events caught up (read-your-writes).
 *
 * - Commands on one stream run one after another in this process (a queue per
 *   stream), so concurrent requests for one aggregate do not race into
 *   revision conflicts here; those that queued behind an append in flight are
 *   decided one after another and appended together. Across processes the
 *   revision check still decides, and a conflict is retried.
 * - Recent states are cached by stream (AggregateCache): a command folds only
 *   the events appended since, so its cost does not grow with the stream's
 *   history.
 * - The read-your-writes wait is bounded; when it runs out the command still
 *   answers with its own outcome (the write happened), and only the read
 *   models may lag (docs/architecture.md, "Read-your-writes").
 * - A command that records nothing because its effect is in the stream
 *   already (an idempotent repeat, or a saga that did the same a moment
 *   before: an ad's refund) waits, bounded the same way, until the read
 *   models fed by the stream's last event reached it: its caller reads that
 *   effect next.
 */
import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { Decider, DomainEvent } from '../../aggregates/shared/decider';
import { DomainError } from '../../aggregates/shared/domain-error';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import { Clock } from '../../infrastructure/clock';
import {
  EVENT_STORE,
  type EventStore,
  type JsonObject,
  type NewEvent,
  streamCategory,
  WrongExpectedRevisionError,
} from '../../infrastructure/event-store/event-store.port';
import { type Context, context as traceContext, inSpan, SpanKind, traceparentOf, tracingOn } from '../../infrastructure/observability/tracing';
import { UpcasterRegistry } from '../../infrastructure/eventsourcing/upcasters';
import { ReadYourWrites } from '../../infrastructure/projections/read-your-writes';
import { AggregateCache } from './aggregate-cache';

/** The refusal of every command on a regional node that replays central's log. */
export const WRITES_GO_TO_CENTRAL = 'writes go to the central node';

/** Who issued the command and why: becomes the events' metadata. */
export interface CommandContext {
  actor: string;
  correlationId: string;
  causationId?: string | null;
}

export interface CommandOutcome<S, E> {
  events: E[];
  state: S;
  /** current revision of the stream after the command (-1: no stream) */
  revision: number;
  /** global position of the last appended event; 0 when nothing was appended */
  position: number;
  /** the stream's last event when the command was decided, position 0 and type null without one: what a command that appended nothing waits for */
  observed: { position: number; type: string | null };
}

export interface ExecuteOptions {
  /** how many times a revision conflict is retried (default 5) */
  maxRetries?: number;
  /** wait for projections before returning (default true) */
  readYourWrites?: boolean;
  /**
   * The caller just made the stream id up (a random id): decide on the initial
   * state without reading the stream. Safe either way: the append expects no
   * stream, so a stream that did exist is a conflict, read and decided again.
   */
  newStream?: boolean;
}

/** A command waiting for its turn on a stream. */
interface Pending {
  decider: Decider<unknown, unknown, DomainEvent>;
  command: unknown;
  context: CommandContext;
  maxRetries: number;
  newStream: boolean;
  /** the command's span context when tracing is on: parent of the append, `traceparent` of its events */
  trace: Context | null;
  resolve(outcome: CommandOutcome<unknown, DomainEvent>): void;
  reject(error: unknown): void;
}

@Injectable()
export class CommandExecutor {
  private readonly cache: AggregateCache;
  /** commands waiting per stream; a stream is in this map while it is being worked on */
  private readonly waiting = new Map<string, Pending[]>();

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly upcasters: UpcasterRegistry,
    private readonly readYourWrites: ReadYourWrites,
  ) {
    this.cache = new AggregateCache(config.aggregateCacheSize);
  }

  execute<S, C, E extends DomainEvent>(
    decider: Decider<S, C, E>,
    streamId: string,
    command: C,
    context: CommandContext,
    options: ExecuteOptions = {},
  ): Promise<CommandOutcome<S, E>> {
    // A regional node replays central's log; an event of its own would fork it (docs/architecture.md, "Federation").
    if (this.config.federation.upstreamUrl !== null) return Promise.reject(new DomainError('unavailable', WRITES_GO_TO_CENTRAL));
    if (!tracingOn()) return this.run(decider, streamId, command, context, options, null);
    const kind = (command as { kind?: unknown }).kind;
    const attributes = { correlation_id: context.correlationId, 'stream.id': streamId, 'command.kind': typeof kind === 'string' ? kind : 'unknown' };
    return inSpan(`command ${streamCategory(streamId)}`, attributes, traceContext.active(), SpanKind.INTERNAL, () =>
      this.run(decider, streamId, command, context, options, traceContext.active()),
    );
  }

  private async run<S, C, E extends DomainEvent>(
    decider: Decider<S, C, E>,
    streamId: string,
    command: C,
    context: CommandContext,
    options: ExecuteOptions,
    trace: Context | null,
  ): Promise<CommandOutcome<S, E>> {
    const outcome = await new Promise<CommandOutcome<S, E>>((resolve, reject) => {
      const pending: Pending = {
        decider: decider as unknown as Pending['decider'],
        command,
        context,
        maxRetries: options.maxRetries ?? 5,
        newStream: options.newStream === true,
        trace,
        resolve: resolve as Pending['resolve'],
        reject,
      };
      const queue = this.waiting.get(streamId);
      if (queue) {
        queue.push(pending);
        return;
      }
      this.waiting.set(streamId, [pending]);
      // once the code that issued it has run: the commands issued together (a saga batch) meet in the queue
      queueMicrotask(() => void this.drain(streamId));
    });
    if (options.readYourWrites !== false) {
      if (outcome.position > 0) await this.readYourWrites.waitFor(outcome.position, outcome.events.map((e) => e.type));
      else if (outcome.observed.type !== null) await this.readYourWrites.waitFor(outcome.observed.position, [outcome.observed.type]);
    }
    return outcome;
  }

  /** The state of a stream as `decide` would see it now. */
  async load<S, C, E extends DomainEvent>(decider: Decider<S, C, E>, streamId: string): Promise<{ state: S; revision: number; last: CommandOutcome<S, E>['observed'] }> {
    const cached = this.cache.get(streamId, decider);
    const from = cached ? cached.revision + 1 : 0;
    const recorded = await this.store.readStream(streamId, from > 0 ? { fromRevision: from } : undefined);
    let state = cached ? (cached.state as S) : decider.initialState;
    for (const event of recorded) state = decider.evolve(state, { type: event.type, data: event.data } as E);
    const last = recorded.at(-1);
    const revision = last ? last.revision : (cached?.revision ?? -1);
    const observed = last ? { position: last.position, type: last.type } : { position: cached?.position ?? 0, type: cached?.type ?? null };
    if (last) this.cache.set(streamId, { owner: decider, state, revision, ...observed });
    return { state, revision, last: observed };
  }

  /** Cache hits and misses (diagnostics and the bench). */
  get cacheStats(): { size: number; hits: number; misses: number } {
    return this.cache.stats;
  }

  /**
   * Works through a stream's queue: the commands that arrived while the last
   * append was in flight (of one decider, in arrival order) are decided one
   * after another on the evolving state and appended together, in one
   * append: one command after another, in one round trip.
   */
  private async drain(streamId: string): Promise<void> {
    const queue = this.waiting.get(streamId)!;
    while (queue.length > 0) {
      const decider = queue[0].decider;
      let count = 1;
      while (count < queue.length && queue[count].decider === decider) count++;
      const batch = queue.splice(0, count);
      try {
        await this.decideAndAppend(decider, streamId, batch);
      } catch (error) {
        for (const pending of batch) pending.reject(error);
      }
    }
    this.waiting.delete(streamId);
  }

  /**
   * Decides each command on the state the previous ones left (a refused one
   * is rejected and leaves the state as it was), appends all their events at
   * the revision that was read, and settles each with its own outcome. On a
   * revision conflict (another node wrote) the whole batch is decided again
   * on the new state; a command whose retries are spent gets the conflict.
   */
  private async decideAndAppend(decider: Pending['decider'], streamId: string, batch: Pending[]): Promise<void> {
    let remaining = batch;
    for (let attempt = 0; remaining.length > 0; attempt++) {
      const assumeNew = attempt === 0 && remaining.every((pending) => pending.newStream) && !this.cache.holds(streamId, decider);
      const { state: loaded, revision, last: observed } = assumeNew ? { state: decider.initialState, revision: -1, last: { position: 0, type: null } } : await this.load(decider, streamId);
      const now = this.clock.now();
      const decided: { pending: Pending; events: DomainEvent[]; state: unknown; offset: number }[] = [];
      const all: NewEvent[] = [];
      let state = loaded;
      for (const pending of remaining) {
        try {
          const events = decider.decide(pending.command, state, now);
          for (const event of events) state = decider.evolve(state, event);
          decided.push({ pending, events, state, offset: all.length + events.length });
          const traceparent = pending.trace ? traceparentOf(pending.trace) : undefined;
          for (const event of events) all.push(this.toNewEvent(event, pending.context, now, traceparent));
        } catch (error) {
          pending.reject(error);
        }
      }
      if (all.length === 0) {
        for (const { pending } of decided) pending.resolve({ events: [], state: loaded, revision, position: 0, observed });
        return;
      }
      try {
        const expected = revision < 0 ? 'no_stream' : revision;
        const parent = remaining[0].trace;
        const result = parent
          ? await inSpan('event-store append', { 'stream.id': streamId, events: all.length, commands: decided.length, correlation_id: remaining[0].context.correlationId }, parent, SpanKind.CLIENT, () =>
              this.store.append(streamId, all, expected),
            )
          : await this.store.append(streamId, all, expected);
        const appended = { position: result.position, type: all[all.length - 1].type };
        this.cache.set(streamId, { owner: decider, state, revision: result.nextExpectedRevision, ...appended });
        for (const d of decided) {
          const after = revision + d.offset;
          d.pending.resolve({ events: d.events, state: d.state, revision: after, position: d.events.length > 0 ? result.position : 0, observed: appended });
        }
        return;
      } catch (error) {
        if (!(error instanceof WrongExpectedRevisionError)) throw error;
        const exhausted = decided.filter((d) => attempt >= d.pending.maxRetries);
        for (const d of exhausted) d.pending.reject(error);
        remaining = decided.filter((d) => attempt < d.pending.maxRetries).map((d) => d.pending);
      }
    }
  }

  private toNewEvent(event: DomainEvent, context: CommandContext, now: Date, traceparent: string | undefined): NewEvent {
    const metadata: NewEvent['metadata'] = {
      eventId: randomUUID(),
      correlationId: context.correlationId,
      causationId: context.causationId ?? null,
      actor: context.actor,
      nodeId: this.config.nodeId,
      occurredAt: now.toISOString(),
      schemaVersion: this.upcasters.currentVersion(event.type),
    };
    // W3C trace context of the command that recorded it: work that starts from the log joins the request's trace
    if (traceparent) metadata.traceparent = traceparent;
    return { type: event.type, data: event.data as JsonObject, metadata };
  }
}
