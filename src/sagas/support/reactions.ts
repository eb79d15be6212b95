/**
 * The one way a process manager says what it does: a reaction per event
 * type, typed from the event catalogue (src/aggregates/events.ts), like
 * `defineProjection` for read models. The event types the runner hands it are
 * the reactions' keys, so the list cannot drift from the cases handled; a
 * reaction to an unknown type, or a misspelt field, does not compile.
 *
 *   private readonly reactions = reactions({
 *     ContestJoined: (event) => new AwardSpark(...),            // one command
 *     GoalAccepted: (event) => [new A(...), new B(...)],        // several
 *     SubtaskFailed: (event) => (event.data.will_retry ? new Dispatch(...) : null), // none
 *   });
 *
 * Events that other subsystems or peers record but the catalogue does not
 * describe (yet) go in the second argument, read as plain recorded events.
 */
import type { ICommand } from '@nestjs/cqrs';
import type { DomainEventType } from '../../aggregates/events';
import type { RecordedEvent } from '../../infrastructure/event-store/event-store.port';
import type { ProcessManager } from '../../infrastructure/sagas/process-manager';
import type { RecordedOf } from '../../projections/support/define-projection';

/** The commands one event calls for: one, several, or none (null). */
export type Reaction<E> = (event: E) => ICommand | readonly ICommand[] | null;

export type Reactions = { [T in DomainEventType]?: Reaction<RecordedOf<T>> };

/** What a process manager takes from its reactions (synchronous: a reaction does no I/O). */
export interface ReactionTable extends Pick<ProcessManager, 'eventTypes' | 'react'> {
  react(event: RecordedEvent): ICommand[];
}

export function reactions(
  on: Reactions,
  outsideCatalogue: Readonly<Record<string, Reaction<RecordedEvent>>> = {},
): ReactionTable {
  const handlers = new Map<string, Reaction<RecordedEvent>>();
  for (const [type, reaction] of [...Object.entries(on), ...Object.entries(outsideCatalogue)]) {
    if (!reaction) continue;
    if (handlers.has(type)) throw new Error(`two reactions to ${type}`);
    handlers.set(type, reaction as Reaction<RecordedEvent>);
  }
  if (handlers.size === 0) throw new Error('a process manager reacts to at least one event type');
  return {
    eventTypes: [...handlers.keys()],
    react(event) {
      const commands = handlers.get(event.type)?.(event) ?? null;
      if (commands === null) return [];
      return Array.isArray(commands) ? [...(commands as readonly ICommand[])] : [commands as ICommand];
    },
  };
}
