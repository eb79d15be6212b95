/**
 * The durable encounter record of one pair of users (social-routes §13):
 * stream `socialEncounter-<a>:<b>`, ids sorted, one row per context
 * (`context_type` + `context_id`: a post, a proximity match, a missed
 * connection). The pair's stream is the consistency boundary: two concurrent
 * records of the same pair serialize on its revision, so `encounter_count`
 * never double counts, and each record names its source (`comment:<id>`,
 * `match:<id>`...), which the stream remembers, so a redelivered reaction
 * records nothing.
 *
 * Bond level (§13): 0 at the first encounter; at least 1 at count 2, 3 at 5,
 * 5 at 10, 7 at 20; from count 50 each further encounter adds 1, up to 10.
 */
import { DomainError, assertNever } from '../shared/domain-error';
import type { Decider } from '../shared/decider';

export const ENCOUNTER_CONTEXTS = ['post', 'proximity', 'missed_connection'] as const;
export type EncounterContext = (typeof ENCOUNTER_CONTEXTS)[number];

export const ENCOUNTER_NOT_FOUND = 'Encounter not found';

export interface EncounterRow {
  encounter_id: string;
  user_a_id: string;
  user_b_id: string;
  context_type: EncounterContext;
  context_id: string;
  location_label: string | null;
  encounter_count: number;
  bond_level: number;
  first_at: string;
  latest_at: string;
  is_mutual_aware: boolean;
}

export type SocialEncounterEvent =
  | { type: 'SocialEncounterRecorded'; data: Omit<EncounterRow, 'is_mutual_aware'> & { source: string } }
  | { type: 'SocialEncounterAcknowledged'; data: { encounter_id: string; user_a_id: string; user_b_id: string; by: string; at: string } };

export interface SocialEncounterState {
  /** by `<context_type>:<context_id>` */
  rows: Readonly<Record<string, EncounterRow>>;
  /** every source already recorded */
  sources: Readonly<Record<string, true>>;
}

export type SocialEncounterCommand =
  | {
      kind: 'record';
      userIds: [string, string];
      contextType: EncounterContext;
      contextId: string;
      locationLabel: string | null;
      /** what caused it, recorded once: `comment:<id>`, `match:<id>`, `response:<id>` */
      source: string;
      /** used only when this is the pair's first encounter in the context */
      newEncounterId: string;
    }
  | { kind: 'acknowledge'; encounterId: string; callerId: string };

/** The pair, sorted. */
export function encounterPair(one: string, other: string): [string, string] {
  return one < other ? [one, other] : [other, one];
}

export function socialEncounterStreamId(one: string, other: string): string {
  const [a, b] = encounterPair(one, other);
  return `socialEncounter-${a}:${b}`;
}

/** The bond level after the encounter that brought the count to `count`, from the level before it. */
export function nextBondLevel(previous: number, count: number): number {
  if (count >= 50) return Math.min(10, Math.max(previous, 7) + 1);
  const floor = count >= 20 ? 7 : count >= 10 ? 5 : count >= 5 ? 3 : count >= 2 ? 1 : 0;
  return Math.max(previous, floor);
}

const rowKey = (contextType: string, contextId: string): string => `${contextType}:${contextId}`;

/** The row with this id, if the caller is one of its pair; otherwise 404 `Encounter not found`. */
export function participantRow(state: SocialEncounterState, encounterId: string, callerId: string): EncounterRow {
  const row = Object.values(state.rows).find((r) => r.encounter_id === encounterId);
  if (!row || (row.user_a_id !== callerId && row.user_b_id !== callerId)) throw new DomainError('not_found', ENCOUNTER_NOT_FOUND);
  return row;
}

export const socialEncounterDecider: Decider<SocialEncounterState, SocialEncounterCommand, SocialEncounterEvent> = {
  initialState: { rows: {}, sources: {} },
  evolve(state, event) {
    switch (event.type) {
      case 'SocialEncounterRecorded': {
        const { source, ...row } = event.data;
        const key = rowKey(row.context_type, row.context_id);
        const aware = state.rows[key]?.is_mutual_aware ?? false;
        return { rows: { ...state.rows, [key]: { ...row, is_mutual_aware: aware } }, sources: { ...state.sources, [source]: true } };
      }
      case 'SocialEncounterAcknowledged': {
        const entry = Object.entries(state.rows).find(([, r]) => r.encounter_id === event.data.encounter_id);
        if (!entry) return state;
        return { ...state, rows: { ...state.rows, [entry[0]]: { ...entry[1], is_mutual_aware: true } } };
      }
      default:
        return assertNever(event);
    }
  },
  decide(command, state, now) {
    const at = now.toISOString();
    switch (command.kind) {
      case 'record': {
        const [a, b] = encounterPair(...command.userIds);
        if (a === b) throw new DomainError('invalid', 'An encounter needs two different users');
        if (state.sources[command.source]) return [];
        const before = state.rows[rowKey(command.contextType, command.contextId)];
        const count = (before?.encounter_count ?? 0) + 1;
        return [
          {
            type: 'SocialEncounterRecorded',
            data: {
              encounter_id: before?.encounter_id ?? command.newEncounterId,
              user_a_id: a,
              user_b_id: b,
              context_type: command.contextType,
              context_id: command.contextId,
              location_label: command.locationLabel ?? before?.location_label ?? null,
              encounter_count: count,
              bond_level: nextBondLevel(before?.bond_level ?? 0, count),
              first_at: before?.first_at ?? at,
              latest_at: at,
              source: command.source,
            },
          },
        ];
      }
      case 'acknowledge': {
        const row = participantRow(state, command.encounterId, command.callerId);
        if (row.is_mutual_aware) return [];
        return [
          {
            type: 'SocialEncounterAcknowledged',
            data: { encounter_id: row.encounter_id, user_a_id: row.user_a_id, user_b_id: row.user_b_id, by: command.callerId, at },
          },
        ];
      }
      default:
        return assertNever(command);
    }
  },
};
