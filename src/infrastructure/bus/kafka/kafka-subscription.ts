/**
 * One subscribe() call on the Kafka bus: one kafkajs consumer in a group.
 *
 * Delivery (the port's semantics):
 * - messages of a partition are handed over one at a time, in offset order
 *   (a key always maps to one partition); different partitions are handled
 *   at the same time, up to `partitionsConsumedConcurrently` (like the
 *   in-process bus, whose partitions are its unit of parallelism);
 * - an offset is committed only after its message's handler resolved, never
 *   before; handled offsets are committed in batches (see "Commits" below),
 *   so a crash redelivers at most the handled-but-uncommitted tail;
 * - a handler that throws pauses its partition and sees the same message
 *   again after a delay that doubles up to a limit; the partition's later
 *   messages wait, other partitions go on.
 *
 * Commits: only handled offsets are resolved (kafkajs's resolveOffset;
 * eachBatchAutoResolve is off, so nothing unhandled is ever resolved), and
 * what was resolved is committed (HandledOffsets does the bookkeeping):
 * - within a batch, once `commitThreshold` messages were handled since the
 *   last commit or `commitIntervalMs` passed, whichever comes first (counted
 *   here: kafkajs's own threshold check recounts every partition's offsets
 *   after each message, which costs as much as the rest of the loop). The
 *   handler of the next message does not wait for that commit's round trip;
 *   one commit is in flight at a time, and the batch ends only after it;
 * - at the end of every fetched batch (kafkajs's autoCommit), including one
 *   cut short by a failing handler, a seek, or stop(): an idle partition
 *   never keeps handled offsets uncommitted, and stop() returns after that
 *   commit;
 * - when a heartbeat learns of a rebalance (kafkajs's autoCommit commits
 *   before it rejoins): handled offsets are resolved before every heartbeat
 *   this subscription asks for and whenever a batch ends, so the next owner
 *   of a partition starts after what was handled. One gap remains with
 *   partitions handled at the same time: what another partition handled
 *   during kafkajs's end-of-batch commit, just before its heartbeat, is not
 *   in that commit and comes again to the next owner (at-least-once).
 * Resolving the last handled offset covers every one before it, so it is
 * done at those moments rather than after each message (kafkajs parses and
 * formats a 64-bit offset each time). One offset commit per batch (or per
 * `commitThreshold` messages) instead of one per message, never waited for
 * in the middle of a batch, is what lets the consumer keep up with the broker.
 */
import type { Consumer, EachBatchPayload, KafkaMessage } from 'kafkajs';
import type { BusMessage, BusSubscription, MessageHandler, SubscribeOptions } from '../message-bus.port';
import { HandledOffsets } from './handled-offsets';
import { BatchDecoder } from './kafka-mapping';
import { waitAtMost } from '../../wait-at-most';

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
  /** within a batch, commit handled offsets at least this often (ms) */
  commitIntervalMs: number;
  /** within a batch, commit once this many handled offsets await their commit */
  commitThreshold: number;
  /** partitions handled at the same time, each one message at a time */
  partitionsConsumedConcurrently: number;
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

/** The handler call under way in one batch (its result, or undefined before the first), and the last offset handled. */
interface HandlerSlot {
  handling: unknown;
  handledOffset: string | null;
}

/** Where a partition stood after its last batch: the broker's high watermark and the next offset to handle. */
interface PartitionProgress {
  topic: string;
  highWatermark: number;
  next: number;
}

/**
 * How often a batch asks kafkajs for a heartbeat (kafkajs sends one only once
 * per heartbeat interval, 3 s; asking costs a few promises, so not per message).
 */
const HEARTBEAT_CHECK_MS = 100;

export class KafkaSubscription implements BusSubscription {
  private stopped = false;
  private stopping: Promise<void> | null = null;
  private readonly retryTimers = new Set<NodeJS.Timeout>();
  private readonly failing = new Map<string, FailingMessage>();
  private starting: Promise<void> | null = null;
  /** settles once the first join (and fetch) succeeded or failed */
  private joinSettled: Promise<void> | null = null;
  /** the batches being handled (one per partition), each with its handler call under way */
  private readonly batches = new Map<HandledOffsets, HandlerSlot>();
  /** seeks made by retryLater (the only caller of consumer.seek) */
  private seeks = 0;
  /** per `topic:partition`, updated once per batch (for the lag on /metrics) */
  private readonly progress = new Map<string, PartitionProgress>();

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
      if (this.stopped) {
        // stop() is waiting for the join to settle before it disconnects
        settle(stoppedError());
        this.endStraggler();
      } else joined = true;
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
    const starting = (async () => {
      await this.consumer.connect();
      await this.consumer.subscribe({ topics: this.options.topics, fromBeginning: this.options.fromBeginning === true });
      await this.consumer.run({
        // kafkajs commits the resolved offsets (handled messages only) at the
        // end of each batch and on a rebalance; within a batch eachBatch
        // commits by itself (see "Commits" above)
        autoCommit: true,
        eachBatchAutoResolve: false,
        partitionsConsumedConcurrently: this.settings.partitionsConsumedConcurrently,
        eachBatch: (payload) => this.eachBatch(payload),
      });
    })();
    // stop() lets connect/subscribe/run finish before it disconnects: a
    // disconnect racing a connect would leave the connect running on its own
    this.starting = starting.catch(() => undefined);
    const joining = (async () => {
      await starting;
      await ready;
    })();
    joining.catch(() => undefined); // when the timeout wins, a late failure is nobody's business
    // stop() waits for this: run() resolves before the group is joined, and a
    // disconnect in the middle of a join leaves kafkajs's join running on its own
    this.joinSettled = joining.catch(() => undefined);
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

  get groupId(): string {
    return this.options.groupId;
  }

  /**
   * Messages behind the high watermark, per topic, as of each partition's
   * last fetched batch (no broker round trip; a partition this consumer no
   * longer owns keeps its last figure until the next batch of its new owner).
   */
  lagByTopic(): Map<string, number> {
    const lag = new Map<string, number>();
    for (const p of this.progress.values()) lag.set(p.topic, (lag.get(p.topic) ?? 0) + Math.max(0, p.highWatermark - p.next));
    return lag;
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
      if (this.starting) await waitAtMost(this.starting, this.settings.stopTimeoutMs);
      if (this.joinSettled) await waitAtMost(this.joinSettled, this.settings.stopTimeoutMs);
      // kafkajs waits for the batch in flight (its loop ends after the
      // current handler; then it commits every handled offset), leaves the
      // group and disconnects; a dead broker can hold that up for its retries
      const disconnected = this.consumer.disconnect().catch(() => undefined);
      try {
        // the handler calls under way (no new one starts once stopped)
        await Promise.allSettled([...this.batches.values()].map((slot) => slot.handling));
        await waitAtMost(disconnected, this.settings.stopTimeoutMs);
      } finally {
        this.settings.onStopped?.();
      }
    })();
    return this.stopping;
  }

  private async eachBatch(payload: EachBatchPayload): Promise<void> {
    if (this.stopped) {
      // stop() ends kafkajs's loop (isRunning() turns false); one still
      // running after stop() is a straggler: crash it for good
      if (payload.isRunning()) throw stoppedError();
      return;
    }
    const offsets = new HandledOffsets(payload, this.settings.commitThreshold, this.settings.commitIntervalMs);
    const slot: HandlerSlot = { handling: undefined, handledOffset: null };
    this.batches.set(offsets, slot);
    try {
      await this.handleMessages(payload, offsets, slot);
    } finally {
      this.batches.delete(offsets);
      this.recordProgress(payload.batch, slot.handledOffset);
      // kafkajs commits the resolved offsets and asks for a heartbeat after
      // each batch: resolve the other batches' handled offsets too
      for (const active of this.batches.keys()) active.resolve();
      await offsets.settle();
    }
    offsets.throwIfFailed();
  }

  /**
   * Hands the batch's messages to the handler one at a time. Returning early
   * leaves the rest of the batch unresolved; kafkajs then commits what was
   * resolved (the handled messages) before it fetches again, and fetches from
   * the first unhandled one (or the seek).
   */
  private async handleMessages(payload: EachBatchPayload, offsets: HandledOffsets, slot: HandlerSlot): Promise<void> {
    const { batch, heartbeat, isRunning, isStale, pause } = payload;
    const { topic, partition } = batch;
    const partitionKey = `${topic}:${partition}`;
    const decoder = new BatchDecoder(topic, partition);
    // only this subscription seeks (retryLater, which ends its own batch): without a seek since, no batch is stale
    const seeks = this.seeks;
    let heartbeatCheck = Date.now() + HEARTBEAT_CHECK_MS;
    for (const message of batch.messages) {
      if (this.stopped || !isRunning() || offsets.failed || (this.seeks !== seeks && isStale())) return;
      const busMessage = decoder.decode(message);
      try {
        const handling = this.handler(busMessage); // a synchronous throw counts as a failure too
        slot.handling = handling;
        await handling;
      } catch (error) {
        offsets.resolve(); // what came before is committed with the seek
        this.retryLater(topic, partition, message, pause);
        this.report(error, busMessage);
        return;
      }
      if (this.failing.size > 0) this.failing.delete(partitionKey);
      slot.handledOffset = message.offset;
      const now = Date.now();
      offsets.handled(message.offset, now);
      if (now >= heartbeatCheck) {
        // kafkajs sends one once per heartbeat interval; one that learns of a
        // rebalance commits the resolved offsets: resolve every batch's first
        for (const active of this.batches.keys()) active.resolve();
        await heartbeat();
        heartbeatCheck = Date.now() + HEARTBEAT_CHECK_MS;
      }
    }
  }

  private recordProgress(batch: EachBatchPayload['batch'], handledOffset: string | null): void {
    const key = `${batch.topic}:${batch.partition}`;
    const highWatermark = Number(batch.highWatermark);
    const previous = this.progress.get(key);
    const next = handledOffset !== null ? Number(handledOffset) + 1 : (previous?.next ?? Number(batch.firstOffset() ?? highWatermark));
    this.progress.set(key, { topic: batch.topic, highWatermark, next });
  }

  /** Pauses the partition, rewinds it to the failed message and resumes it after the delay. */
  private retryLater(topic: string, partition: number, message: KafkaMessage, pause: () => () => void): void {
    const key = `${topic}:${partition}`;
    const previous = this.failing.get(key);
    const attempts = previous && previous.offset === message.offset ? previous.attempts + 1 : 1;
    this.failing.set(key, { offset: message.offset, attempts });
    const delay = Math.min(this.settings.retryDelayMs * 2 ** (attempts - 1), this.settings.maxRetryDelayMs);

    const resume = pause();
    this.seeks++;
    try {
      // under autoCommit kafkajs also commits the sought offset (the failed
      // message's: everything before it was handled) when it applies the seek
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
