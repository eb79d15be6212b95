/**
 * Skills in the agent's choice of tools (issue 18): the skills ingested on
 * this node (/api/skills, the `skills` read model) that a prompt calls for.
 * A prompt calls for a skill by naming it: `/haiku-writer`, or its name as a
 * word of the prompt ("use haiku-writer for this"). The chosen skill's
 * instructions join the model's system messages; without a model the agent
 * says which skill would take the prompt and that it needs a model.
 */
import { Inject, Injectable } from '@nestjs/common';
import type { LlmMessage } from '../../../infrastructure/llm/llm.port';
import { READ_STORE, type ReadStore } from '../../../infrastructure/read-store/read-store.port';
import { SKILLS, type SkillDoc } from '../../../projections/engine/skills.projection';

/** the skills a prompt is matched against at most */
const MAX_SKILLS = 500;

export function callsFor(prompt: string, name: string): boolean {
  return new RegExp(`(^|[^a-z0-9-])/?${name}($|[^a-z0-9-])`, 'i').test(prompt);
}

/** The system message that hands the model a skill. */
export function skillMessage(skill: Pick<SkillDoc, 'name' | 'description' | 'instructions'>): LlmMessage {
  return { role: 'system', content: `Use the skill "${skill.name}" (${skill.description}). Its instructions:\n\n${skill.instructions}` };
}

@Injectable()
export class SkillDirectory {
  constructor(@Inject(READ_STORE) private readonly store: ReadStore) {}

  /** The skill the prompt names (the longest name when several match), or null. */
  async choose(prompt: string): Promise<SkillDoc | null> {
    const skills = await this.store.collection<SkillDoc>(SKILLS).find({ active: true }, { limit: MAX_SKILLS });
    const named = skills.filter((skill) => callsFor(prompt, skill.name)).sort((a, b) => b.name.length - a.name.length);
    return named[0] ?? null;
  }
}
