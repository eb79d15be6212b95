/**
 * A node's consumer of a bus topic that must never hold up the node: it
 * subscribes in the background, retrying while the bus is unreachable, and
 * its stop is begun, not awaited, when its module is destroyed.
 *
 * Why not await the stop: every Kafka consumer takes a moment to leave its
 * group (its long poll must return first), and Nest destroys modules one
 * after another, so awaiting each would add the times up and push a node's
 * shutdown past its limit. Begun together, the stops overlap; the bus's
 * close(), which PlatformLifecycle awaits after the modules, stops every
 * subscription (also one still joining) and is what the shutdown waits for.
 * Nothing of a listener runs after the bus has closed.
 */
import type { Logger } from '@nestjs/common';
import type { BusSubscription, MessageBus, MessageHandler, SubscribeOptions } from './message-bus.port';

export class BusListener {
  private subscription: BusSubscription | null = null;
  private listening: Promise<void> | null = null;
  private stopping: Promise<void> | null = null;
  private stopped = false;

  constructor(
    private readonly bus: MessageBus,
    private readonly options: SubscribeOptions,
    private readonly handler: MessageHandler,
    private readonly logger: Logger,
    private readonly retryDelayMs = 2000,
  ) {}

  /** true once the subscription joined (messages flow). */
  get joined(): boolean {
    return this.subscription !== null;
  }

  /** Subscribes in the background; returns at once. */
  start(): void {
    if (!this.stopped) this.listening ??= this.listen();
  }

  /** Stops consuming; resolves once the subscription, also one still joining, has stopped. Idempotent. */
  stop(): Promise<void> {
    this.stopped = true;
    this.stopping ??= (async () => {
      await this.listening;
      await this.subscription?.stop().catch(() => undefined);
    })();
    return this.stopping;
  }

  private async listen(): Promise<void> {
    while (!this.stopped) {
      try {
        const subscription = await this.bus.subscribe(this.options, this.handler);
        if (this.stopped) await subscription.stop().catch(() => undefined);
        else this.subscription = subscription;
        return;
      } catch (error) {
        if (this.stopped) return;
        const topics = this.options.topics.join(', ');
        this.logger.warn(`cannot subscribe to ${topics}: ${error instanceof Error ? error.message : String(error)}; retrying`);
        await new Promise((resolve) => setTimeout(resolve, this.retryDelayMs).unref());
      }
    }
  }
}
