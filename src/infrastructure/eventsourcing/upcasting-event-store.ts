/**
 * The event store everyone injects: the configured adapter, with every read
 * passed through the upcaster registry. Writes go through untouched.
 */
import type {
  AppendResult,
  BatchHandler,
  EventStore,
  ExpectedRevision,
  NewEvent,
  ReadAllOptions,
  ReadStreamOptions,
  RecordedEvent,
  SubscribeToAllOptions,
  Subscription,
} from '../event-store/event-store.port';
import type { ReadSealedOptions, SealedEvent } from '../event-store/hash-chain';
import type { UpcasterRegistry } from './upcasters';

export class UpcastingEventStore implements EventStore {
  constructor(
    private readonly inner: EventStore,
    private readonly upcasters: UpcasterRegistry,
  ) {}

  append(streamId: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    return this.inner.append(streamId, events, expected);
  }

  async readStream(streamId: string, options?: ReadStreamOptions): Promise<RecordedEvent[]> {
    return this.upcastAll(await this.inner.readStream(streamId, options));
  }

  async readAll(options?: ReadAllOptions): Promise<RecordedEvent[]> {
    return this.upcastAll(await this.inner.readAll(options));
  }

  subscribeToAll(options: SubscribeToAllOptions, handler: BatchHandler): Subscription {
    return this.inner.subscribeToAll(options, (events) => handler(this.upcastAll(events)));
  }

  headPosition(): Promise<number> {
    return this.inner.headPosition();
  }

  readSealed(options: ReadSealedOptions): Promise<SealedEvent[]> {
    return this.inner.readSealed(options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  private upcastAll(events: RecordedEvent[]): RecordedEvent[] {
    return events.map((e) => this.upcasters.upcast(e));
  }
}
