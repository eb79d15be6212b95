import { Headers } from '../message-bus.port';

/** A message as it sits in the log: the value already serialised, like on a wire. */
export interface StoredMessage {
  offset: number;
  key: string;
  value: string;
  headers: Headers;
  timestamp: string;
}

/** Trimming splices the array, so do it in chunks rather than on every commit. */
const TRIM_CHUNK = 256;

/**
 * One partition of a topic: an append-only sequence of messages with
 * consecutive offsets from 0. The head is trimmed once every group has
 * consumed it (or when `retention` is exceeded), so offsets below
 * `startOffset` are gone.
 */
export class PartitionLog {
  private messages: StoredMessage[] = [];
  private start = 0;
  private readonly appendListeners = new Set<() => void>();

  constructor(private readonly retention: number) {}

  get startOffset(): number {
    return this.start;
  }

  get endOffset(): number {
    return this.start + this.messages.length;
  }

  /** Messages held in memory (for tests and diagnostics). */
  get size(): number {
    return this.messages.length;
  }

  append(message: Omit<StoredMessage, 'offset'>): void {
    this.messages.push({ ...message, offset: this.endOffset });
    if (this.messages.length > this.retention) this.drop(this.messages.length - this.retention);
    for (const listener of [...this.appendListeners]) listener();
  }

  at(offset: number): StoredMessage | undefined {
    return offset < this.start ? undefined : this.messages[offset - this.start];
  }

  /** Drops what every group has consumed: everything below `offset`. */
  trimBefore(offset: number): void {
    const consumed = Math.min(offset, this.endOffset) - this.start;
    if (consumed <= 0) return;
    if (consumed === this.messages.length) {
      this.start += consumed;
      this.messages = [];
    } else if (consumed >= TRIM_CHUNK) {
      this.drop(consumed);
    }
  }

  /** Calls `listener` on every append until the returned function is called. */
  onAppend(listener: () => void): () => void {
    this.appendListeners.add(listener);
    return () => this.appendListeners.delete(listener);
  }

  private drop(count: number): void {
    this.messages.splice(0, count);
    this.start += count;
  }
}
