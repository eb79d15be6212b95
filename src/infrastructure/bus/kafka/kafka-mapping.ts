/**
 * Pure conversions between the bus port and kafkajs's wire types: no broker,
 * no I/O, unit-tested in kafka-bus.spec.ts.
 */
import type { IHeaders, KafkaMessage, Message } from 'kafkajs';
import { logLevel as KafkaLogLevel } from 'kafkajs';
import type { BusMessage, Headers, OutgoingMessage } from '../message-bus.port';

export { assertTopicName } from '../message-bus.port';

/** Copies headers, insisting on string values (the port's Headers type). */
export function encodeHeaders(headers: Headers | undefined): Record<string, string> {
  const copy: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (typeof value !== 'string') throw new TypeError(`header ${name} must be a string`);
    copy[name] = value;
  }
  return copy;
}

/**
 * Headers as kafkajs hands them over (Buffer, string, repeated names as an
 * array, or undefined) become strings; of a repeated name the last value wins
 * (Java's `Headers.lastHeader`).
 */
export function decodeHeaders(headers: IHeaders | undefined): Headers {
  const decoded: Headers = {};
  if (headers === undefined) return decoded;
  for (const name in headers) {
    if (!Object.prototype.hasOwnProperty.call(headers, name)) continue;
    const raw = headers[name];
    const value = Array.isArray(raw) ? raw[raw.length - 1] : raw;
    if (value === undefined || value === null) continue;
    decoded[name] = Buffer.isBuffer(value) ? value.toString('utf8') : String(value);
  }
  return decoded;
}

/**
 * Serialises a whole batch before anything is sent: one value that cannot be
 * serialised sends nothing, and the caller may mutate its objects as soon as
 * publish() returns. `undefined` travels as JSON null, like the in-process bus.
 */
export function encodeMessages(messages: OutgoingMessage[]): Message[] {
  return messages.map((message) => ({
    key: String(message.key),
    value: JSON.stringify(message.value) ?? 'null',
    headers: encodeHeaders(message.headers),
  }));
}

/**
 * Turns the consumed messages of one fetched batch (one partition) into the
 * port's BusMessages. The messages of a record batch share their
 * LogAppendTime: it is formatted once per run of equal timestamps.
 */
export class BatchDecoder {
  private lastTimestamp = '';
  private lastIso = '';

  constructor(
    private readonly topic: string,
    private readonly partition: number,
  ) {}

  decode(message: KafkaMessage): BusMessage {
    return {
      topic: this.topic,
      partition: this.partition,
      offset: Number(message.offset),
      key: message.key === null ? '' : message.key.toString('utf8'),
      value: decodeValue(message.value),
      headers: decodeHeaders(message.headers),
      timestamp: this.isoTimestamp(message.timestamp),
    };
  }

  private isoTimestamp(timestamp: string): string {
    if (timestamp === this.lastTimestamp) return this.lastIso;
    const millis = Number(timestamp);
    if (!(Number.isFinite(millis) && millis >= 0)) return new Date().toISOString();
    this.lastIso = new Date(millis).toISOString();
    this.lastTimestamp = timestamp;
    return this.lastIso;
  }
}

/** A consumed kafkajs message as the port's BusMessage. */
export function decodeMessage(topic: string, partition: number, message: KafkaMessage): BusMessage {
  return new BatchDecoder(topic, partition).decode(message);
}

function decodeValue(value: Buffer | null): unknown {
  if (value === null || value.length === 0) return null;
  const text = value.toString('utf8');
  try {
    return JSON.parse(text);
  } catch {
    return text; // written by something else than this bus: hand over the raw text
  }
}

/** The next offset to read after `offset` (what a consumer group commits). */
export function nextOffset(offset: string): string {
  return (BigInt(offset) + 1n).toString();
}

export type KafkaBusLogLevel = 'nothing' | 'error' | 'warn' | 'info' | 'debug';

export function toKafkaLogLevel(level: KafkaBusLogLevel | undefined): KafkaLogLevel {
  switch (level) {
    case 'error':
      return KafkaLogLevel.ERROR;
    case 'warn':
      return KafkaLogLevel.WARN;
    case 'info':
      return KafkaLogLevel.INFO;
    case 'debug':
      return KafkaLogLevel.DEBUG;
    default:
      return KafkaLogLevel.NOTHING;
  }
}

interface ErrorLike {
  name?: unknown;
  retriable?: unknown;
  cause?: unknown;
  type?: unknown;
}

/**
 * Whether a failed publish may succeed when tried again: kafkajs's network
 * and broker-availability errors (also after its own retries ran out), and
 * protocol errors Kafka marks retriable. A value that cannot be serialised,
 * an invalid topic or a message too large fail at once.
 */
export function isRetriableKafkaError(error: unknown): boolean {
  for (let current = error as ErrorLike | undefined, depth = 0; current && depth < 5; depth++) {
    const name = typeof current.name === 'string' ? current.name : '';
    if (!name.startsWith('KafkaJS')) return false;
    if (RETRIABLE_NAMES.has(name)) return true;
    if (name === 'KafkaJSNumberOfRetriesExceeded' || name === 'KafkaJSNonRetriableError') {
      // a wrapper: decide by what it wraps
      current = current.cause as ErrorLike | undefined;
      continue;
    }
    return current.retriable === true;
  }
  return false;
}

const RETRIABLE_NAMES = new Set([
  'KafkaJSConnectionError',
  'KafkaJSConnectionClosedError',
  'KafkaJSRequestTimeoutError',
  'KafkaJSNoBrokerAvailableError',
  'KafkaJSBrokerNotFound',
  'KafkaJSMetadataNotLoaded',
  'KafkaJSTopicMetadataNotLoaded',
  'KafkaJSLockTimeout',
]);
