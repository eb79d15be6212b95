import { Admin, Kafka, Partitioners, Producer, RetryOptions } from 'kafkajs';
import type {
  BusMessage,
  BusSubscription,
  ConsumerLag,
  MessageBus,
  MessageHandler,
  OutgoingMessage,
  SubscribeOptions,
} from '../message-bus.port';
import { assertTopicName, encodeMessages, isRetriableKafkaError, KafkaBusLogLevel, toKafkaLogLevel } from './kafka-mapping';
import { tracedHandler, tracedPublish } from '../trace-headers';
import { KafkaSubscription } from './kafka-subscription';

export interface KafkaBusOptions {
  /** `host:port` of one or more brokers */
  brokers: string[];
  clientId?: string;
  /** partitions of the topics this bus creates (default 3) */
  partitions?: number;
  /** replication factor of the topics this bus creates (default 1) */
  replicationFactor?: number;
  /** kafkajs's own log output (default 'nothing'; errors reach onError/onHandlerError anyway) */
  logLevel?: KafkaBusLogLevel;
  /**
   * How long publish() keeps trying while the brokers are unreachable before
   * it rejects (default 30 s). The attempt under way at the deadline sends
   * nothing more, but a batch already on the wire may still land: a rejected
   * publish may have been delivered (at-least-once, like any retry).
   */
  publishTimeoutMs?: number;
  /** How long subscribe() may take to join its group (default 60 s). */
  subscribeTimeoutMs?: number;
  /** first pause before a message whose handler threw is handed over again (default 200 ms) */
  retryDelayMs?: number;
  /** the pause doubles per failed attempt of the same message up to this (default 30 s) */
  maxRetryDelayMs?: number;
  /** idempotent producer: the broker drops a batch the producer resent (default true) */
  idempotent?: boolean;
  /** longest wait of a fetch for new messages (default 500 ms, like Java's fetch.max.wait.ms) */
  maxWaitTimeMs?: number;
  /**
   * Partitions one subscription handles at the same time (default: the bus's
   * `partitions`). Messages of one partition are always handled one at a
   * time, in order; different partitions, hence different keys, may overlap.
   */
  partitionsConsumedConcurrently?: number;
  /** a member that sends no heartbeat for this long leaves its group (default 30 s) */
  sessionTimeoutMs?: number;
  /**
   * How long a subscription's stop() waits for its consumer to leave the
   * group, after the handler in flight finished (default 10 s); only a
   * broker outage makes that take long.
   */
  stopTimeoutMs?: number;
  /**
   * Handled offsets are committed in batches: at the end of every fetched
   * batch, on stop() and on a rebalance, and within a long batch once this
   * many handled offsets await their commit (default 500) ...
   */
  commitThreshold?: number;
  /**
   * ... or this long after the previous commit (default 250 ms). The handler
   * does not wait for these commits (one is in flight at a time), so a crash
   * redelivers at most that much plus what was handled during one commit's
   * round trip.
   */
  commitIntervalMs?: number;
  /** told about every handler failure before the retry (default: console.warn) */
  onHandlerError?: (error: unknown, message: BusMessage) => void;
  /** told about failures outside a handler, such as a consumer that gave up (default: console.error) */
  onError?: (error: unknown, context: string) => void;
}

function warnHandlerError(error: unknown, message: BusMessage): void {
  const reason = error instanceof Error ? error.message : String(error);
  console.warn(
    `KafkaBus: handler failed for ${message.topic}[${message.partition}]@${message.offset} (key ${message.key}), retrying: ${reason}`,
  );
}

function logError(error: unknown, context: string): void {
  console.error(`KafkaBus: ${context}: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`);
}

function describeError(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Consumers: kafkajs retries connections, metadata and group membership with
 * these; once they run out the consumer crashes and kafkajs restarts it (see
 * restartOnFailure), so a consumer outlives any broker outage.
 */
const CONSUMER_RETRY: RetryOptions = { retries: 8, initialRetryTime: 300, maxRetryTime: 3000, factor: 0.2, multiplier: 2 };
/**
 * Producer and admin: short per attempt, so publish() and subscribe() notice
 * their own deadlines (they retry on top of these) and publish() renews its
 * producer between attempts.
 */
const SHORT_RETRY: RetryOptions = { retries: 3, initialRetryTime: 200, maxRetryTime: 1000, factor: 0.2, multiplier: 2 };

/**
 * The message bus on Apache Kafka (kafkajs). Topics are created on first use
 * with the configured partitions and broker-side timestamps (LogAppendTime);
 * keys pick partitions (kafkajs's default,
 * Java-compatible murmur2 partitioner), so messages of one key stay in order.
 * Values travel as JSON, keys and headers as strings. Each subscribe() is one
 * consumer in its group; see KafkaSubscription for delivery and retries.
 */
export class KafkaBus implements MessageBus {
  /** for consumers (generous retries) */
  private readonly kafka: Kafka;
  /** for the producer and the admin client (short retries) */
  private readonly kafkaShort: Kafka;
  private readonly partitions: number;
  private readonly replicationFactor: number;
  private readonly publishTimeoutMs: number;
  private readonly subscribeTimeoutMs: number;
  private readonly idempotent: boolean;
  private readonly commitThreshold: number;
  private readonly commitIntervalMs: number;
  private readonly partitionsConsumedConcurrently: number;
  private readonly subscriptions = new Set<KafkaSubscription>();
  private readonly topicsReady = new Map<string, Promise<void>>();
  private producerState: { producer: Producer; ready: Promise<Producer> } | null = null;
  private adminState: { admin: Admin; ready: Promise<Admin> } | null = null;
  private closed = false;
  private closing: Promise<void> | null = null;

  constructor(private readonly options: KafkaBusOptions) {
    if (!Array.isArray(options.brokers) || options.brokers.length === 0) {
      throw new TypeError('KafkaBus needs at least one broker');
    }
    this.partitions = options.partitions ?? 3;
    this.replicationFactor = options.replicationFactor ?? 1;
    this.publishTimeoutMs = options.publishTimeoutMs ?? 30_000;
    this.subscribeTimeoutMs = options.subscribeTimeoutMs ?? 60_000;
    this.idempotent = options.idempotent ?? true;
    this.commitThreshold = options.commitThreshold ?? 500;
    this.commitIntervalMs = options.commitIntervalMs ?? 250;
    this.partitionsConsumedConcurrently = options.partitionsConsumedConcurrently ?? this.partitions;
    for (const [name, value] of Object.entries({
      partitions: this.partitions,
      partitionsConsumedConcurrently: this.partitionsConsumedConcurrently,
      replicationFactor: this.replicationFactor,
      commitThreshold: this.commitThreshold,
      commitIntervalMs: this.commitIntervalMs,
    })) {
      if (!Number.isInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer (got ${value})`);
    }
    const client = (retry: RetryOptions) =>
      new Kafka({
        clientId: options.clientId ?? 'agent-platform',
        brokers: options.brokers,
        logLevel: toKafkaLogLevel(options.logLevel),
        connectionTimeout: 3000,
        requestTimeout: 30_000,
        retry,
      });
    this.kafka = client(CONSUMER_RETRY);
    this.kafkaShort = client(SHORT_RETRY);
  }

  publish(topic: string, messages: OutgoingMessage[]): Promise<void> {
    return tracedPublish(topic, messages, (stamped) => this.send(topic, stamped));
  }

  private async send(topic: string, messages: OutgoingMessage[]): Promise<void> {
    this.assertOpen();
    assertTopicName(topic);
    const encoded = encodeMessages(messages); // before any I/O: a bad value sends nothing
    if (encoded.length === 0) return;
    await this.withRetries(`publish to ${topic}`, this.publishTimeoutMs, async (attempt) => {
      await this.ensureTopic(topic);
      const producer = await this.producer();
      if (attempt.abandoned) return; // publish() already rejected: do not send behind the caller's back
      try {
        await producer.send({ topic, messages: encoded, acks: -1 });
      } catch (error) {
        // An idempotent producer that gave up on a batch must not number the
        // next one as if nothing happened: the next attempt gets a new producer.
        this.retireProducer(producer);
        throw error;
      }
    });
  }

  async subscribe(options: SubscribeOptions, handler: MessageHandler): Promise<BusSubscription> {
    this.assertOpen();
    if (!options.topics || options.topics.length === 0) throw new TypeError('subscribe needs at least one topic');
    if (!options.groupId) throw new TypeError('subscribe needs a groupId');
    options.topics.forEach(assertTopicName);
    const started = Date.now();
    await this.withRetries(`create topics ${options.topics.join(', ')}`, this.subscribeTimeoutMs, async () => {
      await Promise.all(options.topics.map((topic) => this.ensureTopic(topic)));
    });
    this.assertOpen();

    let subscription: KafkaSubscription | null = null;
    const sessionTimeout = this.options.sessionTimeoutMs ?? 30_000;
    const consumer = this.kafka.consumer({
      groupId: options.groupId,
      allowAutoTopicCreation: false,
      maxWaitTimeInMs: this.options.maxWaitTimeMs ?? 500,
      sessionTimeout,
      heartbeatInterval: Math.min(3000, Math.floor(sessionTimeout / 3)),
      retry: { ...CONSUMER_RETRY, restartOnFailure: async () => subscription?.active ?? false },
    });
    subscription = new KafkaSubscription(consumer, { ...options, topics: [...options.topics] }, tracedHandler(handler, options.groupId), {
      retryDelayMs: this.options.retryDelayMs ?? 200,
      maxRetryDelayMs: this.options.maxRetryDelayMs ?? 30_000,
      onHandlerError: this.options.onHandlerError ?? warnHandlerError,
      onError: this.options.onError ?? logError,
      stopTimeoutMs: this.options.stopTimeoutMs ?? 10_000,
      commitIntervalMs: this.commitIntervalMs,
      commitThreshold: this.commitThreshold,
      partitionsConsumedConcurrently: this.partitionsConsumedConcurrently,
      onStopped: () => this.subscriptions.delete(subscription!),
    });
    const joined = subscription;
    this.subscriptions.add(joined);
    try {
      await joined.start(Math.max(1000, this.subscribeTimeoutMs - (Date.now() - started)));
    } catch (error) {
      await joined.stop().catch(() => undefined);
      throw error;
    }
    if (this.closed) {
      await joined.stop();
      throw new Error('KafkaBus is closed');
    }
    return joined;
  }

  /** Lag per group and topic of this process's consumers, as of their last fetched batches. */
  consumerLag(): ConsumerLag[] {
    const byGroup = new Map<string, Map<string, number>>();
    for (const subscription of this.subscriptions) {
      let topics = byGroup.get(subscription.groupId);
      if (!topics) byGroup.set(subscription.groupId, (topics = new Map()));
      for (const [topic, lag] of subscription.lagByTopic()) topics.set(topic, (topics.get(topic) ?? 0) + lag);
    }
    return [...byGroup].flatMap(([groupId, topics]) => [...topics].map(([topic, lag]) => ({ groupId, topic, lag })));
  }

  /** Stops every subscription (waiting for the handlers in flight), then disconnects. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      this.closed = true;
      await Promise.allSettled([...this.subscriptions].map((subscription) => subscription.stop()));
      // a topic creation under way polls the brokers until its leaders are known: let it end first
      await Promise.allSettled([...this.topicsReady.values()]);
      const clients = [this.producerState, this.adminState];
      this.producerState = null;
      this.adminState = null;
      // a connect under way ends within the short retries; then disconnect whatever it opened
      await Promise.allSettled(
        clients.map(async (state) => {
          if (!state) return;
          await state.ready.catch(() => undefined);
          await ('producer' in state ? state.producer : state.admin).disconnect();
        }),
      );
    })();
    return this.closing;
  }

  /**
   * Runs `attempt` until it succeeds, fails for good, or the deadline passed.
   * An attempt still under way at the deadline is abandoned (told so through
   * its argument) rather than waited for.
   */
  private async withRetries(
    what: string,
    timeoutMs: number,
    attempt: (state: { abandoned: boolean }) => Promise<void>,
  ): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    let lastError: unknown = null;
    const giveUp = (error: unknown) =>
      new Error(`KafkaBus: ${what} failed for ${timeoutMs} ms, giving up: ${describeError(error)}`, { cause: error });
    for (let failures = 0; ; failures++) {
      if (this.closed) throw new Error(`KafkaBus is closed (${what} not attempted)`);
      const state = { abandoned: false };
      let timer: NodeJS.Timeout | undefined;
      const expired = new Promise<'expired'>((resolve) => {
        timer = setTimeout(() => resolve('expired'), Math.max(0, deadline - Date.now()));
      });
      const running = attempt(state);
      try {
        const outcome = await Promise.race([running, expired]);
        if (outcome !== 'expired') return;
        state.abandoned = true;
        running.catch(() => undefined);
        throw giveUp(lastError ?? new Error('no answer from the brokers'));
      } catch (error) {
        if (state.abandoned) throw error;
        if (this.closed) throw new Error(`KafkaBus is closed (${what} did not complete: ${describeError(error)})`);
        if (!isRetriableKafkaError(error)) throw error;
        lastError = error;
        const remaining = deadline - Date.now();
        if (remaining <= 0) throw giveUp(error);
        await sleep(Math.min(250 * 2 ** Math.min(failures, 3), remaining));
      } finally {
        clearTimeout(timer);
      }
    }
  }

  /** Creates the topic once per bus (an existing topic is fine). */
  private ensureTopic(topic: string): Promise<void> {
    let ready = this.topicsReady.get(topic);
    if (!ready) {
      ready = (async () => {
        const admin = await this.admin();
        // closed while connecting: start no new request on a bus being torn down
        if (this.closed) throw new Error('KafkaBus is closed');
        await admin.createTopics({
          topics: [
            {
              topic,
              numPartitions: this.partitions,
              replicationFactor: this.replicationFactor,
              // BusMessage.timestamp is when the bus accepted the message: the broker's clock, not the producer's
              configEntries: [{ name: 'message.timestamp.type', value: 'LogAppendTime' }],
            },
          ],
          waitForLeaders: true,
          timeout: 10_000,
        });
      })();
      this.topicsReady.set(topic, ready);
      ready.catch(() => this.topicsReady.delete(topic)); // try again next time
    }
    return ready;
  }

  private producer(): Promise<Producer> {
    if (!this.producerState) {
      const producer = this.kafkaShort.producer({
        idempotent: this.idempotent,
        maxInFlightRequests: 1,
        allowAutoTopicCreation: false,
        createPartitioner: Partitioners.DefaultPartitioner,
        retry: SHORT_RETRY,
      });
      const state = { producer, ready: producer.connect().then(() => producer) };
      this.producerState = state;
      state.ready.catch(() => this.retireProducer(producer));
    }
    return this.producerState.ready;
  }

  /** Drops the producer (if still current) so the next publish starts a new one. */
  private retireProducer(producer: Producer): void {
    if (this.producerState?.producer !== producer) return;
    this.producerState = null;
    producer.disconnect().catch(() => undefined);
  }

  private admin(): Promise<Admin> {
    if (!this.adminState) {
      const admin = this.kafkaShort.admin();
      const state = { admin, ready: admin.connect().then(() => admin) };
      this.adminState = state;
      state.ready.catch(() => {
        if (this.adminState === state) this.adminState = null;
        admin.disconnect().catch(() => undefined);
      });
    }
    return this.adminState.ready;
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('KafkaBus is closed');
  }
}
