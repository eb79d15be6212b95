/**
 * One subscribe() call on the Kafka bus: one kafkajs consumer in a group.
 *
 * Delivery (the port's semantics):
 * - messages of a partition are handed over one at a time, in offset order
 *   (one partition at a time per consumer; a key always maps to one partition);
 * - the offset is committed right after the handler resolved, never before,
 *   so a crash or a rebalance redelivers at most the message in flight;
 * - a handler that throws pauses its partition and sees the same message
 *   again after a delay that doubles up to a limit; the partition's later
 *   messages wait, other partitions go on.
 */
import type { Consumer, EachBatchPayload, KafkaMessage } from 'kafkajs';
import type { BusMessage, BusSubscription, MessageHandler, SubscribeOptions } from '../message-bus.port';
import { decodeMessage, nextOffset } from './kafka-mapping';

export interface KafkaSubscriptionSettings {
  /** first pause before a failed message is handed over again */
  retryDelayMs: number;
  /** longest pause between attempts of the same message */
  maxRetryDelayMs: number;
  onHandlerError: (error: unknown, message: BusMessage) => void;
  onError: (error: unknown, context: string) => void;
  /**
   * After the handler in flight finished, how long stop() waits for the
   * consumer to commit, leave its group and disconnect. Only a broker outage
   * makes that slow; kafkajs then finishes in the background.
   */
  stopTimeoutMs: number;
  /** called once stop() is done */
  onStopped?: () => void;
}

interface FailingMessage {
  offset: string;
  attempts: number;
}

/** Thrown inside kafkajs to end a consumer that outlived stop(); kafkajs does not restart after it. */
function stoppedError(): Error {
  return Object.assign(new Error('KafkaBus subscription was stopped'), { retriable: false });
}

export class KafkaSubscription implements BusSubscription {
  private stopped = false;
  private stopping: Promise<void> | null = null;
  private readonly retryTimers = new Set<NodeJS.Timeout>();
  private readonly failing = new Map<string, FailingMessage>();
  /** the handler call under way, if any (settles, never rejects) */
  private inFlight: Promise<void> | null = null;

  constructor(
    private readonly consumer: Consumer,
    private readonly options: SubscribeOptions,
    private readonly handler: MessageHandler,
    private readonly settings: KafkaSubscriptionSettings,
  ) {}

  /**
   * Joins the group and resolves once the consumer has its assignment and
   * has fetched once: by then a group without committed offsets has settled
   * on its start position (the end, unless fromBeginning), so a message
   * published after subscribe() returned is not missed.
   */
  async start(timeoutMs: number): Promise<void> {
    const { GROUP_JOIN, FETCH, CRASH } = this.consumer.events;
    let joined = false;
    let settle: (error?: unknown) => void = () => undefined;
    const ready = new Promise<void>((resolve, reject) => {
      settle = (error) => (error === undefined ? resolve() : reject(error));
    });
    this.consumer.on(GROUP_JOIN, () => {
      if (this.stopped) this.endStraggler();
      else joined = true;
    });
    const removeFetchListener = this.consumer.on(FETCH, () => {
      if (joined) settle();
    });
    this.consumer.on(CRASH, ({ payload }) => {
      if (this.stopped) {
        this.endStraggler();
        return;
      }
      joined = false; // a restart joins again
      if (!payload.restart) {
        settle(payload.error);
        this.settings.onError(payload.error, `consumer of group ${this.options.groupId} crashed and will not restart`);
      }
    });

    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`KafkaBus: group ${this.options.groupId} did not join within ${timeoutMs} ms`)),
        timeoutMs,
      );
    });
    const joining = (async () => {
      await this.consumer.connect();
      await this.consumer.subscribe({ topics: this.options.topics, fromBeginning: this.options.fromBeginning === true });
      await this.consumer.run({
        autoCommit: false,
        eachBatchAutoResolve: false,
        partitionsConsumedConcurrently: 1,
        eachBatch: (payload) => this.eachBatch(payload),
      });
      await ready;
    })();
    joining.catch(() => undefined); // when the timeout wins, a late failure is nobody's business
    try {
      await Promise.race([joining, timeout]);
    } catch (error) {
      await this.stop().catch(() => undefined);
      throw error;
    } finally {
      clearTimeout(timer);
      removeFetchListener();
    }
  }

  /** kafkajs asks this before restarting a crashed consumer. */
  get active(): boolean {
    return !this.stopped;
  }

  stop(): Promise<void> {
    this.stopping ??= (async () => {
      this.stopped = true;
      for (const timer of this.retryTimers) clearTimeout(timer);
      this.retryTimers.clear();
      // kafkajs waits for the batch in flight (its loop ends after the
      // current handler and that handler's commit), leaves the group and
      // disconnects; a dead broker can hold that up for its retries
      const disconnected = this.consumer.disconnect().catch(() => undefined);
      let timer: NodeJS.Timeout | undefined;
      try {
        await this.inFlight;
        await Promise.race([
          disconnected,
          new Promise<void>((resolve) => (timer = setTimeout(resolve, this.settings.stopTimeoutMs))),
        ]);
      } finally {
        clearTimeout(timer);
        this.settings.onStopped?.();
      }
    })();
    return this.stopping;
  }

  private async eachBatch(payload: EachBatchPayload): Promise<void> {
    const { batch, resolveOffset, heartbeat, commitOffsetsIfNecessary, isRunning, isStale, pause } = payload;
    if (this.stopped) {
      // stop() ends kafkajs's loop (isRunning() turns false); one still
      // running after stop() is a straggler: crash it for good
      if (isRunning()) throw stoppedError();
      return;
    }
    const { topic, partition } = batch;
    for (const message of batch.messages) {
      if (this.stopped || !isRunning() || isStale()) return;
      const busMessage = decodeMessage(topic, partition, message);
      const handled = (async () => this.handler(busMessage))(); // a synchronous throw counts as a failure too
      this.inFlight = handled.then(
        () => undefined,
        () => undefined,
      );
      try {
        await handled;
      } catch (error) {
        this.retryLater(topic, partition, message, pause);
        this.report(error, busMessage);
        return;
      }
      this.failing.delete(`${topic}:${partition}`);
      resolveOffset(message.offset);
      // straight to the group coordinator, also while stop() waits for this batch
      await commitOffsetsIfNecessary({
        topics: [{ topic, partitions: [{ partition, offset: nextOffset(message.offset) }] }],
      });
      await heartbeat();
    }
  }

  /** Pauses the partition, rewinds it to the failed message and resumes it after the delay. */
  private retryLater(topic: string, partition: number, message: KafkaMessage, pause: () => () => void): void {
    const key = `${topic}:${partition}`;
    const previous = this.failing.get(key);
    const attempts = previous && previous.offset === message.offset ? previous.attempts + 1 : 1;
    this.failing.set(key, { offset: message.offset, attempts });
    const delay = Math.min(this.settings.retryDelayMs * 2 ** (attempts - 1), this.settings.maxRetryDelayMs);

    const resume = pause();
    try {
      this.consumer.seek({ topic, partition, offset: message.offset });
    } catch {
      // no consumer group right now (a restart is under way): it resumes from the committed offset anyway
    }
    const timer = setTimeout(() => {
      this.retryTimers.delete(timer);
      if (this.stopped) return;
      try {
        resume();
      } catch {
        // the consumer group was replaced meanwhile; the new one is not paused
      }
    }, delay);
    this.retryTimers.add(timer);
  }

  private report(error: unknown, message: BusMessage): void {
    try {
      this.settings.onHandlerError(error, message);
    } catch {
      // a reporting hook must not break delivery
    }
  }

  /**
   * kafkajs may bring a consumer back after stop() (a crash restart or a
   * join that was under way): end it again, which also cancels a scheduled
   * restart.
   */
  private endStraggler(): void {
    setImmediate(() => {
      this.consumer.disconnect().catch(() => undefined);
    });
  }
}
