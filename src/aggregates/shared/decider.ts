/**
 * The shape of every aggregate: pure functions over its own events.
 * `decide` gets the time from outside so that it stays deterministic.
 */
export interface DomainEvent<T extends string = string, D extends object = object> {
  type: T;
  data: D;
}

export interface Decider<State, Command, Event extends DomainEvent> {
  initialState: State;
  evolve(state: State, event: Event): State;
  /** New events for the command, or a DomainError when it is refused. */
  decide(command: Command, state: State, now: Date): Event[];
}
