/**
 * Recent aggregate states by stream, with the revision they were folded to:
 * a command on a cached stream reads only the events appended since (by
 * another process, or none) instead of folding the whole history. Bounded,
 * least recently used first out. A state is only ever stored after the
 * append that produced it succeeded, so it is never ahead of the store; a
 * stale one is caught up by the read from its revision, and a conflict on
 * append is resolved the same way. Deciders' states are immutable values
 * (evolve returns a new state), so sharing them is safe.
 */
export interface CachedState {
  /** the decider the state belongs to (a stream read by another decider is a miss) */
  owner: object;
  state: unknown;
  revision: number;
  /** global position and type of the stream's last event folded into the state (0 and null: none) */
  position: number;
  type: string | null;
}

export class AggregateCache {
  private readonly entries = new Map<string, CachedState>();
  private hits = 0;
  private misses = 0;

  constructor(private readonly capacity: number) {}

  get(streamId: string, owner: object): CachedState | undefined {
    const entry = this.entries.get(streamId);
    if (!entry || entry.owner !== owner) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    // most recently used last
    this.entries.delete(streamId);
    this.entries.set(streamId, entry);
    return entry;
  }

  /** Whether a state is cached for the stream and decider, without counting or reordering. */
  holds(streamId: string, owner: object): boolean {
    return this.entries.get(streamId)?.owner === owner;
  }

  set(streamId: string, entry: CachedState): void {
    if (this.capacity <= 0) return;
    this.entries.delete(streamId);
    this.entries.set(streamId, entry);
    if (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
  }

  get stats(): { size: number; hits: number; misses: number } {
    return { size: this.entries.size, hits: this.hits, misses: this.misses };
  }
}
