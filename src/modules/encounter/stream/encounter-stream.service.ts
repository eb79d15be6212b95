/**
 * The per-process side of encounter delivery (SPEC §6), on every process that
 * serves HTTP (role `api`, whatever PROJECTIONS says):
 *
 * - a bus consumer on the four base topics, in a consumer group of its own
 *   (`encounter-stream-<nodeId>-<random>`, fromBeginning false), so every
 *   HTTP process sees every message from now on, whichever node published it;
 * - an in-process fan-out to the open SSE connections of the one user a
 *   message names (Map<userId, Set<connection>>): a message never reaches
 *   another user's connection;
 * - what a connection needs besides the bus: the inbox read model and the
 *   store's head position (see StreamSession);
 * - `serve`: one user's stream on a hijacked reply (SseResponse), with its
 *   heartbeat, from open to close; at most SVC_ENCOUNTER_STREAMS_PER_USER
 *   open at once per user on this process (429 beyond).
 *
 * Subscribing retries in the background and never holds up the start (the
 * bus may be down: the inbox poll still delivers). onModuleDestroy ends every
 * open stream first, or the HTTP server's graceful close would wait forever.
 */
import { randomBytes } from 'node:crypto';
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ENCOUNTER_TOPICS, type EncounterTopic } from '../../../aggregates/encounter/encounter-messages';
import { DomainError } from '../../../aggregates/shared/domain-error';
import { SOCIAL_TOPIC } from '../../../aggregates/social/social-topics';
import { APP_CONFIG, type AppConfig } from '../../../config/config';
import { BusListener } from '../../../infrastructure/bus/bus-listener';
import { type BusMessage, MESSAGE_BUS, type MessageBus } from '../../../infrastructure/bus/message-bus.port';
import { EVENT_STORE, type EventStore } from '../../../infrastructure/event-store/event-store.port';
import { PlatformLifecycle } from '../../../infrastructure/platform-lifecycle';
import { PROCESS_ROLE, type ProcessRole } from '../../../infrastructure/process-role';
import { ProjectionEngine } from '../../../infrastructure/projections/projection-engine';
import { READ_STORE, type ReadStore } from '../../../infrastructure/read-store/read-store.port';
import {
  ENCOUNTER_INBOX,
  ENCOUNTER_INBOX_PROJECTION,
  type EncounterInboxDoc,
  inboxAfter,
} from '../../../projections/encounter/encounter-inbox.projection';
import { SseResponse } from '../../common/sse-response';
import { type EncounterBusValue, SSE_CONNECTED, type StreamMessage } from './sse';
import { StreamSession } from './stream-session';

/** the encounter topics, and the social notifications' topic (social-routes §11: the user's SSE stream carries them too) */
const BASE_TOPICS: readonly (EncounterTopic | typeof SOCIAL_TOPIC)[] = [...Object.values(ENCOUNTER_TOPICS), SOCIAL_TOPIC];
const SUBSCRIBE_RETRY_MS = 2000;
/** how long a doorbell waits for the inbox before the bus's own copy is sent */
export const INBOX_WAIT_MS = 1000;
const CHECKPOINT_POLL_MS = 25;

export interface StreamConnection {
  deliver(message: StreamMessage): void;
  /** ends the HTTP response (shutdown) */
  end(): void;
}

/** The stream message of a bus message, or null for anything malformed or addressed inconsistently. */
export function streamMessageOf(message: BusMessage): { userId: string; message: StreamMessage } | null {
  const topic = message.topic as EncounterTopic | typeof SOCIAL_TOPIC;
  const value = message.value as Partial<EncounterBusValue> | null;
  if (!BASE_TOPICS.includes(topic) || !value || typeof value !== 'object') return null;
  const userId = message.key;
  if (typeof userId !== 'string' || userId === '' || value.topic !== `${topic}.${userId}`) return null;
  if (typeof value.id !== 'string' || !/^\d{1,15}$/.test(value.id)) return null;
  if (!value.payload || typeof value.payload !== 'object' || typeof value.at !== 'string') return null;
  return { userId, message: { position: Number(value.id), topic, userTopic: value.topic, payload: value.payload, at: value.at } };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function toStreamMessage(doc: EncounterInboxDoc): StreamMessage {
  return { position: doc.position, topic: doc.topic, userTopic: doc.user_topic, payload: doc.payload, at: doc.at };
}

@Injectable()
export class EncounterStreamService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('EncounterStream');
  private readonly connections = new Map<string, Set<StreamConnection>>();
  readonly groupId: string;
  private listener: BusListener | null = null;
  private stopped = false;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(PROCESS_ROLE) private readonly role: ProcessRole,
    @Inject(EVENT_STORE) private readonly eventStore: EventStore,
    @Inject(READ_STORE) private readonly readStore: ReadStore,
    @Inject(MESSAGE_BUS) private readonly bus: MessageBus,
    private readonly runner: ProjectionEngine,
    private readonly lifecycle: PlatformLifecycle,
  ) {
    this.groupId = `encounter-stream-${config.nodeId}-${randomBytes(6).toString('hex')}`;
  }

  onApplicationBootstrap(): void {
    if (this.role !== 'api') return;
    this.listener = new BusListener(
      this.bus,
      { groupId: this.groupId, topics: [...BASE_TOPICS], fromBeginning: false },
      // never throws: a redelivered message would only be dropped by the sessions' dedupe
      async (message: BusMessage) => this.dispatch(message),
      this.logger,
      SUBSCRIBE_RETRY_MS,
    );
    this.listener.start();
  }

  onModuleDestroy(): void {
    this.stopped = true;
    const open = [...this.connections.values()].flatMap((set) => [...set]);
    this.connections.clear();
    for (const connection of open) connection.end();
    void this.listener?.stop();
  }

  /** true once the bus consumer joined its group (live delivery works; before that, the inbox poll does) */
  get isListening(): boolean {
    return this.listener?.joined ?? false;
  }

  /** false once the process is shutting down: new streams are refused */
  get accepting(): boolean {
    return !this.stopped;
  }

  /**
   * Serves one user's stream on this reply until the client goes or the
   * process stops: resumes after `resume` (the last id the client saw), or
   * with null from now on (after the store's head position). Resolves once
   * the backfill was sent; the stream goes on after that.
   */
  async serve(userId: string, resume: number | null, reply: FastifyReply): Promise<void> {
    if (!this.accepting) throw new DomainError('unavailable', 'shutting down');
    this.refuseOverCap(userId);
    const start = resume ?? (await this.headPosition());
    // checked again with nothing awaited until connect(): concurrent opens cannot all slip under the cap
    this.refuseOverCap(userId);
    const response = new SseResponse(reply);
    const session = new StreamSession(
      {
        write: response.write,
        readInbox: (after, limit) => this.readInbox(userId, after, limit),
        waitForInbox: (position) => this.waitForInbox(position),
        onError: (error) => this.logger.warn(`inbox read failed: ${messageOf(error)}`),
      },
      start,
    );
    response.open();
    // connect and greet in one tick: once the client sees `: connected`, live messages reach it
    const disconnect = this.connect(userId, {
      deliver: (message) => session.live(message),
      end: () => {
        session.close();
        response.end();
      },
    });
    void response.write(SSE_CONNECTED);
    const heartbeat = setInterval(() => void session.heartbeat(), this.config.encounter.streamHeartbeatSec * 1000);
    heartbeat.unref();
    const cleanUp = () => {
      clearInterval(heartbeat);
      session.close();
      disconnect();
    };
    response.onClose(cleanUp);
    // the client may have gone while the head position was read: 'close' already fired
    if (response.gone) return cleanUp();
    // the reply is hijacked: a failure here must end the stream, not reach the exception filter
    await session.start().catch((error: unknown) => {
      this.logger.warn(`stream failed: ${messageOf(error)}`);
      response.end();
    });
  }

  /** 429 when the user already holds SVC_ENCOUNTER_STREAMS_PER_USER open streams on this process. */
  private refuseOverCap(userId: string): void {
    const cap = this.config.encounter.streamsPerUser;
    if ((this.connections.get(userId)?.size ?? 0) >= cap) {
      throw new DomainError('rate_limited', `too many open streams: at most ${cap} per user; close one first`);
    }
  }

  /** Registers a user's connection; the returned function unregisters it. */
  connect(userId: string, connection: StreamConnection): () => void {
    let set = this.connections.get(userId);
    if (!set) this.connections.set(userId, (set = new Set()));
    set.add(connection);
    return () => {
      const current = this.connections.get(userId);
      current?.delete(connection);
      if (current?.size === 0) this.connections.delete(userId);
    };
  }

  /** Hands a bus message to the connections of the user it names, and nobody else. */
  dispatch(busMessage: BusMessage): void {
    const parsed = streamMessageOf(busMessage);
    if (!parsed) return;
    for (const connection of this.connections.get(parsed.userId) ?? []) {
      try {
        connection.deliver(parsed.message);
      } catch (error) {
        this.logger.warn(`delivery failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }

  headPosition(): Promise<number> {
    return this.eventStore.headPosition();
  }

  async readInbox(userId: string, after: number, limit: number): Promise<StreamMessage[]> {
    const query = inboxAfter(userId, after, limit);
    const docs = await this.readStore.collection<EncounterInboxDoc>(ENCOUNTER_INBOX).find(query.filter, query.options);
    return docs.map(toStreamMessage);
  }

  /** Resolves true once the inbox read model reached `position` (in-process runner, or a worker's checkpoint). */
  async waitForInbox(position: number, timeoutMs = INBOX_WAIT_MS): Promise<boolean> {
    if (this.lifecycle.runsBackgroundWork()) return this.runner.waitFor([ENCOUNTER_INBOX_PROJECTION], position, timeoutMs);
    const deadline = Date.now() + timeoutMs;
    while (!this.stopped) {
      if (((await this.readStore.getCheckpoint(ENCOUNTER_INBOX_PROJECTION)) ?? 0) >= position) return true;
      if (Date.now() >= deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, CHECKPOINT_POLL_MS).unref());
    }
    return false;
  }
}
