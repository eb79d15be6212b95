import { BusMessage } from '../message-bus.port';
import { GroupMember } from './group-member';
import { PartitionLog, StoredMessage } from './partition-log';

/** What a group needs from the bus: the logs, and a word when an offset moves. */
export interface GroupContext {
  partitionsOf(topic: string): PartitionLog[];
  committed(topic: string, partition: number, offset: number): void;
  retryDelayMs: number;
}

function toBusMessage(topic: string, partition: number, stored: StoredMessage): BusMessage {
  return {
    topic,
    partition,
    offset: stored.offset,
    key: stored.key,
    // parsed per delivery: no two consumers ever share an object
    value: JSON.parse(stored.value),
    headers: { ...stored.headers },
    timestamp: stored.timestamp,
  };
}

/**
 * A consumer group: committed offsets per partition, the members, and one
 * worker per partition that delivers the partition's messages one at a time
 * to whichever member currently owns it. Because the worker belongs to the
 * group, not to a member, a partition moving between members (a rebalance)
 * never lets two handlers run for it at once, and order per key holds.
 */
export class ConsumerGroup {
  private readonly offsets = new Map<string, number>();
  private members: GroupMember[] = [];
  private readonly workers = new Map<string, PartitionWorker>();

  constructor(
    readonly id: string,
    private readonly context: GroupContext,
  ) {}

  /** undefined when this group never subscribed to the partition */
  committedOffset(topic: string, partition: number): number | undefined {
    return this.offsets.get(partitionKey(topic, partition));
  }

  /** Messages past the committed offsets, per topic, while the group has members (for /metrics). */
  lagByTopic(): Map<string, number> {
    const lag = new Map<string, number>();
    if (this.members.length === 0) return lag;
    for (const [key, offset] of this.offsets) {
      const [topic, partition] = key.split('\u0000');
      const log = this.context.partitionsOf(topic)[Number(partition)];
      lag.set(topic, (lag.get(topic) ?? 0) + Math.max(0, log.endOffset - Math.max(offset, log.startOffset)));
    }
    return lag;
  }

  join(member: GroupMember, fromBeginning: boolean): void {
    for (const topic of member.topics) {
      this.context.partitionsOf(topic).forEach((log, partition) => {
        // only a partition without a committed offset starts at either end
        const key = partitionKey(topic, partition);
        if (!this.offsets.has(key)) this.offsets.set(key, fromBeginning ? log.startOffset : log.endOffset);
      });
    }
    this.members.push(member);
    this.rebalance();
  }

  async leave(member: GroupMember): Promise<void> {
    this.members = this.members.filter((m) => m !== member);
    this.rebalance();
    await member.leave();
  }

  /** Resolves when every worker loop has ended (after all members left). */
  async stopped(): Promise<void> {
    await Promise.all([...this.workers.values()].map((worker) => worker.done));
  }

  /** Partitions are dealt round-robin over the members, in joining order. */
  ownerOf(topic: string, partition: number): GroupMember | null {
    const candidates = this.members.filter((m) => m.topics.has(topic));
    return candidates.length === 0 ? null : candidates[partition % candidates.length];
  }

  commit(topic: string, partition: number, offset: number): void {
    this.offsets.set(partitionKey(topic, partition), offset);
    this.context.committed(topic, partition, offset);
  }

  get retryDelayMs(): number {
    return this.context.retryDelayMs;
  }

  /** Starts a worker for every partition someone subscribes to, stops the rest. */
  private rebalance(): void {
    const wanted = new Set(this.members.flatMap((m) => [...m.topics]));
    for (const topic of wanted) {
      this.context.partitionsOf(topic).forEach((log, partition) => {
        const key = partitionKey(topic, partition);
        const running = this.workers.get(key);
        if (running && !running.isStopped) {
          running.wakeUp(); // its owner may have changed
        } else {
          // a stopped predecessor may still be finishing a delivery: start after it, never beside it
          this.workers.set(key, new PartitionWorker(this, topic, partition, log, running?.done));
        }
      });
    }
    for (const [key, worker] of this.workers) {
      if (!wanted.has(worker.topic) && !worker.isStopped) {
        worker.stop();
        // keep the stopped worker until its loop ended, so stopped() can wait for it
        void worker.done.then(() => this.workers.get(key) === worker && this.workers.delete(key));
      }
    }
  }
}

function partitionKey(topic: string, partition: number): string {
  return `${topic}\u0000${partition}`;
}

/** Delivers one partition's messages in order, retrying a failed one until it succeeds. */
class PartitionWorker {
  readonly done: Promise<void>;
  private stopRequested = false;
  private wake: (() => void) | null = null;

  constructor(
    private readonly group: ConsumerGroup,
    readonly topic: string,
    private readonly partition: number,
    private readonly log: PartitionLog,
    predecessor: Promise<void> | undefined,
  ) {
    this.done = (predecessor ?? Promise.resolve()).then(() => this.run());
  }

  get isStopped(): boolean {
    return this.stopRequested;
  }

  stop(): void {
    this.stopRequested = true;
    this.wakeUp();
  }

  /** Ends a pause early, so the loop looks at the log and the owner again. */
  wakeUp(): void {
    this.wake?.();
  }

  private async run(): Promise<void> {
    while (!this.stopRequested) {
      // retention may have dropped messages this group never saw: continue at the oldest kept
      const offset = Math.max(this.group.committedOffset(this.topic, this.partition) ?? 0, this.log.startOffset);
      const stored = this.log.at(offset);
      if (!stored) {
        await this.pause(null);
        continue;
      }
      const owner = this.group.ownerOf(this.topic, this.partition);
      if (!owner) {
        await this.pause(null); // nobody owns it right now; a rebalance wakes us
        continue;
      }
      const outcome = await owner.deliver(toBusMessage(this.topic, this.partition, stored));
      // at-least-once: the offset moves only once a handler resolved
      if (outcome === 'handled') this.group.commit(this.topic, this.partition, offset + 1);
      else if (outcome === 'failed') await this.pause(this.group.retryDelayMs);
    }
  }

  /** Waits for an append (null) or a delay; stop() always cuts it short. */
  private pause(delayMs: number | null): Promise<void> {
    return new Promise((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      let unsubscribe = (): void => {};
      const finish = (): void => {
        clearTimeout(timer);
        unsubscribe();
        this.wake = null;
        resolve();
      };
      this.wake = finish;
      if (delayMs === null) unsubscribe = this.log.onAppend(finish);
      else timer = setTimeout(finish, delayMs);
    });
  }
}
