/**
 * One skill of this node (issue 18): stream `skill-<name>`. A skill is a
 * folder with a SKILL.md (YAML front matter `name`, `description`; the body:
 * instructions), the format agent tools share; it is parsed and validated
 * before it gets here (src/modules/engine/skill-file.ts).
 *
 * - `ingest` records SkillIngested with a version one past the last; the
 *   same content again (its sha256) records nothing.
 * - `remove` records SkillRemoved; a skill that is not there is refused (404).
 * - A removed skill can be ingested again (its version keeps counting).
 */
import type { Decider, DomainEvent } from '../shared/decider';
import { assertNever, DomainError } from '../shared/domain-error';

export type SkillSource = { kind: 'upload' } | { kind: 'local'; path: string } | { kind: 'github'; repository: string; path: string; ref: string | null };

export type SkillIngested = DomainEvent<
  'SkillIngested',
  { name: string; description: string; instructions: string; source: SkillSource; sha256: string; version: number; ingested_by: string; ingested_at: string }
>;
export type SkillRemoved = DomainEvent<'SkillRemoved', { name: string; version: number; removed_by: string; removed_at: string }>;
export type SkillEvent = SkillIngested | SkillRemoved;

/** An active skill holds its last ingestion (what an ingest replies with, whether or not it recorded anything). */
export type SkillState =
  | { status: 'none'; version: number }
  | { status: 'active'; version: number; sha256: string; ingested: Omit<SkillIngested['data'], 'instructions'> }
  | { status: 'removed'; version: number };

export type SkillCommand =
  | { kind: 'ingest'; name: string; description: string; instructions: string; source: SkillSource; sha256: string; by: string }
  | { kind: 'remove'; name: string; by: string };

export function skillStreamId(name: string): string {
  return `skill-${name}`;
}

export const skillDecider: Decider<SkillState, SkillCommand, SkillEvent> = {
  initialState: { status: 'none', version: 0 },

  evolve(_state, event) {
    switch (event.type) {
      case 'SkillIngested': {
        const { instructions: _instructions, ...ingested } = event.data;
        return { status: 'active', version: event.data.version, sha256: event.data.sha256, ingested };
      }
      case 'SkillRemoved':
        return { status: 'removed', version: event.data.version };
      default:
        return assertNever(event);
    }
  },

  decide(command, state, now) {
    const at = now.toISOString();
    switch (command.kind) {
      case 'ingest': {
        if (state.status === 'active' && state.sha256 === command.sha256) return [];
        const { name, description, instructions, source, sha256, by } = command;
        return [{ type: 'SkillIngested', data: { name, description, instructions, source, sha256, version: state.version + 1, ingested_by: by, ingested_at: at } }];
      }
      case 'remove':
        if (state.status !== 'active') throw new DomainError('not_found', `no skill named ${command.name}`);
        return [{ type: 'SkillRemoved', data: { name: command.name, version: state.version, removed_by: command.by, removed_at: at } }];
      default:
        return assertNever(command);
    }
  },
};
