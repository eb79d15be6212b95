/**
 * The message bus port: what crosses a process or a node. Every adapter
 * (in-process, Kafka) passes test/contract/message-bus.contract.ts unchanged.
 *
 * Semantics (Kafka's): a topic is split into partitions by key; a consumer
 * group receives each message at least once; messages with the same key are
 * handled in publish order, one at a time; the offset is committed only after
 * the handler resolved, so a handler that throws sees the message again.
 * A publish that rejects may still have been delivered (at-least-once).
 */

export type Headers = Record<string, string>;

export interface OutgoingMessage {
  /** messages with the same key keep their order */
  key: string;
  /** JSON-serialisable payload */
  value: unknown;
  headers?: Headers;
}

export interface BusMessage {
  topic: string;
  partition: number;
  offset: number;
  key: string;
  value: unknown;
  headers: Headers;
  /** ISO 8601 time the bus accepted the message */
  timestamp: string;
}

export type MessageHandler = (message: BusMessage) => Promise<void>;

export interface SubscribeOptions {
  /** consumers with the same group share the partitions; each group gets every message */
  groupId: string;
  topics: string[];
  /** a group with no committed offset starts at the beginning (true) or at the end (false, default) */
  fromBeginning?: boolean;
}

export interface BusSubscription {
  stop(): Promise<void>;
}

/** How far this process's consumers of a group are behind a topic (for /metrics). */
export interface ConsumerLag {
  groupId: string;
  topic: string;
  /** messages published to the partitions this process consumes and not yet handled */
  lag: number;
}

export interface MessageBus {
  publish(topic: string, messages: OutgoingMessage[]): Promise<void>;
  subscribe(options: SubscribeOptions, handler: MessageHandler): Promise<BusSubscription>;
  close(): Promise<void>;
  /** the lag of this process's subscriptions, summed over partitions (cheap: no broker round trip) */
  consumerLag?(): ConsumerLag[];
}

export const MESSAGE_BUS = Symbol('MESSAGE_BUS');

/** Kafka's rule for topic names, enforced by every adapter: 1 to 249 of `[a-zA-Z0-9._-]`, not `.` or `..`. */
const TOPIC_NAME = /^[a-zA-Z0-9._-]{1,249}$/;

export function assertTopicName(topic: string): void {
  if (typeof topic !== 'string' || !TOPIC_NAME.test(topic) || topic === '.' || topic === '..') {
    throw new TypeError(`invalid topic name ${JSON.stringify(topic)}: use 1 to 249 letters, digits, '.', '_' or '-'`);
  }
}
