import {
  BusMessage,
  BusSubscription,
  ConsumerLag,
  Headers,
  MessageBus,
  MessageHandler,
  OutgoingMessage,
  SubscribeOptions,
  assertTopicName,
} from '../message-bus.port';
import { tracedHandler, tracedPublish } from '../trace-headers';
import { ConsumerGroup } from './consumer-group';
import { GroupMember } from './group-member';
import { PartitionLog } from './partition-log';

export interface InProcessBusOptions {
  /** partitions per topic (default 4): the unit of parallelism inside a group */
  partitions?: number;
  /** pause before a failed message is handed to a handler again (default 100 ms) */
  retryDelayMs?: number;
  /**
   * Most messages kept per partition (default unlimited). Consumed messages
   * are dropped anyway; this also bounds a partition a stopped group never
   * catches up on, which then resumes at the oldest message kept (Kafka's
   * retention).
   */
  retention?: number;
  /** told about every handler failure before the retry (default: console.warn) */
  onHandlerError?: (error: unknown, message: BusMessage) => void;
}

/** FNV-1a: stable across runs and processes, so a key always maps to the same partition. */
export function partitionFor(key: string, partitions: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    hash ^= key.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % partitions;
}

function warnHandlerError(error: unknown, message: BusMessage): void {
  const reason = error instanceof Error ? error.message : String(error);
  console.warn(
    `InProcessBus: handler failed for ${message.topic}[${message.partition}]@${message.offset} (key ${message.key}), retrying: ${reason}`,
  );
}

/**
 * The message bus inside one process, with Kafka's semantics so code written
 * against it behaves the same on Kafka: partitioned topics, consumer groups
 * sharing partitions, order per key, at-least-once delivery with the offset
 * committed after the handler resolved. Nothing survives the process.
 */
export class InProcessBus implements MessageBus {
  private readonly partitionCount: number;
  private readonly retryDelayMs: number;
  private readonly retention: number;
  private readonly onHandlerError: (error: unknown, message: BusMessage) => void;
  private readonly topics = new Map<string, PartitionLog[]>();
  private readonly groups = new Map<string, ConsumerGroup>();
  private readonly subscriptions = new Set<BusSubscription>();
  private closed = false;

  constructor(options: InProcessBusOptions = {}) {
    this.partitionCount = options.partitions ?? 4;
    this.retryDelayMs = options.retryDelayMs ?? 100;
    this.retention = options.retention ?? Number.POSITIVE_INFINITY;
    this.onHandlerError = options.onHandlerError ?? warnHandlerError;
    if (!Number.isInteger(this.partitionCount) || this.partitionCount < 1) {
      throw new RangeError(`partitions must be a positive integer (got ${options.partitions})`);
    }
  }

  publish(topic: string, messages: OutgoingMessage[]): Promise<void> {
    return tracedPublish(topic, messages, (stamped) => this.append(topic, stamped));
  }

  private async append(topic: string, messages: OutgoingMessage[]): Promise<void> {
    this.assertOpen();
    assertTopicName(topic);
    // Serialise the whole batch first: one bad value appends nothing, and the
    // caller may mutate its objects as soon as we return.
    const timestamp = new Date().toISOString();
    const encoded = messages.map((message) => ({
      key: String(message.key),
      value: JSON.stringify(message.value) ?? 'null', // undefined travels as null
      headers: copyHeaders(message.headers),
      timestamp,
    }));
    const logs = this.partitionsOf(topic);
    for (const message of encoded) logs[partitionFor(message.key, this.partitionCount)].append(message);
  }

  async subscribe(options: SubscribeOptions, handler: MessageHandler): Promise<BusSubscription> {
    this.assertOpen();
    if (options.topics.length === 0) throw new TypeError('subscribe needs at least one topic');
    options.topics.forEach(assertTopicName);
    let group = this.groups.get(options.groupId);
    if (!group) {
      group = new ConsumerGroup(options.groupId, {
        partitionsOf: (topic) => this.partitionsOf(topic),
        committed: (topic, partition) => this.trim(topic, partition),
        retryDelayMs: this.retryDelayMs,
      });
      this.groups.set(options.groupId, group);
    }
    const member = new GroupMember(new Set(options.topics), tracedHandler(handler, options.groupId), this.onHandlerError);
    group.join(member, options.fromBeginning === true);

    const joined = group;
    let stopping: Promise<void> | null = null;
    const subscription: BusSubscription = {
      stop: () => {
        stopping ??= joined.leave(member).finally(() => this.subscriptions.delete(subscription));
        return stopping;
      },
    };
    this.subscriptions.add(subscription);
    return subscription;
  }

  /** Stops every subscription, waiting for the handlers in flight. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all([...this.subscriptions].map((subscription) => subscription.stop()));
    await Promise.all([...this.groups.values()].map((group) => group.stopped()));
  }

  /** Queue depth per group and topic: what was published and not yet handled. */
  consumerLag(): ConsumerLag[] {
    const lags: ConsumerLag[] = [];
    for (const group of this.groups.values()) {
      for (const [topic, lag] of group.lagByTopic()) lags.push({ groupId: group.id, topic, lag });
    }
    return lags;
  }

  /** Messages held in memory for a topic, summed over partitions (for tests and diagnostics). */
  retainedMessages(topic: string): number {
    return (this.topics.get(topic) ?? []).reduce((sum, log) => sum + log.size, 0);
  }

  private partitionsOf(topic: string): PartitionLog[] {
    let logs = this.topics.get(topic);
    if (!logs) {
      logs = Array.from({ length: this.partitionCount }, () => new PartitionLog(this.retention));
      this.topics.set(topic, logs);
    }
    return logs;
  }

  /** Drops what every group that ever read this partition has committed past. */
  private trim(topic: string, partition: number): void {
    let lowest = Number.POSITIVE_INFINITY;
    for (const group of this.groups.values()) {
      const offset = group.committedOffset(topic, partition);
      if (offset !== undefined) lowest = Math.min(lowest, offset);
    }
    if (Number.isFinite(lowest)) this.partitionsOf(topic)[partition].trimBefore(lowest);
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('InProcessBus is closed');
  }
}

function copyHeaders(headers: Headers | undefined): Headers {
  const copy: Headers = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (typeof value !== 'string') throw new TypeError(`header ${name} must be a string`);
    copy[name] = value;
  }
  return copy;
}
