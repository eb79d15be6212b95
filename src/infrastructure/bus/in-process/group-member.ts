import { BusMessage, MessageHandler } from '../message-bus.port';

export type DeliveryOutcome = 'handled' | 'failed' | 'gone';

/**
 * One subscription inside a consumer group. It tracks the handler calls in
 * flight so that leaving the group can wait for them, as a Kafka consumer
 * finishes its batch before giving its partitions up.
 */
export class GroupMember {
  private active = true;
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(
    readonly topics: ReadonlySet<string>,
    private readonly handler: MessageHandler,
    private readonly onHandlerError: (error: unknown, message: BusMessage) => void,
  ) {}

  get isActive(): boolean {
    return this.active;
  }

  /** 'gone' when the member left before the call: the message goes to another member. */
  async deliver(message: BusMessage): Promise<DeliveryOutcome> {
    if (!this.active) return 'gone';
    // Promise.resolve().then: a handler that throws synchronously counts as a failure too
    const call = Promise.resolve().then(() => this.handler(message));
    this.inFlight.add(call);
    try {
      await call;
      return 'handled';
    } catch (error) {
      this.onHandlerError(error, message);
      return 'failed';
    } finally {
      this.inFlight.delete(call);
    }
  }

  /** Stops taking messages and resolves once the handlers in flight have settled. */
  async leave(): Promise<void> {
    this.active = false;
    await Promise.allSettled([...this.inFlight]);
  }
}
