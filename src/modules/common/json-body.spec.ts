import { DomainError } from '../../aggregates/shared/domain-error';
import { checkJsonDepth, checkJsonStrings, invalidUnicodeIn } from './json-body';

const nested = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;

describe('JSON body checks', () => {
  it('given 32 levels of nesting, then the text passes', () => {
    expect(() => checkJsonDepth(`{"a":${nested(31)}}`)).not.toThrow();
  });

  it('given 33 levels of nesting, then 400 request body is nested too deeply', () => {
    expect(() => checkJsonDepth(`{"a":${nested(32)}}`)).toThrow(new DomainError('invalid', 'request body is nested too deeply (at most 32 levels)'));
  });

  it('given brackets and escaped quotes inside strings, then they do not count as nesting', () => {
    expect(() => checkJsonDepth(JSON.stringify({ a: `\\"${'['.repeat(100)}`, b: '"{{{{' }), 2)).not.toThrow();
  });

  it('given 100,000 levels, then the scan refuses it without recursion', () => {
    expect(() => checkJsonDepth(nested(100_000))).toThrow(/nested too deeply/);
  });

  it.each([
    ['a lone high surrogate', 'a\ud800b', 'a lone surrogate'],
    ['a lone low surrogate', '\udc00', 'a lone surrogate'],
    ['a high surrogate at the end', 'abc\ud83d', 'a lone surrogate'],
    ['a NUL', 'ab\u0000', 'a NUL character'],
  ])('given %s, then it is named', (_what, text, problem) => {
    expect(invalidUnicodeIn(text)).toBe(problem);
  });

  it.each([['an emoji', 'hi 😀'], ['right-to-left text', 'שלום עולם'], ['plain text', 'hello']])('given %s, then nothing is wrong', (_what, text) => {
    expect(invalidUnicodeIn(text)).toBeNull();
  });

  it('given a lone surrogate in a nested key, then 400 request body contains invalid unicode', () => {
    expect(() => checkJsonStrings({ a: [{ ['k\ud800']: 1 }] })).toThrow(new DomainError('invalid', 'request body contains invalid unicode (a lone surrogate)'));
  });

  it('given a NUL in a nested value, then 400 naming the NUL', () => {
    expect(() => checkJsonStrings({ a: { b: ['x\u0000'] } })).toThrow('request body contains invalid unicode (a NUL character)');
  });
});
