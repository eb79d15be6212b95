/**
 * The one path from a command to appended events: load the stream, fold it
 * with `evolve`, call the pure `decide`, append with the revision that was
 * read (optimistic concurrency), retry on a conflict by re-reading, then wait
 * until the projections fed by the new events caught up (read-your-writes).
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
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly upcasters: UpcasterRegistry,
    private readonly readYourWrites: ReadYourWrites,
  ) {}

  async execute<S, C, E extends DomainEvent>(
    decider: Decider<S, C, E>,
    streamId: string,
    command: C,
    context: CommandContext,
    options: ExecuteOptions = {},
  ): Promise<CommandOutcome<S, E>> {
    const maxRetries = options.maxRetries ?? 5;
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
        if (options.readYourWrites !== false) {
          await this.readYourWrites.waitFor(result.position, events.map((e) => e.type));
        }
        return {
          events,
          state: events.reduce(decider.evolve, state),
          revision: result.nextExpectedRevision,
          position: result.position,
        };
      } catch (error) {
        if (!(error instanceof WrongExpectedRevisionError) || attempt >= maxRetries) throw error;
      }
    }
  }

  /** Folds the stream into the decider's state. */
  async load<S, C, E extends DomainEvent>(
    decider: Decider<S, C, E>,
    streamId: string,
  ): Promise<{ state: S; revision: number }> {
    const recorded = await this.store.readStream(streamId);
    let state = decider.initialState;
    for (const event of recorded) state = decider.evolve(state, { type: event.type, data: event.data } as E);
    return { state, revision: recorded.length === 0 ? -1 : recorded[recorded.length - 1].revision };
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
