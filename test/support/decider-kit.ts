/**
 * Given/when/then for deciders, the one way aggregate specs are written:
 *
 *   const { given } = deciderKit(goalDecider, now);
 *   it('given an accepted goal, when dispatched, then every sub-task is sent', () =>
 *     given(accepted).when({ kind: 'dispatch' }).then(dispatched('s1'), dispatched('s2')));
 *   it('given nothing, when completing, then it is refused as not found', () =>
 *     given().when(complete).thenRefused('not_found', 'goal not found'));
 *
 * `given` folds past events with `evolve`; `when` runs `decide` at `now`
 * (the kit's default, or the one passed); `then` compares the new events.
 * A past written as commands is `given(...history(like(s1), like(s2)))`.
 */
import type { Decider, DomainEvent } from '../../src/aggregates/shared/decider';
import { DomainError, type DomainErrorKind } from '../../src/aggregates/shared/domain-error';

export interface WhenResult<S, E> {
  /** the new events equal these, in order */
  then(...expected: E[]): void;
  /** the command is accepted and records nothing (idempotent repeat) */
  thenNothing(): void;
  /** the command is refused with a DomainError of this kind (and message, when given) */
  thenRefused(kind: DomainErrorKind, message?: string | RegExp): void;
  /** the new events, for assertions the others do not express */
  events(): E[];
  /** the state after the new events were applied */
  state(): S;
}

export interface GivenResult<S, C, E> {
  when(command: C, now?: Date): WhenResult<S, E>;
  /** the state the past events fold into */
  state(): S;
}

export interface DeciderKit<S, C, E extends DomainEvent> {
  given(...events: E[]): GivenResult<S, C, E>;
  /** the state after deciding each command in turn (at `now`) and applying its events */
  after(...commands: C[]): S;
  /** the events recorded by deciding each command in turn (at `now`): a past to hand to `given` */
  history(...commands: C[]): E[];
}

export function deciderKit<S, C, E extends DomainEvent>(decider: Decider<S, C, E>, defaultNow: Date = new Date()): DeciderKit<S, C, E> {
  const fold = (state: S, events: readonly E[]): S => events.reduce((s, e) => decider.evolve(s, e), state);
  const given = (...past: E[]): GivenResult<S, C, E> => {
    const state = () => fold(decider.initialState, past);
    return {
      state,
      when(command, now = defaultNow) {
        const decide = () => decider.decide(command, state(), now);
        return {
          then: (...expected) => expect(decide()).toEqual(expected),
          thenNothing: () => expect(decide()).toEqual([]),
          thenRefused(kind, message) {
            let caught: unknown = null;
            try {
              decide();
            } catch (error) {
              caught = error;
            }
            expect(caught).toBeInstanceOf(DomainError);
            expect((caught as DomainError).kind).toBe(kind);
            if (message !== undefined) {
              if (typeof message === 'string') expect((caught as DomainError).message).toBe(message);
              else expect((caught as DomainError).message).toMatch(message);
            }
          },
          events: decide,
          state: () => fold(state(), decide()),
        };
      },
    };
  };
  const history = (...commands: C[]): E[] => {
    const events: E[] = [];
    let state = decider.initialState;
    for (const command of commands) {
      const recorded = decider.decide(command, state, defaultNow);
      events.push(...recorded);
      state = fold(state, recorded);
    }
    return events;
  };
  return {
    given,
    after: (...commands) => fold(decider.initialState, history(...commands)),
    history,
  };
}
