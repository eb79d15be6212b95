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

/**
 * The fields of one kind of a decider's command union, without the `kind`
 * tag: what a Nest command carries as its payload, so the two vocabularies
 * cannot drift (`CommandInput<GoalCommand, 'accept'>`).
 */
export type CommandInput<C extends { kind: string }, K extends C['kind']> = Omit<Extract<C, { kind: K }>, 'kind'>;

/** The event of a union with this type tag. */
export type EventOfType<E extends DomainEvent, T extends E['type']> = Extract<E, { type: T }>;

/**
 * The variants of a state union that can have this status, with the status
 * narrowed to it (a variant may stand for several statuses).
 */
export type InStatus<S extends { status: string }, T extends string> = S extends unknown
  ? T extends S['status']
    ? S & { status: T }
    : never
  : never;

/**
 * A state modelled as a union tagged by `status`, narrowed to the status that
 * a command which was accepted leaves it in (a join leaves the entry joined):
 * what a handler replies from. Another status there is a bug in the decider,
 * not a refusal of the client, so it throws a plain Error (a 500).
 */
export function leftIn<S extends { status: string }, T extends S['status']>(state: S, status: T): InStatus<S, T> {
  if (state.status !== status) throw new Error(`expected the state to be ${status}, found ${state.status}`);
  return state as InStatus<S, T>;
}
