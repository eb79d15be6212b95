/**
 * One open SSE connection: decides what to send, and in which order.
 *
 * The rule that shapes it: a connection never sends a position at or below
 * the last one it sent, because a client resumes with the last id it saw
 * (Last-Event-ID); anything sent out of order would be skipped or repeated
 * on a reconnect. Live bus messages do not come in log order across the four
 * topics (a swipe and the match it created are two topics, two partitions),
 * so they are not written as they come. Instead:
 *
 * - the bus message is a doorbell: it is buffered and starts a drain;
 * - a drain waits (bounded) until the inbox projection reached the position
 *   the doorbell announced, then sends the user's inbox messages after the last sent one,
 *   in order, and finally any buffered message the inbox still lacks (a
 *   lagging or stopped inbox must not silence the live path);
 * - the heartbeat starts a drain too, which covers a bus that lost messages;
 * - the first drain is the backfill of a resuming client.
 *
 * Drains run one at a time; a trigger during a drain runs another after it.
 */
import type { StreamMessage } from './sse';
import { formatSseMessage, SSE_HEARTBEAT } from './sse';

export interface StreamSessionPorts {
  /** writes a chunk; resolves false once the connection is gone */
  write(chunk: string): Promise<boolean>;
  /** the user's inbox messages with position > `after`, oldest first, at most `limit` */
  readInbox(after: number, limit: number): Promise<StreamMessage[]>;
  /** resolves once the inbox read model reached `position`, or false after a bounded wait */
  waitForInbox(position: number): Promise<boolean>;
  /** told about a failed inbox read (the drain goes on with what the bus delivered) */
  onError?(error: unknown): void;
}

export const INBOX_PAGE = 200;
/** a buffer that is not drained (a client that reads nothing) is cut here: the inbox still has it all */
const MAX_BUFFERED = 1000;

export class StreamSession {
  private readonly buffer = new Map<number, StreamMessage>();
  private running: Promise<void> | null = null;
  private rerun = false;
  private announced = 0;
  private closed = false;

  constructor(
    private readonly ports: StreamSessionPorts,
    private lastSent: number,
  ) {}

  get lastSentPosition(): number {
    return this.lastSent;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Sends what the inbox holds after the starting position (the backfill of a resume). */
  start(): Promise<void> {
    return this.trigger(0);
  }

  /** A message from the bus for this user. */
  live(message: StreamMessage): void {
    if (this.closed || message.position <= this.lastSent) return;
    if (this.buffer.size < MAX_BUFFERED) this.buffer.set(message.position, message);
    void this.trigger(message.position);
  }

  /** A heartbeat comment, then a poll of the inbox. */
  async heartbeat(): Promise<void> {
    if (this.closed) return;
    if (!(await this.ports.write(SSE_HEARTBEAT))) return this.close();
    await this.trigger(0);
  }

  close(): void {
    this.closed = true;
    this.buffer.clear();
  }

  /** Resolves when the drain that covers this trigger has ended. */
  private trigger(announced: number): Promise<void> {
    this.announced = Math.max(this.announced, announced);
    if (this.running) {
      this.rerun = true;
      return this.running;
    }
    this.running = this.loop().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async loop(): Promise<void> {
    do {
      this.rerun = false;
      const announced = this.announced;
      this.announced = 0;
      await this.drain(announced);
    } while (this.rerun && !this.closed);
  }

  private async drain(announced: number): Promise<void> {
    try {
      if (announced > this.lastSent) await this.ports.waitForInbox(announced);
      for (let page = INBOX_PAGE; page === INBOX_PAGE && !this.closed; ) {
        const messages = await this.ports.readInbox(this.lastSent, INBOX_PAGE);
        page = messages.length;
        for (const message of messages) if (!(await this.send(message))) return;
      }
    } catch (error) {
      this.ports.onError?.(error);
    }
    const rest = [...this.buffer.values()].sort((x, y) => x.position - y.position);
    for (const message of rest) if (!(await this.send(message))) return;
    for (const position of [...this.buffer.keys()]) if (position <= this.lastSent) this.buffer.delete(position);
  }

  /** false once the connection is gone */
  private async send(message: StreamMessage): Promise<boolean> {
    if (this.closed) return false;
    if (message.position <= this.lastSent) return true;
    this.lastSent = message.position;
    if (await this.ports.write(formatSseMessage(message))) return true;
    this.close();
    return false;
  }
}
