/**
 * `skills`: one document per skill in `skills`, `_id` its name: the current
 * version's description, instructions and source while it is active (a
 * removed skill stays with `active: false`), for /api/skills and the chat
 * pipeline's choice of a skill.
 */
import type { Doc } from '../../infrastructure/read-store/read-store.port';
import type { SkillSource } from '../../aggregates/engine/skill';
import { applyOnce } from '../support/apply-once';
import { defineProjection } from '../support/define-projection';

export const SKILLS = 'skills';

export interface SkillDoc extends Doc {
  name: string;
  description: string;
  instructions: string;
  source: SkillSource;
  sha256: string;
  version: number;
  active: boolean;
  ingested_at: string;
  ingested_by: string;
  removed_at: string | null;
}

export const skillsProjection = defineProjection({
  name: 'skills',
  version: 1,
  collections: [SKILLS],
  indexes: [{ collection: SKILLS, spec: { keys: { active: 1 } } }],
  on: {
    SkillIngested: (event, writer) => {
      const d = event.data;
      applyOnce(writer, SKILLS, d.name, event, {
        $set: {
          name: d.name,
          description: d.description,
          instructions: d.instructions,
          source: d.source,
          sha256: d.sha256,
          version: d.version,
          active: true,
          ingested_at: d.ingested_at,
          ingested_by: d.ingested_by,
          removed_at: null,
        },
      });
    },
    SkillRemoved: (event, writer) => applyOnce(writer, SKILLS, event.data.name, event, { $set: { active: false, removed_at: event.data.removed_at } }, { upsert: false }),
  },
});
