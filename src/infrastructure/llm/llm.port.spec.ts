import { estimateTokens } from './llm.port';

describe('estimateTokens', () => {
  it('is about four characters a token, rounded up, at least 1 for any text', () => {
    expect(estimateTokens('')).toBe(0);
    expect(estimateTokens('a')).toBe(1);
    expect(estimateTokens('abcd')).toBe(1);
    expect(estimateTokens('abcde')).toBe(2);
    expect(estimateTokens('x'.repeat(4000))).toBe(1000);
  });
});
