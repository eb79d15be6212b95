/**
 * Section 5: bus messages/s through the Kafka adapter vs a bare kafkajs loop.
 *
 * A single-node Kafka 3.9.1 broker (KRaft) from test/support/services runs
 * as a child JVM. Both topics are created up front with the adapter's
 * settings (same partitions, LogAppendTime), and both sides are warmed up on
 * topics of their own first.
 *
 *   publish: N small JSON values keyed over K keys, in batches of B, with P
 *     concurrent publishers pulling the next batch from a shared queue:
 *     (1) KafkaBus.publish(topic, batch)
 *     (2) yardstick: a bare kafkajs producer configured as the adapter's
 *         (idempotent, maxInFlightRequests 1, acks -1, default partitioner),
 *         producer.send({ topic, messages, acks: -1 }) with JSON.stringify'd
 *         values, same batches and concurrency, on another topic.
 *     Measured in rounds, alternating which side goes first, so broker
 *     warm-up and drift do not favour one side.
 *   consume: the adapter's topic, topped up after the publish measurement to
 *     C messages (default 100,000: a round of 20,000 lasts under 0.1 s, too
 *     short to measure on a shared machine), read back whole in rounds of
 *     alternating order, each round one fresh group (fromBeginning) per side:
 *     (1) KafkaBus.subscribe with a handler that reads the decoded message
 *     (2) yardstick: a bare kafkajs consumer doing what the port requires:
 *         eachMessage awaited per message (a partition's messages one at a
 *         time, in order), the key decoded and the value JSON.parse'd,
 *         offsets committed only after handling (kafkajs's autoCommit: each
 *         handled offset resolved, committed once per fetched batch), with
 *         the adapter's consumer settings (partitionsConsumedConcurrently =
 *         partitions, maxWaitTimeInMs 500, sessionTimeout 30 s).
 *     Both sides consume the warm-up topic once before measuring (kafkajs's
 *     fetch and decode paths get compiled before either is timed). Each
 *     round's rate runs from the first message handed over to the last (the
 *     group join is reported separately); the figure of a side is its
 *     messages over its time, summed over the rounds.
 */
import { randomBytes } from 'node:crypto';
import { Kafka, logLevel, Partitioners, type Producer } from 'kafkajs';
import { KafkaBus } from '../src/infrastructure/bus/kafka/kafka-bus';
import type { OutgoingMessage } from '../src/infrastructure/bus/message-bus.port';
import { describeFailure, isCached, startKafka } from './services';
import { fixed, heading, int, log, now, progress, ratio, secondsSince } from './util';

export interface BusBenchOptions {
  messages: number;
  batchSize: number;
  publishers: number;
  keys: number;
  partitions: number;
  /** rounds the publish measurement is split into (alternating order) */
  rounds: number;
  /** messages published by each side before measuring (on warm-up topics) */
  warmup: number;
  /** cap on each consume phase; a phase that hits it reports what it read */
  consumeSeconds: number;
  /** consume rounds per side (alternating which side goes first) */
  consumeRounds: number;
  /** messages each consume round reads (the publish topic is topped up to this many; at least `messages`) */
  consumeMessages: number;
}

export interface ConsumeRun {
  messages: number;
  duplicates: number;
  joinSeconds: number;
  seconds: number;
  messagesPerSecond: number;
  complete: boolean;
}

/** One side's consume rounds together. */
export interface ConsumeFigures {
  rounds: ConsumeRun[];
  /** messages over seconds, summed over the rounds (each round: first → last message) */
  messagesPerSecond: number;
  /** every round read all N messages */
  complete: boolean;
}

export type BusBenchResult =
  | { skipped: string }
  | {
      skipped: null;
      serverStartSeconds: number;
      busPublish: { seconds: number; messagesPerSecond: number };
      barePublish: { seconds: number; messagesPerSecond: number };
      busConsume: ConsumeFigures;
      bareConsume: ConsumeFigures | null;
      /** KafkaBus / bare per round (same round, back to back): the spread */
      roundRatios: number[];
      /** messages each consume round read */
      consumeMessages: number;
    };

export const BARE_PRODUCER_NOTE =
  'bare producer configured as KafkaBus: idempotent true, maxInFlightRequests 1, acks -1, default (murmur2) partitioner';

export const BARE_CONSUMER_NOTE =
  'bare consumer: kafkajs eachMessage awaited, key decoded + JSON.parse, autoCommit (offsets resolved after each handled ' +
  'message, committed per fetched batch), same consumer settings as KafkaBus (partitionsConsumedConcurrently = partitions)';

function consumeFigures(rounds: ConsumeRun[]): ConsumeFigures {
  const seconds = rounds.reduce((sum, run) => sum + run.seconds, 0);
  const messages = rounds.reduce((sum, run) => sum + Math.max(0, run.messages - 1), 0);
  return { rounds, messagesPerSecond: seconds > 0 ? messages / seconds : 0, complete: rounds.every((run) => run.complete) };
}

/** Small JSON values, keyed round-robin over `keys` keys. */
function makeMessages(count: number, keys: number, offset = 0): OutgoingMessage[] {
  const at = new Date().toISOString();
  return Array.from({ length: count }, (_, i) => ({
    key: `agent-${((offset + i) % keys).toString().padStart(3, '0')}`,
    value: { type: 'AgentHeartbeat', seq: offset + i, at, data: { load: (offset + i) % 97, status: 'ok' } },
  }));
}

function chunk<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** `publishers` loops, each taking the next batch from a shared queue until none is left. */
async function publishConcurrently(
  batches: OutgoingMessage[][],
  publishers: number,
  send: (batch: OutgoingMessage[]) => Promise<void>,
  onProgress: (sent: number) => void = () => undefined,
): Promise<number> {
  let next = 0;
  let sent = 0;
  const start = now();
  await Promise.all(
    Array.from({ length: Math.min(publishers, batches.length) }, async () => {
      while (next < batches.length) {
        const batch = batches[next++];
        await send(batch);
        sent += batch.length;
        onProgress(sent);
      }
    }),
  );
  return secondsSince(start);
}

/** Runs both sides one after the other, the first one first in even rounds, the second one in odd rounds. */
async function inAlternatingOrder(round: number, first: () => Promise<void>, second: () => Promise<void>): Promise<void> {
  if (round % 2 === 0) {
    await first();
    await second();
  } else {
    await second();
    await first();
  }
}

/** Counts distinct `seq` values until all `expected` arrived (or the cap); times first → last message. */
class ConsumeTracker {
  private readonly seen: Uint8Array;
  private unique = 0;
  duplicates = 0;
  private firstAt: bigint | null = null;
  private lastAt: bigint | null = null;
  private readonly startAt = now();
  private resolveDone: () => void = () => undefined;
  readonly done: Promise<void>;

  constructor(
    private readonly expected: number,
    private readonly bar: { update(value: number): void },
  ) {
    this.seen = new Uint8Array(expected);
    this.done = new Promise((resolve) => (this.resolveDone = resolve));
    if (expected === 0) this.resolveDone();
  }

  record(value: unknown): void {
    const at = now();
    this.firstAt ??= at;
    const seq = (value as { seq?: unknown } | null)?.seq;
    if (typeof seq !== 'number' || seq < 0 || seq >= this.expected) return;
    if (this.seen[seq]) {
      this.duplicates++;
      return;
    }
    this.seen[seq] = 1;
    this.unique++;
    this.lastAt = at;
    if (this.unique % 500 === 0) this.bar.update(this.unique);
    if (this.unique === this.expected) this.resolveDone();
  }

  /** Waits for all messages or `capSeconds` after the first one (or after the start when none came). */
  async wait(capSeconds: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const capped = new Promise<void>((resolve) => {
      const check = () => {
        const from = this.firstAt ?? this.startAt;
        const left = capSeconds * 1000 - Number(now() - from) / 1e6;
        if (left <= 0) resolve();
        else timer = setTimeout(check, Math.min(left, 250));
      };
      check();
    });
    await Promise.race([this.done, capped]);
    clearTimeout(timer);
  }

  result(): ConsumeRun {
    const seconds = this.firstAt !== null && this.lastAt !== null ? Number(this.lastAt - this.firstAt) / 1e9 : 0;
    return {
      messages: this.unique,
      duplicates: this.duplicates,
      joinSeconds: this.firstAt !== null ? Number(this.firstAt - this.startAt) / 1e9 : NaN,
      seconds,
      // first → last: the first message's own handling is not inside the interval
      messagesPerSecond: seconds > 0 ? (this.unique - 1) / seconds : 0,
      complete: this.unique === this.expected,
    };
  }
}

function describeConsume(run: ConsumeRun, expected: number): string {
  const read = run.complete ? `${int(run.messages)} messages` : `only ${int(run.messages)} of ${int(expected)} messages (cap reached)`;
  return (
    `${read} in ${fixed(run.seconds, 2)} s = ${int(run.messagesPerSecond)} msgs/s` +
    ` (group join + first fetch ${fixed(run.joinSeconds, 2)} s` +
    (run.duplicates ? `, ${int(run.duplicates)} redelivered` : '') +
    ')'
  );
}

export async function runBusBench(options: BusBenchOptions): Promise<BusBenchResult> {
  heading('5. Message bus: KafkaBus vs bare kafkajs (single-node Kafka 3.9.1)');
  const N = options.messages;
  log(
    `  ${int(N)} messages (~${Buffer.byteLength(JSON.stringify(makeMessages(1, options.keys)[0].value))} B JSON values) keyed over ` +
      `${int(options.keys)} keys, batches of ${int(options.batchSize)}, ${int(options.publishers)} concurrent publishers, ` +
      `${int(options.partitions)} partitions per topic`,
  );
  log(`  ${BARE_PRODUCER_NOTE}`);

  if (!isCached('kafka-3.9.1')) log('  (kafka jars not cached yet: fetching them with Maven first)');
  const startAt = now();
  let server: Awaited<ReturnType<typeof startKafka>>;
  try {
    server = await startKafka();
  } catch (error) {
    const { reason, detail } = describeFailure(error);
    log(`  skipped: the Kafka broker did not start: ${reason}`);
    for (const line of detail.slice(-10)) log(`    | ${line}`);
    return { skipped: `Kafka broker did not start: ${reason}` };
  }
  const serverStartSeconds = secondsSince(startAt);
  log(`  broker at ${server.brokers}, started in ${fixed(serverStartSeconds, 1)} s`);

  const id = randomBytes(3).toString('hex');
  const topics = {
    bus: `bench-bus-${id}`,
    bare: `bench-bare-${id}`,
    busWarmup: `bench-warmup-bus-${id}`,
    bareWarmup: `bench-warmup-bare-${id}`,
  };
  const kafka = new Kafka({ clientId: 'bench-bare', brokers: [server.brokers], logLevel: logLevel.NOTHING });
  const admin = kafka.admin();
  let producer: Producer | null = null;
  const bus = new KafkaBus({ brokers: [server.brokers], clientId: 'bench-bus', partitions: options.partitions });
  try {
    await admin.connect();
    await admin.createTopics({
      topics: Object.values(topics).map((topic) => ({
        topic,
        numPartitions: options.partitions,
        replicationFactor: 1,
        configEntries: [{ name: 'message.timestamp.type', value: 'LogAppendTime' }],
      })),
      waitForLeaders: true,
      timeout: 15_000,
    });

    producer = kafka.producer({
      idempotent: true,
      maxInFlightRequests: 1,
      allowAutoTopicCreation: false,
      createPartitioner: Partitioners.DefaultPartitioner,
    });
    await producer.connect();
    const bareProducer = producer;
    const sendBare = (topic: string) => async (batch: OutgoingMessage[]) => {
      await bareProducer.send({
        topic,
        acks: -1,
        messages: batch.map((m) => ({ key: m.key, value: JSON.stringify(m.value) })),
      });
    };
    const sendBus = (topic: string) => (batch: OutgoingMessage[]) => bus.publish(topic, batch);

    // warm-up: connections, metadata, the broker's JIT, this process's JIT
    const warmup = chunk(makeMessages(options.warmup, options.keys), options.batchSize);
    const warmStart = now();
    await publishConcurrently(warmup, options.publishers, sendBus(topics.busWarmup));
    await publishConcurrently(warmup, options.publishers, sendBare(topics.bareWarmup));
    log(`  warm-up: ${int(options.warmup)} messages through each side in ${fixed(secondsSince(warmStart), 2)} s`);

    // publish, in rounds of alternating order
    const messages = makeMessages(N, options.keys);
    const rounds = Math.max(1, Math.min(Math.floor(options.rounds), Math.ceil(N / options.batchSize)));
    const perRound = Math.ceil(N / rounds);
    let busSeconds = 0;
    let bareSeconds = 0;
    const bar = progress('publish (both sides)', 2 * N, 'msgs');
    let done = 0;
    for (let round = 0; round < rounds; round++) {
      const batches = chunk(messages.slice(round * perRound, (round + 1) * perRound), options.batchSize);
      const count = batches.reduce((n, b) => n + b.length, 0);
      const runBus = async () => {
        busSeconds += await publishConcurrently(batches, options.publishers, sendBus(topics.bus), (n) => bar.update(done + n));
        done += count;
      };
      const runBare = async () => {
        bareSeconds += await publishConcurrently(batches, options.publishers, sendBare(topics.bare), (n) => bar.update(done + n));
        done += count;
      };
      await inAlternatingOrder(round, runBus, runBare);
    }
    bar.stop();
    const busPublish = { seconds: busSeconds, messagesPerSecond: N / busSeconds };
    const barePublish = { seconds: bareSeconds, messagesPerSecond: N / bareSeconds };
    log(`  (1) KafkaBus.publish: ${int(N)} messages in ${fixed(busSeconds, 2)} s = ${int(busPublish.messagesPerSecond)} msgs/s`);
    log(
      `  (2) bare kafkajs producer.send: ${int(N)} messages in ${fixed(bareSeconds, 2)} s = ` +
        `${int(barePublish.messagesPerSecond)} msgs/s (${rounds} rounds, alternating order)`,
    );
    log(`  ratio KafkaBus publish / bare: ${ratio(busPublish.messagesPerSecond, barePublish.messagesPerSecond)}`);

    // consume: the adapter's topic, topped up to C messages, read back whole by each side in alternating rounds
    const C = Math.max(N, Math.floor(options.consumeMessages));
    if (C > N) {
      const topUp = now();
      await publishConcurrently(chunk(makeMessages(C - N, options.keys, N), 1000), options.publishers, sendBare(topics.bus));
      log(`  consume topic topped up to ${int(C)} messages (bare producer, untimed) in ${fixed(secondsSince(topUp), 2)} s`);
    }
    const consumerSettings = { maxWaitTimeInMs: 500, sessionTimeout: 30_000, partitionsConsumedConcurrently: options.partitions };
    const consumeBus = async (topic: string, expected: number, label: string): Promise<ConsumeRun> => {
      const bar = progress(label, expected, 'msgs');
      const tracker = new ConsumeTracker(expected, bar);
      const subscription = await bus.subscribe(
        { groupId: `bench-group-${randomBytes(4).toString('hex')}`, topics: [topic], fromBeginning: true },
        async (message) => {
          tracker.record(message.value);
        },
      );
      try {
        await tracker.wait(options.consumeSeconds);
      } finally {
        bar.stop();
        await subscription.stop();
      }
      return tracker.result();
    };
    const consumeBare = async (topic: string, expected: number, label: string): Promise<ConsumeRun> => {
      const bar = progress(label, expected, 'msgs');
      const tracker = new ConsumeTracker(expected, bar);
      const consumer = kafka.consumer({
        groupId: `bench-bare-group-${randomBytes(4).toString('hex')}`,
        maxWaitTimeInMs: consumerSettings.maxWaitTimeInMs,
        sessionTimeout: consumerSettings.sessionTimeout,
      });
      try {
        await consumer.connect();
        await consumer.subscribe({ topics: [topic], fromBeginning: true });
        await consumer.run({
          partitionsConsumedConcurrently: consumerSettings.partitionsConsumedConcurrently,
          eachMessage: async ({ message }) => {
            const decoded = {
              key: message.key === null ? '' : message.key.toString('utf8'),
              value: message.value ? JSON.parse(message.value.toString('utf8')) : null,
            };
            tracker.record(decoded.value);
          },
        });
        await tracker.wait(options.consumeSeconds);
      } finally {
        bar.stop();
        await consumer.disconnect().catch(() => undefined);
      }
      return tracker.result();
    };

    // warm-up: both sides read the adapter's warm-up topic once
    const warmConsume = now();
    await consumeBus(topics.busWarmup, options.warmup, 'warm-up KafkaBus consume');
    let bareFailure: string | null = null;
    try {
      await consumeBare(topics.busWarmup, options.warmup, 'warm-up bare consume');
    } catch (error) {
      bareFailure = describeFailure(error).reason;
    }
    log(`  consume warm-up: ${int(options.warmup)} messages read by each side in ${fixed(secondsSince(warmConsume), 2)} s`);

    const consumeRounds = Math.max(1, Math.floor(options.consumeRounds));
    const busRuns: ConsumeRun[] = [];
    const bareRuns: ConsumeRun[] = [];
    const roundRatios: number[] = [];
    for (let round = 0; round < consumeRounds; round++) {
      const runBus = async () => {
        const run = await consumeBus(topics.bus, C, `KafkaBus consume, round ${round + 1}`);
        busRuns.push(run);
        log(`  round ${round + 1} KafkaBus: ${describeConsume(run, C)}`);
      };
      const runBare = async () => {
        if (bareFailure) return;
        try {
          const run = await consumeBare(topics.bus, C, `bare kafkajs consume, round ${round + 1}`);
          bareRuns.push(run);
          log(`  round ${round + 1} bare:     ${describeConsume(run, C)}`);
        } catch (error) {
          bareFailure = describeFailure(error).reason;
        }
      };
      await inAlternatingOrder(round, runBus, runBare);
      const bareRun = bareRuns[round];
      if (bareRun && bareRun.messagesPerSecond > 0) roundRatios.push(busRuns[round].messagesPerSecond / bareRun.messagesPerSecond);
    }
    const busConsume = consumeFigures(busRuns);
    const bareConsume = bareFailure ? null : consumeFigures(bareRuns);
    log(`  ${BARE_CONSUMER_NOTE}`);
    log(
      `  (1) KafkaBus consume (handler awaited per message, offsets committed after handling): ` +
        `${int(busConsume.messagesPerSecond)} msgs/s over ${consumeRounds} rounds of ${int(C)}` +
        (busConsume.complete ? '' : ' [capped]'),
    );
    if (bareConsume) {
      log(
        `  (2) bare kafkajs consumer: ${int(bareConsume.messagesPerSecond)} msgs/s over ${consumeRounds} rounds of ${int(C)}` +
          (bareConsume.complete ? '' : ' [capped]'),
      );
      log(
        `  ratio KafkaBus consume / bare: ${ratio(busConsume.messagesPerSecond, bareConsume.messagesPerSecond)}` +
          ` (per round ${roundRatios.map((r) => fixed(r, 2)).join(', ')}; alternating order)`,
      );
    } else {
      log(`  (2) bare kafkajs consumer failed: ${bareFailure}`);
    }

    return { skipped: null, serverStartSeconds, busPublish, barePublish, busConsume, bareConsume, roundRatios, consumeMessages: C };
  } finally {
    await bus.close().catch(() => undefined);
    await producer?.disconnect().catch(() => undefined);
    await admin.disconnect().catch(() => undefined);
    await server.stop();
  }
}
