/**
 * SKILL.md, the format agent tools share for skills: a YAML front matter
 * between `---` lines with `name` (lower-case letters, digits and hyphens,
 * at most 64) and `description` (what the skill does and when to use it, at
 * most 1024 characters), then the body: the instructions, in Markdown.
 * Other front matter fields (license, allowed-tools, metadata…) are allowed
 * and ignored. Parsed with `yaml` (a YAML 1.2 parser; no custom tags, no
 * code runs while parsing).
 */
import { createHash } from 'node:crypto';
import { parseDocument } from 'yaml';
import { DomainError } from '../../aggregates/shared/domain-error';

export const SKILL_NAME = /^[a-z0-9]+(-[a-z0-9]+)*$/;
export const MAX_SKILL_NAME = 64;
export const MAX_DESCRIPTION = 1024;
export const MAX_SKILL_FILE = 256 * 1024;

export interface ParsedSkill {
  name: string;
  description: string;
  instructions: string;
  sha256: string;
}

const invalid = (message: string): never => {
  throw new DomainError('invalid', message);
};

/** The skill of a SKILL.md text, or a 400 naming the field that is wrong. */
export function parseSkillFile(text: string): ParsedSkill {
  if (text.length > MAX_SKILL_FILE) invalid(`SKILL.md must be at most ${MAX_SKILL_FILE} characters`);
  const normalised = text.replace(/^\uFEFF/, '').replace(/\r\n/g, '\n');
  const match = /^---\n([\s\S]*?)\n---[ \t]*(?:\n|$)([\s\S]*)$/.exec(normalised);
  if (!match) return invalid('SKILL.md must start with a YAML front matter between --- lines (name, description)');
  const document = parseDocument(match[1], { prettyErrors: false, uniqueKeys: true });
  if (document.errors.length > 0) invalid(`SKILL.md front matter is not valid YAML: ${document.errors[0].message.split('\n')[0]}`);
  const front: unknown = document.toJS({ maxAliasCount: 10 });
  if (front === null || typeof front !== 'object' || Array.isArray(front)) return invalid('SKILL.md front matter must be a YAML mapping with name and description');
  const { name, description } = front as Record<string, unknown>;
  if (name === undefined) invalid('name is required in the SKILL.md front matter');
  if (typeof name !== 'string' || name.length > MAX_SKILL_NAME || !SKILL_NAME.test(name)) {
    invalid(`name must be 1-${MAX_SKILL_NAME} lower-case letters, digits and single hyphens (like pdf-tools)`);
  }
  if (description === undefined) invalid('description is required in the SKILL.md front matter');
  if (typeof description !== 'string' || !description.trim() || description.length > MAX_DESCRIPTION) invalid(`description must be a text of 1-${MAX_DESCRIPTION} characters`);
  const instructions = match[2].trim();
  if (!instructions) invalid('SKILL.md has no instructions after its front matter');
  return {
    name: name as string,
    description: (description as string).trim(),
    instructions,
    sha256: createHash('sha256').update(normalised).digest('hex'),
  };
}
