import { agentSlug } from './agent-names';

describe('agentSlug', () => {
  it('given a name with spaces and capitals, then lower case words joined by -', () => {
    expect(agentSlug('Travel Planner')).toBe('travel-planner');
  });

  it('given accents and symbols, then the letters without accents and one - per run', () => {
    expect(agentSlug('  Café — Crème!! ')).toBe('cafe-creme');
  });

  it('given a name already a slug, then itself', () => {
    expect(agentSlug('support_bot-2')).toBe('support-bot-2');
  });

  it('given a long name, then at most 64 characters, never ending in -', () => {
    const slug = agentSlug(`${'a'.repeat(63)} b`)!;
    expect(slug).toBe('a'.repeat(63));
  });

  it('given only symbols, then null', () => {
    expect(agentSlug('!!! ---')).toBeNull();
  });
});
