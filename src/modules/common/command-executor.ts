/**
 * The one path from a command to appended events: load the stream, fold it
 * with `evolve`, call the pure `decide`, append with the revision that was
 * read (optimistic concurrency), retry on a conflict by re-reading, then wait
 * until the projections fed by the new events caught up (read-your-writes).
 *
 * - Commands on one stream run one after another in this process (a queue per
 *   stream), so concurrent requests for one aggregate do not race into
 *   revision conflicts here; across processes the revision check still
 *   decides, and a conflict is retried.
 * - Recent states are cached by stream (AggregateCache): a command folds only
 *   the events appended since, so its cost does not grow with the stream's
 *   history.
 * - The read-your-writes wait is bounded; when it runs out the command still
 *   answers with its own outcome (the write happened), and only the read
 *   models may lag (docs/architecture.md, "Read-your-writes").
 */
import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { Decider, DomainEvent } from '../../aggregates/shared/decider';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import { Clock } from '../../infrastructure/clock';
import {
  EVENT_STORE,
  type EventStore,
  type JsonObject,
  type NewEvent,
  WrongExpectedRevisionError,
} from '../../infrastructure/event-store/event-store.port';
import { UpcasterRegistry } from '../../infrastructure/eventsourcing/upcasters';
import { ReadYourWrites } from '../../infrastructure/projections/read-your-writes';
import { AggregateCache } from './aggregate-cache';
import { KeyedMutex } from './keyed-mutex';

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
}

export interface ExecuteOptions {
  /** how many times a revision conflict is retried (default 5) */
  maxRetries?: number;
  /** wait for projections before returning (default true) */
  readYourWrites?: boolean;
}

@Injectable()
export class CommandExecutor {
  private readonly cache: AggregateCache;
  private readonly queues = new KeyedMutex();

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly upcasters: UpcasterRegistry,
    private readonly readYourWrites: ReadYourWrites,
  ) {
    this.cache = new AggregateCache(config.aggregateCacheSize);
  }

  async execute<S, C, E extends DomainEvent>(
    decider: Decider<S, C, E>,
    streamId: string,
    command: C,
    context: CommandContext,
    options: ExecuteOptions = {},
  ): Promise<CommandOutcome<S, E>> {
    const outcome = await this.queues.run(streamId, () => this.decideAndAppend(decider, streamId, command, context, options.maxRetries ?? 5));
    if (outcome.position > 0 && options.readYourWrites !== false) {
      await this.readYourWrites.waitFor(outcome.position, outcome.events.map((e) => e.type));
    }
    return outcome;
  }

  /** The state of a stream as `decide` would see it now. */
  async load<S, C, E extends DomainEvent>(decider: Decider<S, C, E>, streamId: string): Promise<{ state: S; revision: number }> {
    const cached = this.cache.get(streamId, decider);
    const from = cached ? cached.revision + 1 : 0;
    const recorded = await this.store.readStream(streamId, from > 0 ? { fromRevision: from } : undefined);
    let state = cached ? (cached.state as S) : decider.initialState;
    for (const event of recorded) state = decider.evolve(state, { type: event.type, data: event.data } as E);
    const revision = recorded.length > 0 ? recorded[recorded.length - 1].revision : (cached?.revision ?? -1);
    if (recorded.length > 0) this.cache.set(streamId, { owner: decider, state, revision });
    return { state, revision };
  }

  /** Cache hits and misses (diagnostics and the bench). */
  get cacheStats(): { size: number; hits: number; misses: number } {
    return this.cache.stats;
  }

  private async decideAndAppend<S, C, E extends DomainEvent>(
    decider: Decider<S, C, E>,
    streamId: string,
    command: C,
    context: CommandContext,
    maxRetries: number,
  ): Promise<CommandOutcome<S, E>> {
    for (let attempt = 0; ; attempt++) {
      const { state, revision } = await this.load(decider, streamId);
      const now = this.clock.now();
      const events = decider.decide(command, state, now);
      if (events.length === 0) return { events, state, revision, position: 0 };
      try {
        const result = await this.store.append(
          streamId,
          events.map((e) => this.toNewEvent(e, context, now)),
          revision < 0 ? 'no_stream' : revision,
        );
        const next = events.reduce(decider.evolve, state);
        this.cache.set(streamId, { owner: decider, state: next, revision: result.nextExpectedRevision });
        return { events, state: next, revision: result.nextExpectedRevision, position: result.position };
      } catch (error) {
        if (!(error instanceof WrongExpectedRevisionError) || attempt >= maxRetries) throw error;
      }
    }
  }

  private toNewEvent(event: DomainEvent, context: CommandContext, now: Date): NewEvent {
    return {
      type: event.type,
      data: event.data as JsonObject,
      metadata: {
        eventId: randomUUID(),
        correlationId: context.correlationId,
        causationId: context.causationId ?? null,
        actor: context.actor,
        nodeId: this.config.nodeId,
        occurredAt: now.toISOString(),
        schemaVersion: this.upcasters.currentVersion(event.type),
      },
    };
  }
}
