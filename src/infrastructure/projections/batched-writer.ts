/**
 * The ProjectionWriter of one batch: queues operations and applies them in
 * rounds of unordered bulkWrites (see ProjectionWriter). Operations whose
 * `_id` cannot be read from their filter go into a round of their own, in order.
 */
import type { ProjectionWriter, WriteOptions } from './projection';
import {
  type BulkOperation,
  BulkWriteError,
  type Collection,
  type Doc,
  DuplicateKeyError,
  type Filter,
  type ReadStore,
} from '../read-store/read-store.port';

interface Queued {
  collection: string;
  operation: BulkOperation;
  options: WriteOptions;
}

/** The document an operation touches, when its filter names one `_id`. */
function targetId(operation: BulkOperation): string | null {
  const filter: Filter | undefined =
    'updateOne' in operation
      ? operation.updateOne.filter
      : 'replaceOne' in operation
        ? operation.replaceOne.filter
        : 'deleteOne' in operation
          ? operation.deleteOne.filter
          : 'insertOne' in operation
            ? { _id: operation.insertOne.document._id }
            : undefined;
  const id = filter?._id;
  return typeof id === 'string' ? id : null;
}

function isUpsert(operation: BulkOperation): boolean {
  return 'updateOne' in operation && operation.updateOne.upsert === true;
}

export class BatchedProjectionWriter implements ProjectionWriter {
  private queue: Queued[] = [];
  readonly reads: ReadStore;

  constructor(private readonly store: ReadStore) {
    this.reads = this.flushingReads();
  }

  write(collection: string, operation: BulkOperation, options: WriteOptions = {}): void {
    this.queue.push({ collection, operation, options });
  }

  get pending(): number {
    return this.queue.length;
  }

  /** Applies everything queued; per document in queue order. */
  async flush(): Promise<void> {
    const queued = this.queue;
    this.queue = [];
    for (const round of rounds(queued)) {
      const byCollection = new Map<string, Queued[]>();
      for (const item of round) byCollection.set(item.collection, [...(byCollection.get(item.collection) ?? []), item]);
      await Promise.all([...byCollection].map(([name, items]) => this.apply(this.store.collection(name), items)));
    }
  }

  private async apply(collection: Collection<Doc>, items: Queued[]): Promise<void> {
    try {
      await collection.bulkWrite(
        items.map((i) => i.operation),
        { ordered: false },
      );
    } catch (error) {
      if (!(error instanceof BulkWriteError)) throw error;
      const real = error.writeErrors.filter(({ index, error: cause }) => {
        const item = items[index];
        const applied =
          item.options.duplicateIdMeansApplied && isUpsert(item.operation) && cause instanceof DuplicateKeyError && '_id' in cause.key;
        return !applied;
      });
      if (real.length > 0) throw real[0].error;
    }
  }

  /** A view of the store whose reads first apply the queued writes; everything else passes through. */
  private flushingReads(): ReadStore {
    const flushFirst = async <T>(read: () => Promise<T>): Promise<T> => {
      if (this.queue.length > 0) await this.flush();
      return read();
    };
    const reading = new Set<string | symbol>(['findOne', 'find', 'countDocuments']);
    const collection = <T extends Doc>(name: string): Collection<T> =>
      new Proxy(this.store.collection<T>(name), {
        get(target, property) {
          const value = Reflect.get(target, property, target) as unknown;
          if (typeof value !== 'function') return value;
          const method = value.bind(target) as (...args: unknown[]) => Promise<unknown>;
          return reading.has(property) ? (...args: unknown[]) => flushFirst(() => method(...args)) : method;
        },
      });
    return new Proxy(this.store, {
      get(target, property) {
        if (property === 'collection') return collection;
        const value = Reflect.get(target, property, target) as unknown;
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  }
}

/**
 * Splits the queue into rounds in which each document appears at most once;
 * an operation without a single target id ends the round it would join and
 * runs alone, so it keeps its place relative to everything else.
 */
function rounds(queued: Queued[]): Queued[][] {
  const result: Queued[][] = [];
  let round: Queued[] = [];
  let seen = new Set<string>();
  const close = () => {
    if (round.length) result.push(round);
    round = [];
    seen = new Set();
  };
  for (const item of queued) {
    const id = targetId(item.operation);
    const key = id === null ? null : `${item.collection}\u0000${id}`;
    if (key === null) {
      close();
      result.push([item]);
      continue;
    }
    if (seen.has(key)) close();
    round.push(item);
    seen.add(key);
  }
  close();
  return result;
}
