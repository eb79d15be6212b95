/**
 * A process manager (saga): reacts to recorded events of some types with
 * commands. `SagaRunner` feeds it every recorded event of its types at least
 * once, also across restarts, and dispatches its commands; so a reaction must
 * be idempotent (deterministic stream ids and idempotent commands make that
 * natural) and must not depend on being called once.
 *
 * Features write theirs with `reactions({...})` (src/sagas/support/reactions.ts),
 * typed from the event catalogue.
 */
import type { ICommand } from '@nestjs/cqrs';
import type { RecordedEvent } from '../event-store/event-store.port';

export interface ProcessManager {
  /** stable name, for logs */
  readonly name: string;
  /** the recorded event types `react` is called with */
  readonly eventTypes: readonly string[];
  /** the commands an event calls for (none: an empty array) */
  react(event: RecordedEvent): ICommand[] | Promise<ICommand[]>;
}
