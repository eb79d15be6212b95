/** Reads of the skills: the `skills` read model. */
import { Inject, Injectable } from '@nestjs/common';
import { DomainError } from '../../aggregates/shared/domain-error';
import { READ_STORE, type ReadStore } from '../../infrastructure/read-store/read-store.port';
import { SKILLS, type SkillDoc } from '../../projections/engine/skills.projection';
import type { SkillView } from './engine.commands';

export function skillView(doc: SkillDoc): SkillView {
  return { name: doc.name, description: doc.description, version: doc.version, source: doc.source, sha256: doc.sha256, ingested_at: doc.ingested_at, ingested_by: doc.ingested_by };
}

@Injectable()
export class EngineSkillsQueries {
  constructor(@Inject(READ_STORE) private readonly store: ReadStore) {}

  async list(): Promise<{ skills: SkillView[]; total: number }> {
    const docs = await this.store.collection<SkillDoc>(SKILLS).find({ active: true }, { sort: { _id: 1 } });
    return { skills: docs.map(skillView), total: docs.length };
  }

  async skill(name: string): Promise<SkillView & { instructions: string }> {
    const doc = await this.store.collection<SkillDoc>(SKILLS).findOne({ _id: String(name), active: true });
    if (!doc) throw new DomainError('not_found', `no skill named ${name}`);
    return { ...skillView(doc), instructions: doc.instructions };
  }
}
