import { callsFor, skillMessage } from './skills';

describe('skills in the tool choice', () => {
  it('given a prompt that names a skill, as a word or with a slash, then it calls for it', () => {
    expect(callsFor('use haiku-writer for the rain', 'haiku-writer')).toBe(true);
    expect(callsFor('/haiku-writer rain', 'haiku-writer')).toBe(true);
    expect(callsFor('Haiku-Writer: rain', 'haiku-writer')).toBe(true);
  });

  it('given a prompt where the name is only part of a word, then it does not', () => {
    expect(callsFor('a haiku-writers guild', 'haiku-writer')).toBe(false);
    expect(callsFor('write a haiku', 'haiku-writer')).toBe(false);
  });

  it('hands the model the skill’s instructions in a system message', () => {
    expect(skillMessage({ name: 'haiku-writer', description: 'Writes haiku', instructions: 'Use 5-7-5.' })).toEqual({
      role: 'system',
      content: 'Use the skill "haiku-writer" (Writes haiku). Its instructions:\n\nUse 5-7-5.',
    });
  });
});
