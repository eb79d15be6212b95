/**
 * The ProjectionWriter of one page of events, shared by every projection the
 * page reaches: writes are queued (tagged with the projection that made
 * them, so a failing projection's writes can be dropped) and stored with the
 * checkpoints in one ReadStore.commit. Reading a collection through `reads`
 * first commits what is queued when some of it is for that collection, so a
 * projection always reads its own writes (and a read of another collection
 * costs no commit).
 */
import type { BulkOperation, Collection, Doc, QueuedWrite, ReadStore } from '../read-store/read-store.port';
import type { ProjectionWriter, WriteOptions } from './projection';

const READS = new Set<string | symbol>(['findOne', 'find', 'countDocuments']);

export class PageWriter implements ProjectionWriter {
  /** the projection whose handler is running (set by the engine) */
  owner = '';
  private queue: QueuedWrite[] = [];
  private owners: string[] = [];
  /** collections with queued writes */
  private readonly dirty = new Set<string>();
  readonly reads: ReadStore;

  constructor(private readonly store: ReadStore) {
    this.reads = this.committingReads();
  }

  write(collection: string, operation: BulkOperation, options: WriteOptions = {}): void {
    this.queue.push({ collection, operation, duplicateIdMeansApplied: options.duplicateIdMeansApplied });
    this.owners.push(this.owner);
    this.dirty.add(collection);
  }

  get pending(): number {
    return this.queue.length;
  }

  /** Drops what this projection queued in the page (it failed; it will be retried from its checkpoint). */
  discard(owner: string): void {
    const keep = this.owners.map((o) => o !== owner);
    this.queue = this.queue.filter((_, i) => keep[i]);
    this.owners = this.owners.filter((_, i) => keep[i]);
  }

  /** Stores the queued writes, then the checkpoints, in one round. */
  async commit(checkpoints: ReadonlyMap<string, number> = new Map()): Promise<void> {
    const writes = this.queue;
    this.queue = [];
    this.owners = [];
    this.dirty.clear();
    if (writes.length === 0 && checkpoints.size === 0) return;
    await this.store.commit(writes, checkpoints);
  }

  /** A view of the store whose reads first commit the queued writes; everything else passes through. */
  private committingReads(): ReadStore {
    const commitFirst = async <T>(name: string, read: () => Promise<T>): Promise<T> => {
      if (this.dirty.has(name)) await this.commit();
      return read();
    };
    const collection = <T extends Doc>(name: string): Collection<T> =>
      new Proxy(this.store.collection<T>(name), {
        get(target, property) {
          const value = Reflect.get(target, property, target) as unknown;
          if (typeof value !== 'function') return value;
          const method = value.bind(target) as (...args: unknown[]) => Promise<unknown>;
          return READS.has(property) ? (...args: unknown[]) => commitFirst(name, () => method(...args)) : method;
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
