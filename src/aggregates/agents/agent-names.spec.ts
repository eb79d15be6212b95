import { candidateNames, checkGlobalName, checkLocalName, checkName, GLOBAL_NAME_MAX, RESERVED_WORDS } from './agent-names';

describe('agent names', () => {
  it('given three words of 2-15 lowercase letters, then the global name is valid (case and spaces normalised)', () => {
    expect(checkGlobalName(' Swift.Amber.Falcon ')).toEqual({ valid: true, name: 'swift.amber.falcon', globalName: 'swift.amber.falcon' });
  });

  it.each([
    ['two.words', /3 words/],
    ['a.bb.cc', /2-15 lowercase letters/],
    ['abc.d3f.ghi', /2-15 lowercase letters/],
    ['one.two.three.four', /3 words/],
    ['swift.admin.falcon', /reserved/],
    ['', /required/],
  ])('given %p, then the global name is refused', (name, error) => {
    const check = checkGlobalName(name);
    expect(check.valid).toBe(false);
    if (!check.valid) expect(check.error).toMatch(error);
  });

  it('given words of 15 letters each, then the name of 47 characters is valid and nothing longer can be formed', () => {
    const word = 'a'.repeat(15);
    expect(checkGlobalName(`${word}.${word}.${word}`).valid).toBe(true);
    expect(`${word}.${word}.${word}`.length).toBe(GLOBAL_NAME_MAX);
  });

  it('given a local name and a handle, then the global name is <local>.<handle>', () => {
    expect(checkLocalName('quick.heron', 'alice')).toEqual({ valid: true, name: 'quick.heron', globalName: 'quick.heron.alice' });
  });

  it('given a local name without a handle, or with a bad one, then it is refused naming the handle', () => {
    for (const handle of [null, undefined, '', 'a1', 'admin']) {
      const check = checkLocalName('quick.heron', handle);
      expect(check.valid).toBe(false);
    }
  });

  it('given three words in local mode, then it is refused; a local name over 31 characters is refused', () => {
    expect(checkName('a.b.c', 'local', 'bob').valid).toBe(false);
    expect(checkLocalName(`${'a'.repeat(15)}.${'b'.repeat(15)}x`, 'bob').valid).toBe(false);
  });

  it('given the word lists, then every candidate is valid for its mode and none uses a reserved word', () => {
    let i = 0;
    const pick = (n: number) => i++ % n;
    for (const name of candidateNames('global', 40, pick)) expect(checkGlobalName(name).valid).toBe(true);
    for (const name of candidateNames('local', 40, pick)) expect(checkLocalName(name, 'bob').valid).toBe(true);
    expect(RESERVED_WORDS.has('admin')).toBe(true);
  });

  it('given a source that always picks the same words, then the candidates are de-duplicated rather than repeated', () => {
    expect(candidateNames('global', 5, () => 0)).toHaveLength(1);
  });
});
