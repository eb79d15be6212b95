import { parseSkillFile } from './skill-file';

const skill = (front: string, body = '# Haiku\nWrite three lines: 5, 7, 5 syllables.') => `---\n${front}\n---\n${body}\n`;

describe('SKILL.md', () => {
  it('given name, description and a body, then the skill with its instructions and a content hash', () => {
    const parsed = parseSkillFile(skill('name: haiku-writer\ndescription: Writes haiku. Use when asked for a haiku.\nlicense: MIT'));
    expect(parsed).toEqual({ name: 'haiku-writer', description: 'Writes haiku. Use when asked for a haiku.', instructions: '# Haiku\nWrite three lines: 5, 7, 5 syllables.', sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(parseSkillFile(skill('name: haiku-writer\ndescription: Writes haiku. Use when asked for a haiku.\nlicense: MIT').replace(/\n/g, '\r\n')).sha256).toBe(parsed.sha256);
  });

  it.each([
    ['no front matter', '# just text', /must start with a YAML front matter/],
    ['no name', skill('description: x'), /^name is required/],
    ['a name with capitals or spaces', skill('name: Haiku Writer\ndescription: x'), /^name must be 1-64 lower-case/],
    ['a name that is a number', skill('name: 42\ndescription: x'), /^name must be/],
    ['no description', skill('name: haiku'), /^description is required/],
    ['an empty description', skill('name: haiku\ndescription: ""'), /^description must be a text/],
    ['bad YAML', skill('name: [haiku\ndescription: x'), /front matter is not valid YAML/],
    ['a list for front matter', skill('- a\n- b'), /must be a YAML mapping/],
    ['no instructions', skill('name: haiku\ndescription: x', '   '), /no instructions/],
  ])('given %s, then 400 naming what is wrong', (_case, text, message) => {
    expect(() => parseSkillFile(text)).toThrow(message);
  });
});
